import { z } from 'zod';
import { CAUSES } from '../causes';
import { DonorEmailSchema, atMost, present, textField } from '../field-rules';
import { FREQUENCIES } from '../frequencies';
import { AuditRowSchema } from './identity-api';
import {
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  STAFF_DATE_MESSAGE,
  STAFF_DATE_ORDER_MESSAGE,
  STAFF_DONATION_STATUSES,
  STAFF_MAIL_STATES,
  STAFF_ORDERS,
  StaffDonationEmailSchema,
  StaffPlanSummarySchema,
  StaffSearchSchema,
} from './donations-api';

/**
 * The staff donors API (issue #22, "Donors"): one donor per e-mail address compared case-insensitively (named by its
 * donor key, server/staff/shared/donor-key.ts), the list's query and answer, a donor's page, and the body of a year's
 * statement sent again. Money in integer cents; every total is net of refunds as the ledger's statistics count it
 * (decision 0072). Shared by the server (validation, OpenAPI) and the staff pages.
 */

/**
 * The list's sort keys: last gift (default), first gift, lifetime total, number of gifts (each from an index of the
 * donors' totals, decision 0072; this year's total is shown, not sorted on).
 */
export const STAFF_DONOR_SORTS = ['last_gift', 'first_gift', 'lifetime', 'gifts'] as const;
/** The list's plan filter: donors with an active plan (active or past due), or with none. */
export const STAFF_DONOR_PLAN_FILTERS = ['active', 'none'] as const;

/** `choose one of a, b, c` for an enum's `fieldErrors` message. */
const oneOf = (values: readonly string[]) => `Choose one of ${values.join(', ')}`;
/** The page number's message. */
const PAGE_MESSAGE = 'The page is a whole number from 1';
/** The page size's message. */
const PAGE_SIZE_MESSAGE = `The page size is a whole number from 1 to ${MAX_PAGE_SIZE}`;

/**
 * Query of `GET /api/staff/donors`, as the page's URL holds it: `q` a name or e-mail from the start of a word (as the
 * donations list's search: every word typed starts a word of a name or address the donor used); `plan` (`active`,
 * `none`); `from`/`to` calendar days in the staff's time zone, both included, of the donor's LAST gift (who gave lately,
 * who lapsed); `page`, `pageSize`, `sort` ({@link STAFF_DONOR_SORTS}), `order` (`desc` default). Unknown fields 400.
 */
export const StaffDonorListQuerySchema = z
  .strictObject({
    q: StaffSearchSchema.optional(),
    plan: z.enum(STAFF_DONOR_PLAN_FILTERS, { error: oneOf(STAFF_DONOR_PLAN_FILTERS) }).optional(),
    from: z.iso.date({ error: STAFF_DATE_MESSAGE }).optional(),
    to: z.iso.date({ error: STAFF_DATE_MESSAGE }).optional(),
    page: z.coerce.number({ error: PAGE_MESSAGE }).int({ error: PAGE_MESSAGE }).min(1, { error: PAGE_MESSAGE }).default(1),
    pageSize: z.coerce.number({ error: PAGE_SIZE_MESSAGE }).int({ error: PAGE_SIZE_MESSAGE }).min(1, { error: PAGE_SIZE_MESSAGE }).max(MAX_PAGE_SIZE, { error: PAGE_SIZE_MESSAGE }).default(DEFAULT_PAGE_SIZE),
    sort: z.enum(STAFF_DONOR_SORTS, { error: oneOf(STAFF_DONOR_SORTS) }).default('last_gift'),
    order: z.enum(STAFF_ORDERS, { error: oneOf(STAFF_ORDERS) }).default('desc'),
  })
  .superRefine((query, ctx) => {
    if (query.from !== undefined && query.to !== undefined && query.to < query.from) {
      ctx.addIssue({ code: 'custom', path: ['to'], message: STAFF_DATE_ORDER_MESSAGE });
    }
  });
/** A parsed donors query. */
export type StaffDonorListQuery = z.output<typeof StaffDonorListQuerySchema>;

/**
 * A donor's figures (decision 0072): the gifts counted are those charged (succeeded, refunded in part or whole,
 * disputed; not pending or declined attempts); `lifetimeCents` and `thisYearCents` are what the charity kept of them
 * (the ledger's kept amount of the gifts still succeeded, as /api/donations/stats counts), this year being the
 * calendar year in the staff's time zone; `activePlans` the donor's plans still charging (active or past due).
 */
export const StaffDonorFiguresSchema = z.object({
  firstGiftAt: z.iso.datetime(),
  lastGiftAt: z.iso.datetime(),
  giftCount: z.number().int(),
  lifetimeCents: z.number().int(),
  thisYearCents: z.number().int(),
  activePlans: z.number().int(),
});

/** One row of the list: the donor's key, the address of their latest gift as typed, every name used (latest first), and the figures. */
export const StaffDonorRowSchema = StaffDonorFiguresSchema.extend({
  donorKey: z.string(),
  email: z.string(),
  names: z.array(z.string()),
});
/** A donors list row. */
export type StaffDonorRow = z.infer<typeof StaffDonorRowSchema>;

/** Answer of the list: one page of donors, how many donors the filters select, the page asked, and the calendar year of `thisYearCents`. */
export const StaffDonorListAnswerSchema = z.object({
  rows: z.array(StaffDonorRowSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
  year: z.number().int(),
});
/** The donors list's answer. */
export type StaffDonorListAnswer = z.infer<typeof StaffDonorListAnswerSchema>;

/** A gift on a donor's page: the donation (cents), its staff status and its receipt (number, void or not). */
export const StaffDonorGiftSchema = z.object({
  id: z.uuid(),
  createdAt: z.iso.datetime(),
  donorName: z.string(),
  email: z.string(),
  amountCents: z.number().int(),
  refundedCents: z.number().int(),
  currency: z.string(),
  frequency: z.enum(FREQUENCIES),
  cause: z.enum(CAUSES),
  status: z.enum(STAFF_DONATION_STATUSES),
  receiptNumber: z.string().nullable(),
  receiptVoided: z.boolean(),
});

/** A year-end statement queued for the donor: its year, where it went, its state in the outbox, when it was sent. */
export const StaffDonorStatementSchema = z.object({
  id: z.uuid(),
  year: z.number().int(),
  recipient: z.string(),
  state: z.enum(STAFF_MAIL_STATES),
  attempts: z.number().int(),
  createdAt: z.iso.datetime(),
  sentAt: z.iso.datetime().nullable(),
});

/** Longest donor note, in characters (issue #36; the database's check says the same: db/schema.ts DONOR_NOTE_MAX_LENGTH). */
export const DONOR_NOTE_MAX_LENGTH = 2000;

/** A note on a donor (issue #36, part 1): its text, who wrote it (address at the time) and when. */
export const StaffDonorNoteSchema = z.object({
  id: z.uuid(),
  body: z.string(),
  authorEmail: z.string(),
  createdAt: z.iso.datetime(),
});
/** A donor note. */
export type StaffDonorNote = z.infer<typeof StaffDonorNoteSchema>;

/**
 * A merge into this donor (issue #36, part 1; decision 0110): the donor merged (their address then), who merged and
 * when, how many gifts moved, whether it was undone, and until when it can be (30 days after the merge).
 */
export const StaffDonorMergeSchema = z.object({
  id: z.uuid(),
  sourceDonorKey: z.string(),
  sourceEmail: z.string(),
  mergedByEmail: z.string(),
  mergedAt: z.iso.datetime(),
  giftCount: z.number().int(),
  undoneAt: z.iso.datetime().nullable(),
  undoableUntil: z.iso.datetime(),
  /** Whether it can be undone now (not undone, and at most 30 days old by the server's clock). */
  undoable: z.boolean(),
});
/** A merge on a donor's page. */
export type StaffDonorMerge = z.infer<typeof StaffDonorMergeSchema>;

/**
 * Answer of `GET /api/staff/donors/:id` (the donor key): the donor's addresses as typed (latest first), names, figures,
 * every gift attempt (newest first) with its receipt, every plan, the year-end statements queued (newest first), and
 * `statementYears`: the finished calendar years (UTC, as receipt numbers) with a receipt that is not void, whose
 * statement staff may send again.
 */
export const StaffDonorDetailSchema = z.object({
  donorKey: z.string(),
  email: z.string(),
  emails: z.array(z.string()),
  names: z.array(z.string()),
  figures: StaffDonorFiguresSchema,
  year: z.number().int(),
  gifts: z.array(StaffDonorGiftSchema),
  plans: z.array(StaffPlanSummarySchema),
  statements: z.array(StaffDonorStatementSchema),
  statementYears: z.array(z.number().int()),
  /** Issue #36: every e-mail about the donor's gifts, refunds and plans, and their statements, newest first (at most 200). */
  mail: z.array(StaffDonationEmailSchema),
  /** Issue #36: the notes on the donor, newest first. */
  notes: z.array(StaffDonorNoteSchema),
  /** Issue #36: the merges into the donor, newest first. */
  merges: z.array(StaffDonorMergeSchema),
  /** Issue #36: the audit entries about the donor, their gifts and their plans, newest first (at most 200). */
  audit: z.array(AuditRowSchema),
});
/** A donor's page. */
export type StaffDonorDetail = z.infer<typeof StaffDonorDetailSchema>;

/** Body of `POST /api/staff/donors/:id/statements/resend`: the calendar year whose statement goes again. */
export const StaffStatementResendRequestSchema = z.strictObject({
  year: z.number({ error: 'Choose the year of the statement (e.g. 2025)' }).int({ error: 'Choose the year of the statement (e.g. 2025)' }).min(2000, { error: 'Choose a year from 2000' }).max(2200, { error: 'Choose a year before 2200' }),
});
/** A statement resend asked for by staff. */
export type StaffStatementResendRequest = z.infer<typeof StaffStatementResendRequestSchema>;

/** Answer of a statement resend (202): the year and the address it is queued to. */
export const StaffStatementResendAnswerSchema = z.object({ success: z.literal(true), year: z.number().int(), recipient: z.string() });

/** A donor key in a body: 64 lowercase hex digits (server/staff/shared/donor-key.ts). */
const DonorKeySchema = z.string({ error: 'Choose the donor to merge' }).regex(/^[0-9a-f]{64}$/, { error: 'Choose the donor to merge' });
/** Most receipts one correction may send again (a donor's page shows at most this many gifts to choose from). */
export const MAX_RECEIPTS_RESENT = 500;

/**
 * Body of `POST /api/staff/donors/:id/email` (issue #36, part 1: "A correction is made on the donor"): the new address
 * (the donor form's rules) for every gift, receipt and plan of the donor, and the gifts whose receipt is sent again to
 * it (none unless staff ask: `resendDonationIds`, each a gift of the donor with a receipt not void).
 */
export const StaffDonorEmailCorrectionRequestSchema = z.strictObject({
  email: DonorEmailSchema,
  resendDonationIds: z
    .array(z.uuid({ error: 'Each receipt to resend is a gift id' }), { error: 'List the gifts whose receipt to resend' })
    .max(MAX_RECEIPTS_RESENT, { error: `Resend at most ${MAX_RECEIPTS_RESENT} receipts at once` })
    .default([]),
});
/** A donor-wide e-mail correction asked for by staff. */
export type StaffDonorEmailCorrectionRequest = z.infer<typeof StaffDonorEmailCorrectionRequestSchema>;

/** Answer of a donor-wide correction (200): the donor's new key and address, the old address, and how many rows changed. */
export const StaffDonorEmailCorrectionAnswerSchema = z.object({
  donorKey: z.string(),
  email: z.string(),
  previousEmail: z.string(),
  donationsUpdated: z.number().int(),
  plansUpdated: z.number().int(),
  messagesRedirected: z.number().int(),
  receiptsQueued: z.number().int(),
});
/** A donor-wide correction's answer. */
export type StaffDonorEmailCorrectionAnswer = z.infer<typeof StaffDonorEmailCorrectionAnswerSchema>;

/** Body of `POST /api/staff/donors/:id/merges` (issue #36): the donor merged into the one of the path, who is kept. */
export const StaffDonorMergeRequestSchema = z.strictObject({ sourceDonorKey: DonorKeySchema });
/** A merge asked for by staff. */
export type StaffDonorMergeRequest = z.infer<typeof StaffDonorMergeRequestSchema>;

/** Answer of a merge (201): the merge's id (for its undo), the donor kept, and how many rows moved. */
export const StaffDonorMergeAnswerSchema = z.object({
  mergeId: z.uuid(),
  donorKey: z.string(),
  donationsMoved: z.number().int(),
  messagesRedirected: z.number().int(),
  notesMoved: z.number().int(),
});
/** A merge's answer. */
export type StaffDonorMergeAnswer = z.infer<typeof StaffDonorMergeAnswerSchema>;

/** Answer of a merge's undo (200): the merge, and the donor key the merged donor has again. */
export const StaffDonorMergeUndoAnswerSchema = z.object({ mergeId: z.uuid(), sourceDonorKey: z.string(), donationsRestored: z.number().int() });

/** Body of `POST /api/staff/donors/:id/notes` (issue #36): the note, 1 to {@link DONOR_NOTE_MAX_LENGTH} characters, lines allowed. */
export const StaffDonorNoteRequestSchema = z.strictObject({
  body: textField(
    [
      [present, 'Write the note'],
      [atMost(DONOR_NOTE_MAX_LENGTH), `A note is at most ${DONOR_NOTE_MAX_LENGTH} characters`],
    ],
    'multi',
  ),
});
