import { z } from 'zod';
import { normalizeCampaignSlug } from '../campaign';
import { CardBrandSchema } from '../card';
import { CAUSES } from '../causes';
import { EXPORT_FORMATS } from '../export-formats';
import { atLeast, atMost, DonorEmailSchema, present, textField } from '../field-rules';
import { TributeDetailSchema } from '../tribute';
import { FREQUENCIES } from '../frequencies';
import { MAX_AMOUNT_DOLLARS } from '../money';
import { OFFLINE_GIFT_SOURCES, PAYMENT_METHODS } from '../offline-gifts';

/**
 * The staff donations API (issue #21, "Donations" and "A donation"): the list's query (filters, search, sort, page),
 * its answer with the totals of the filtered set, the export's query, a donation's detail with its timeline, and the
 * bodies of the actions (refund, correct the e-mail). Amounts are integer cents in answers (`amountCents`), dollars
 * only in the list's `amountMin`/`amountMax`, which mirror the page's URL. Shared by the server (validation, OpenAPI)
 * and the staff pages.
 */

/**
 * A donation's status as staff see it: the ledger's status, with a gift refunded in part (`succeeded` with
 * 0 < refunded < amount) told apart as `partially_refunded`; `succeeded` then means nothing refunded.
 */
export const STAFF_DONATION_STATUSES = ['succeeded', 'failed', 'pending', 'refunded', 'partially_refunded', 'disputed'] as const;
/** One of {@link STAFF_DONATION_STATUSES}. */
export type StaffDonationStatus = (typeof STAFF_DONATION_STATUSES)[number];

/** The gateways a donation was paid through: the test gateway, or Stripe. */
export const STAFF_GATEWAYS = ['test', 'stripe'] as const;
/** Test or live money (`is_test_payment`): a test card or Stripe test keys, or a real payment. */
export const STAFF_MODES = ['test', 'live'] as const;
/** The list's sort keys: the donation's date (created), or its amount. */
export const STAFF_SORTS = ['date', 'amount'] as const;
/** Sort directions. */
export const STAFF_ORDERS = ['desc', 'asc'] as const;

/** Rows per page unless asked otherwise. */
export const DEFAULT_PAGE_SIZE = 25;
/** The most rows one page holds. */
export const MAX_PAGE_SIZE = 100;
/** Longest search text, in characters. */
export const MAX_SEARCH_LENGTH = 200;

/**
 * The search text of the staff lists (donations, plans, donors): at most {@link MAX_SEARCH_LENGTH} characters, one line
 * of text (field-rules' textField: trimmed, NFC, no control or bidirectional character, no lone surrogate: issue #32).
 */
export const StaffSearchSchema = textField([[atMost(MAX_SEARCH_LENGTH), `Search with at most ${MAX_SEARCH_LENGTH} characters`]]);

/** A receipt number as receipts carry it: `2026-000123` (the year, a hyphen, 6 digits or more). */
export const RECEIPT_NUMBER_PATTERN = /^[0-9]{4}-[0-9]{6,}$/;

/** A dollar amount as the page's URL writes it: `12`, `12.5` or `12.50` (no sign, no thousands separator). */
const DOLLARS_PATTERN = /^[0-9]{1,6}(\.[0-9]{1,2})?$/;

/** `fieldErrors` message of a date that is not a real calendar date written YYYY-MM-DD. */
export const STAFF_DATE_MESSAGE = 'Use a calendar date written YYYY-MM-DD, e.g. 2026-01-31';
/** `fieldErrors` message of an amount bound that is not dollars with at most two decimals. */
export const STAFF_AMOUNT_MESSAGE = `Use an amount in dollars with at most two decimals, from 0 to ${MAX_AMOUNT_DOLLARS}, e.g. 12.50`;
/** `fieldErrors` message (on `to`) of a date range that ends before it starts. */
export const STAFF_DATE_ORDER_MESSAGE = 'The date range must not end before it starts (from <= to)';
/** `fieldErrors` message (on `amountMax`) of an amount range whose maximum is below its minimum. */
export const STAFF_AMOUNT_ORDER_MESSAGE = 'The largest amount must not be below the smallest (amountMin <= amountMax)';

/** `choose one of a, b, c` for an enum's `fieldErrors` message. */
export const oneOf = (values: readonly string[]) => `Choose one of ${values.join(', ')}`;

/** A dollar bound of the URL (`12.50`) as integer cents (1250); no floating point on the way. */
export const DollarsAsCentsSchema = z
  .string()
  .regex(DOLLARS_PATTERN, { error: STAFF_AMOUNT_MESSAGE })
  .transform((text) => {
    const [whole = '0', fraction = ''] = text.split('.');
    return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  })
  .refine((cents) => cents <= Math.round(MAX_AMOUNT_DOLLARS * 100), { error: STAFF_AMOUNT_MESSAGE });

/**
 * The filters of the list, the export and the totals (issue #21, "Donations"), as the page's URL holds them:
 * `from`/`to` calendar days in the staff's time zone (TZ, as the daily digest), both included, of the donation's date;
 * `status` as {@link STAFF_DONATION_STATUSES}; `frequency`; `cause`; `gateway` (`test`, `stripe`); `mode` (`test`,
 * `live`); `paymentMethod` (issue #37); `amountMin`/`amountMax` in dollars, converted to cents (`amountMinCents`...), both included; `q`: a
 * name or e-mail from the start of a word (case-insensitive, every word typed must start a word), an exact receipt
 * number (`2026-000123`), or an exact charge or payment intent id. Every field optional; unknown ones refused (400).
 */
export const StaffDonationFilterShape = {
  from: z.iso.date({ error: STAFF_DATE_MESSAGE }).optional(),
  to: z.iso.date({ error: STAFF_DATE_MESSAGE }).optional(),
  status: z.enum(STAFF_DONATION_STATUSES, { error: oneOf(STAFF_DONATION_STATUSES) }).optional(),
  frequency: z.enum(FREQUENCIES, { error: oneOf(FREQUENCIES) }).optional(),
  cause: z.enum(CAUSES, { error: oneOf(CAUSES) }).optional(),
  gateway: z.enum(STAFF_GATEWAYS, { error: oneOf(STAFF_GATEWAYS) }).optional(),
  mode: z.enum(STAFF_MODES, { error: oneOf(STAFF_MODES) }).optional(),
  /** How the gift was paid (issue #37): `card` on the site, or a method of a gift received outside it. */
  paymentMethod: z.enum(PAYMENT_METHODS, { error: oneOf(PAYMENT_METHODS) }).optional(),
  amountMin: DollarsAsCentsSchema.optional(),
  amountMax: DollarsAsCentsSchema.optional(),
  q: StaffSearchSchema.optional(),
  /** The campaign of the donor's link (issue #23): a slug, matched without case. */
  campaign: z
    .string()
    .refine((slug) => normalizeCampaignSlug(slug) !== null, { error: 'Use a campaign slug: letters, digits and dashes, at most 64' })
    .transform((slug) => slug.toLowerCase())
    .optional(),
};

/** The ranges' order checks shared by the list's and the export's query schemas. */
function checkRanges(
  query: { from?: string; to?: string; amountMin?: number; amountMax?: number },
  ctx: z.RefinementCtx,
): void {
  if (query.from !== undefined && query.to !== undefined && query.to < query.from) {
    ctx.addIssue({ code: 'custom', path: ['to'], message: STAFF_DATE_ORDER_MESSAGE });
  }
  if (query.amountMin !== undefined && query.amountMax !== undefined && query.amountMax < query.amountMin) {
    ctx.addIssue({ code: 'custom', path: ['amountMax'], message: STAFF_AMOUNT_ORDER_MESSAGE });
  }
}

/** The filters alone (see {@link StaffDonationFilterShape}); amounts in cents once parsed. */
export const StaffDonationFilterSchema = z.strictObject(StaffDonationFilterShape).superRefine(checkRanges);
/** Parsed filters: `amountMin`/`amountMax` are integer CENTS here (the URL's dollars converted). */
export type StaffDonationFilter = z.output<typeof StaffDonationFilterSchema>;

/**
 * Query of `GET /api/staff/donations`: the filters, `page` (from 1), `pageSize` (1 to {@link MAX_PAGE_SIZE}, default
 * {@link DEFAULT_PAGE_SIZE}), `sort` (`date` default, or `amount`) and `order` (`desc` default, or `asc`).
 */
export const StaffDonationListQuerySchema = z
  .strictObject({
    ...StaffDonationFilterShape,
    page: z.coerce.number({ error: 'The page is a whole number from 1' }).int({ error: 'The page is a whole number from 1' }).min(1, { error: 'The page is a whole number from 1' }).default(1),
    pageSize: z.coerce
      .number({ error: `The page size is a whole number from 1 to ${MAX_PAGE_SIZE}` })
      .int({ error: `The page size is a whole number from 1 to ${MAX_PAGE_SIZE}` })
      .min(1, { error: `The page size is a whole number from 1 to ${MAX_PAGE_SIZE}` })
      .max(MAX_PAGE_SIZE, { error: `The page size is a whole number from 1 to ${MAX_PAGE_SIZE}` })
      .default(DEFAULT_PAGE_SIZE),
    sort: z.enum(STAFF_SORTS, { error: oneOf(STAFF_SORTS) }).default('date'),
    order: z.enum(STAFF_ORDERS, { error: oneOf(STAFF_ORDERS) }).default('desc'),
  })
  .superRefine(checkRanges);
/** A parsed list query (amount bounds in cents). */
export type StaffDonationListQuery = z.output<typeof StaffDonationListQuerySchema>;

/** Query of `GET /api/staff/donations/export`: `format` (required; the operator's export's formats) and the same filters as the list. */
export const StaffDonationExportQuerySchema = z
  .strictObject({ ...StaffDonationFilterShape, format: z.enum(EXPORT_FORMATS, { error: oneOf(EXPORT_FORMATS) }) })
  .superRefine(checkRanges);
/** A parsed export query. */
export type StaffDonationExportQuery = z.output<typeof StaffDonationExportQuerySchema>;

/** One row of the list: the donation as staff see it; money in integer cents; the card as brand and last4 only. */
export const StaffDonationRowSchema = z.object({
  id: z.uuid(),
  createdAt: z.iso.datetime(),
  donorName: z.string(),
  email: z.string(),
  amountCents: z.number().int(),
  currency: z.string(),
  frequency: z.enum(FREQUENCIES),
  cause: z.enum(CAUSES),
  status: z.enum(STAFF_DONATION_STATUSES),
  gateway: z.string(),
  mode: z.enum(STAFF_MODES),
  receiptNumber: z.string().nullable(),
  cardBrand: CardBrandSchema.nullable(),
  last4: z.string().nullable(),
  refundedCents: z.number().int(),
  /** The known campaign of the donor's link, or null (issue #23). */
  campaign: z.string().nullable(),
  /** Cents of amountCents the donor added to cover the card fee (issue #23); the gift is the rest. */
  feeCoveredCents: z.number().int(),
  /** The donor asked not to be named in public (the list marks it: issue #36). */
  isAnonymous: z.boolean(),
  /** How the gift was paid (issue #37): `card`, or `cheque`, `cash`, `bank_transfer`, `other` for a gift received outside the site. */
  paymentMethod: z.enum(PAYMENT_METHODS),
});
/** A list row. */
export type StaffDonationRow = z.infer<typeof StaffDonationRowSchema>;

/**
 * Totals of the whole filtered set (every page), in cents: `count` rows; `grossCents` the amounts of the gifts that
 * were charged (succeeded, refunded in part or whole, disputed; not pending or failed attempts); `refundedCents`
 * what was refunded of them; `disputedCents` the amounts of disputed gifts (the card issuer holds them); `netCents`
 * what the charity keeps: gross less refunded less disputed (the ledger's kept amount of the gifts still succeeded).
 */
export const StaffDonationTotalsSchema = z.object({
  count: z.number().int(),
  grossCents: z.number().int(),
  refundedCents: z.number().int(),
  disputedCents: z.number().int(),
  netCents: z.number().int(),
});
/** Totals of a filtered set. */
export type StaffDonationTotals = z.infer<typeof StaffDonationTotalsSchema>;

/** Answer of the list: one page of rows in the asked order, the totals of the filtered set, and the page asked. */
export const StaffDonationListAnswerSchema = z.object({
  rows: z.array(StaffDonationRowSchema),
  totals: StaffDonationTotalsSchema,
  page: z.number().int(),
  pageSize: z.number().int(),
});
/** The list's answer. */
export type StaffDonationListAnswer = z.infer<typeof StaffDonationListAnswerSchema>;

/**
 * The state of an e-mail in the outbox as staff see it: `queued` (not tried yet), `retrying` (tried, failed for a
 * while, due again), `sent`, `failed` (given up; `lastError` says why), `cancelled` (withdrawn before it was sent: a
 * dedicated gift's card after a refund; issue #23).
 */
export const STAFF_MAIL_STATES = ['queued', 'retrying', 'sent', 'failed', 'cancelled'] as const;

/** An e-mail about the donation (its receipt, a resend, a refund notice, its plan's mail). */
export const StaffDonationEmailSchema = z.object({
  id: z.uuid(),
  kind: z.string(),
  recipient: z.string(),
  state: z.enum(STAFF_MAIL_STATES),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  createdAt: z.iso.datetime(),
  sentAt: z.iso.datetime().nullable(),
});

/** A refund made: amount in cents, the gateway's refund id, when (the answer of a staff refund). */
export const StaffRefundMadeSchema = z.object({
  id: z.uuid(),
  amountCents: z.number().int(),
  gatewayRefundId: z.string(),
  createdAt: z.iso.datetime(),
});

/** A refund of the donation as its page lists it: the refund made, who made it and why. */
export const StaffDonationRefundSchema = StaffRefundMadeSchema.extend({
  /**
   * Who refunded (issue #36, part 3: "the refunds table shows the reason and who refunded"): a staff member (`byEmail`
   * their address), the operator's route, or the gateway (a refund made in its own dashboard and reported to us).
   */
  by: z.enum(['staff', 'operator', 'gateway']),
  byEmail: z.string().nullable(),
  /** The reason staff gave (null for the operator's and the gateway's). */
  reason: z.string().nullable(),
});

/** An audit entry naming the donation: who (staff e-mail, or the operator or system), what, when, and its details. */
export const StaffDonationAuditEntrySchema = z.object({
  id: z.uuid(),
  action: z.string(),
  actorType: z.string(),
  actorEmail: z.string().nullable(),
  details: z.unknown(),
  createdAt: z.iso.datetime(),
});

/** The donation's recurring plan, when it is a charge of one: status, amount (cents), frequency, next charge date (UTC). */
export const StaffPlanSummarySchema = z.object({
  id: z.uuid(),
  status: z.enum(['active', 'past_due', 'paused', 'cancelled']),
  amountCents: z.number().int(),
  frequency: z.enum(['monthly', 'yearly']),
  cause: z.enum(CAUSES),
  nextChargeOn: z.string(),
  period: z.number().int().nullable(),
  firstDonationId: z.uuid(),
  chargeCount: z.number().int(),
});

/** Kinds of timeline event, each from one of the detail's parts. */
export const STAFF_TIMELINE_KINDS = ['created', 'receipt_issued', 'receipt_voided', 'refund', 'email_queued', 'email_sent', 'audit'] as const;

/** One event of the merged timeline: when, what kind, a one-line summary, and the id of the part it comes from. */
export const StaffTimelineEventSchema = z.object({
  at: z.iso.datetime(),
  kind: z.enum(STAFF_TIMELINE_KINDS),
  summary: z.string(),
  refId: z.string().nullable(),
});

/**
 * Answer of `GET /api/staff/donations/:id`: every field held of the donation (the card as brand and last4 only, never
 * a card number), its receipt, the e-mails about it with their state, its refunds, its dispute, its plan, the audit
 * entries naming it, and one `timeline` of all of them sorted by time (oldest first).
 */
export const StaffDonationDetailSchema = z.object({
  donation: StaffDonationRowSchema.extend({
    ledgerStatus: z.enum(['pending', 'succeeded', 'failed', 'refunded', 'disputed']),
    updatedAt: z.iso.datetime(),
    phone: z.string().nullable(),
    address: z.object({
      street: z.string().nullable(),
      city: z.string().nullable(),
      state: z.string().nullable(),
      zipCode: z.string().nullable(),
      country: z.string().nullable(),
    }),
    message: z.string().nullable(),
    isAnonymous: z.boolean(),
    transactionId: z.string().nullable(),
    paymentIntentId: z.string().nullable(),
    declineCode: z.string().nullable(),
    keptCents: z.number().int(),
    recurringPeriod: z.number().int().nullable(),
    /** A gift in honour or in memory of someone (issue #23), or null. */
    tribute: TributeDetailSchema.nullable(),
    /** The key of the gift's donor (issue #36: "a donation links to its donor"; server/staff/shared/donor-key.ts). */
    donorKey: z.string(),
    /** A gift received outside the site (issue #37): its reference, day received, note, who recorded it and its void; null for a site gift. */
    offline: z
      .object({
        reference: z.string().nullable(),
        receivedOn: z.iso.date(),
        note: z.string().nullable(),
        source: z.enum(OFFLINE_GIFT_SOURCES),
        receiptEmailed: z.boolean(),
        voidedAt: z.iso.datetime().nullable(),
        voidReason: z.string().nullable(),
      })
      .nullable(),
  }),
  receipt: z.object({ number: z.string(), issuedAt: z.iso.datetime(), voidedAt: z.iso.datetime().nullable() }).nullable(),
  emails: z.array(StaffDonationEmailSchema),
  refunds: z.array(StaffDonationRefundSchema),
  dispute: z.object({ status: z.string() }).nullable(),
  plan: StaffPlanSummarySchema.nullable(),
  audit: z.array(StaffDonationAuditEntrySchema),
  timeline: z.array(StaffTimelineEventSchema),
});
/** A donation's detail. */
export type StaffDonationDetail = z.infer<typeof StaffDonationDetailSchema>;

/** Shortest refund reason, in characters (issue #21: a reason is required). */
export const REFUND_REASON_MIN_LENGTH = 3;
/** Longest refund reason, in characters. */
export const REFUND_REASON_MAX_LENGTH = 500;

/**
 * The reason of a staff refund of `what` (`donation`, `last charge`): {@link REFUND_REASON_MIN_LENGTH} to
 * {@link REFUND_REASON_MAX_LENGTH} characters of text, on several lines if need be (field-rules' textField: trimmed,
 * NFC, no control character but tab and newline, no bidirectional control, no lone surrogate: issue #32), since it is
 * kept in the audit log and shown to staff.
 */
export function refundReasonSchema(what: 'donation' | 'last charge') {
  return textField(
    [
      [present, `Say why the ${what} is refunded`],
      [atLeast(REFUND_REASON_MIN_LENGTH), `Say why the ${what} is refunded (at least ${REFUND_REASON_MIN_LENGTH} characters)`],
      [atMost(REFUND_REASON_MAX_LENGTH), `Keep the reason under ${REFUND_REASON_MAX_LENGTH} characters`],
    ],
    'multi',
  );
}

/**
 * Body of `POST /api/staff/donations/:id/refunds`: `amountCents` (a whole number of cents from 1; absent = all that
 * is left) and `reason` (3 to 500 characters, kept in the audit entry). The `Idempotency-Key` header is required.
 */
export const StaffRefundRequestSchema = z.strictObject({
  amountCents: z.number({ error: 'The amount is a whole number of cents' }).int({ error: 'The amount is a whole number of cents' }).min(1, { error: 'The amount is at least 1 cent' }).optional(),
  reason: refundReasonSchema('donation'),
});
/** A refund asked for by staff. */
export type StaffRefundRequest = z.infer<typeof StaffRefundRequestSchema>;

/** Answer of a refund (201, or 200 replayed): the refund, and the donation after it (cents). */
export const StaffRefundAnswerSchema = z.object({
  refund: StaffRefundMadeSchema,
  donation: z.object({ id: z.uuid(), status: z.enum(STAFF_DONATION_STATUSES), amountCents: z.number().int(), refundedCents: z.number().int() }),
});
/** A refund's answer. */
export type StaffRefundAnswer = z.infer<typeof StaffRefundAnswerSchema>;

/** Answer of a resend (202): the address the receipt is queued to. */
export const StaffResendAnswerSchema = z.object({ success: z.literal(true), recipient: z.string() });

/**
 * Body of `POST /api/staff/donations/:id/email`: the corrected address (the donor form's rules) and whether to resend
 * the receipt to it at once.
 */
export const StaffEmailCorrectionRequestSchema = z.strictObject({
  email: DonorEmailSchema,
  resend: z.boolean({ error: 'Say whether to resend the receipt (true or false)' }),
});
/** An e-mail correction asked for by staff. */
export type StaffEmailCorrectionRequest = z.infer<typeof StaffEmailCorrectionRequestSchema>;

/** Answer of an e-mail correction (200): the new address, the old one, and whether a receipt was queued to it. */
export const StaffEmailCorrectionAnswerSchema = z.object({
  email: z.string(),
  previousEmail: z.string(),
  planUpdated: z.boolean(),
  receiptQueued: z.boolean(),
});
