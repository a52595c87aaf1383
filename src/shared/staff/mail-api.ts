import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, STAFF_MAIL_STATES } from './donations-api';

/**
 * The staff mail API (issue #22, "Mail"): the outbox as staff need it (messages retrying or failed, and on request the
 * others), each with its kind, recipient, attempts, next try and last error; the list's query; "retry now". Shared by
 * the server (validation, OpenAPI) and the staff pages.
 */

/**
 * Every kind of e-mail the outbox sends (server/db/schema.ts MAIL_KINDS; a test checks the two lists agree) with the
 * name staff read for it (issue #22: "receipt, statement, renewal notice, digest, staff invitation...").
 */
export const STAFF_MAIL_KIND_LABELS = {
  receipt: 'Receipt',
  receipt_void: 'Receipt void notice',
  receipt_links: 'Receipt links',
  year_end_statement: 'Year-end statement',
  receipt_resend: 'Receipt sent again',
  renewal_failed: 'Renewal declined notice',
  plan_paused: 'Plan paused notice',
  plan_changed: 'Plan change notice',
  manage_links: 'Manage links',
  renewal_needs_authentication: 'Renewal needs authentication',
  card_expiring: 'Card expiring reminder',
  partial_refund: 'Partial refund notice',
  staff_digest: 'Staff daily digest',
  staff_invitation: 'Staff invitation',
  staff_sign_in_link: 'Staff sign-in link',
  tribute_card: 'Dedication card',
  webhook_endpoint_paused: 'Webhook endpoint paused notice',
} as const satisfies Record<string, string>;
/** The kinds of {@link STAFF_MAIL_KIND_LABELS}. */
export const STAFF_MAIL_KINDS = Object.keys(STAFF_MAIL_KIND_LABELS) as [keyof typeof STAFF_MAIL_KIND_LABELS, ...(keyof typeof STAFF_MAIL_KIND_LABELS)[]];
/** One of {@link STAFF_MAIL_KINDS}. */
export type StaffMailKind = keyof typeof STAFF_MAIL_KIND_LABELS;

/** The kinds that carry a donation's receipt: to a wrong address, the page offers the e-mail correction with a resend. */
export const RECEIPT_KINDS: readonly StaffMailKind[] = ['receipt', 'receipt_resend'];

/**
 * The list's state filter: `attention` (default: retrying, or failed and not yet resolved: decision 0073), one of the
 * outbox states as staff see them ({@link STAFF_MAIL_STATES}), or `all`.
 */
export const STAFF_MAIL_STATE_FILTERS = ['attention', ...STAFF_MAIL_STATES, 'all'] as const;
/** One of {@link STAFF_MAIL_STATE_FILTERS}. */
export type StaffMailStateFilter = (typeof STAFF_MAIL_STATE_FILTERS)[number];

/** `choose one of a, b, c` for an enum's `fieldErrors` message. */
const oneOf = (values: readonly string[]) => `Choose one of ${values.join(', ')}`;
const PAGE_MESSAGE = 'The page is a whole number from 1';
const PAGE_SIZE_MESSAGE = `The page size is a whole number from 1 to ${MAX_PAGE_SIZE}`;

/** Query of `GET /api/staff/mail`, as the page's URL holds it: `state` (default `attention`), `kind`, `page`, `pageSize`. Unknown fields 400. */
export const StaffMailListQuerySchema = z.strictObject({
  state: z.enum(STAFF_MAIL_STATE_FILTERS, { error: oneOf(STAFF_MAIL_STATE_FILTERS) }).default('attention'),
  kind: z.enum(STAFF_MAIL_KINDS, { error: oneOf(STAFF_MAIL_KINDS) }).optional(),
  page: z.coerce.number({ error: PAGE_MESSAGE }).int({ error: PAGE_MESSAGE }).min(1, { error: PAGE_MESSAGE }).default(1),
  pageSize: z.coerce.number({ error: PAGE_SIZE_MESSAGE }).int({ error: PAGE_SIZE_MESSAGE }).min(1, { error: PAGE_SIZE_MESSAGE }).max(MAX_PAGE_SIZE, { error: PAGE_SIZE_MESSAGE }).default(DEFAULT_PAGE_SIZE),
});
/** A parsed mail list query. */
export type StaffMailListQuery = z.output<typeof StaffMailListQuerySchema>;

/**
 * One message of the list: its kind, recipient, state, attempts so far, next try (a message waiting), the last error
 * in words (`lastError`), whether a relay is sending it right now (`sending`), the donation it is about, and for a
 * failed receipt the later copy that resolved it (`resolvedBy`: a receipt sent again, e.g. after the address was corrected).
 */
export const StaffMailRowSchema = z.object({
  id: z.uuid(),
  kind: z.enum(STAFF_MAIL_KINDS),
  recipient: z.string(),
  state: z.enum(STAFF_MAIL_STATES),
  attempts: z.number().int(),
  nextAttemptAt: z.iso.datetime().nullable(),
  lastError: z.string().nullable(),
  sending: z.boolean(),
  createdAt: z.iso.datetime(),
  sentAt: z.iso.datetime().nullable(),
  donationId: z.uuid().nullable(),
  /** Whether that donation is a charge of a recurring plan (a correction of its address then moves the plan's mail too). */
  donationHasPlan: z.boolean(),
  resolvedBy: z.object({ id: z.uuid(), recipient: z.string(), state: z.enum(STAFF_MAIL_STATES) }).nullable(),
});
/** A mail list row. */
export type StaffMailRow = z.infer<typeof StaffMailRowSchema>;

/** Answer of the list: one page of messages (newest first), how many the filters select, and the page asked. */
export const StaffMailListAnswerSchema = z.object({
  rows: z.array(StaffMailRowSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
/** The mail list's answer. */
export type StaffMailListAnswer = z.infer<typeof StaffMailListAnswerSchema>;

/** Answer of "retry now" (202): the message, due now, and its recipient. */
export const StaffMailRetryAnswerSchema = z.object({ success: z.literal(true), id: z.uuid(), recipient: z.string() });
