import { z } from 'zod';
import { CauseSchema, DonorEmailSchema, DonorNameSchema, MAX_LENGTHS, optionalText, textField, atMost } from './field-rules';
import { MIN_AMOUNT_DOLLARS } from './money';
import { HonoreeNameSchema, TRIBUTE_TYPES, TRIBUTE_TYPE_MESSAGE } from './tribute';

/**
 * Gifts received outside the site (issue #37; decision 0112): cheques, cash, bank transfers and other gifts that staff,
 * a CSV import or an operator's script record. The request's schema, the methods, the date and amount rules, and how a
 * donor without an e-mail address is represented, shared by the page, the server and the CSV import.
 */

/** How a gift was paid: `card` on the site, or one of the {@link OFFLINE_METHODS} outside it. */
export const PAYMENT_METHODS = ['card', 'cheque', 'cash', 'bank_transfer', 'other'] as const;
/** One of {@link PAYMENT_METHODS}. */
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
/** The methods of a gift received outside the site (issue #37, "What to build"). */
export const OFFLINE_METHODS = ['cheque', 'cash', 'bank_transfer', 'other'] as const;
/** One of {@link OFFLINE_METHODS}. */
export type OfflineMethod = (typeof OFFLINE_METHODS)[number];
/** How staff read a payment method. */
export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  card: 'Card',
  cheque: 'Cheque',
  cash: 'Cash',
  bank_transfer: 'Bank transfer',
  other: 'Other',
};

/** Who recorded an offline gift: a staff member on the page, an operator's script, or a staff member's CSV import. */
export const OFFLINE_GIFT_SOURCES = ['staff', 'operator', 'import'] as const;
/** One of {@link OFFLINE_GIFT_SOURCES}. */
export type OfflineGiftSource = (typeof OFFLINE_GIFT_SOURCES)[number];

/** Smallest offline gift, in cents: the spec's minimum gift (section 5, $1). */
export const OFFLINE_MIN_AMOUNT_CENTS = MIN_AMOUNT_DOLLARS * 100;
/** Largest offline gift, in cents (issue #37: "at most $1,000,000"). */
export const OFFLINE_MAX_AMOUNT_CENTS = 1_000_000 * 100;
/** Longest reference (cheque number, bank reference), in characters. */
export const OFFLINE_REFERENCE_MAX_LENGTH = 100;
/** Longest staff note, in characters (as a donor's message). */
export const OFFLINE_NOTE_MAX_LENGTH = MAX_LENGTHS.message;
/** Longest void reason, in characters. */
export const OFFLINE_VOID_REASON_MAX_LENGTH = 500;

/**
 * The domain of the address that stands for a donor without an e-mail (decision 0112): `.invalid` is reserved by
 * RFC 2606 and RFC 6761 and never resolves, so no message can ever reach it, and every place that mails, shows or exports
 * an address treats it as none ({@link isNoEmailAddress}). Staff never type it: the server derives it from the name.
 */
export const NO_EMAIL_DOMAIN = 'no-email.invalid';

/** True when `email` is the stand-in address of a donor without an e-mail (see {@link NO_EMAIL_DOMAIN}). */
export function isNoEmailAddress(email: string): boolean {
  return email.toLowerCase().endsWith(`@${NO_EMAIL_DOMAIN}`);
}

/** `email` as people should see it: '' for the stand-in of a donor without an e-mail, else the address. */
export function shownEmail(email: string): string {
  return isNoEmailAddress(email) ? '' : email;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** True when `value` is a real calendar day written `YYYY-MM-DD`. */
export function isIsoDate(value: string): boolean {
  if (!ISO_DATE.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

/**
 * The message when `receivedOn` (`YYYY-MM-DD`) is not a day a gift may have been received on, given `today`
 * (`YYYY-MM-DD` in the staff's time zone, TZ): today or earlier, within this calendar year and the last (issue #37).
 * Undefined when it is fine.
 */
export function receivedOnError(receivedOn: string, today: string): string | undefined {
  if (!isIsoDate(receivedOn)) return 'Enter the date as YYYY-MM-DD';
  if (receivedOn > today) return 'The date received cannot be in the future';
  const earliest = `${Number(today.slice(0, 4)) - 1}-01-01`;
  if (receivedOn < earliest) return `The date received must be in this year or the last (${earliest} or later)`;
  return undefined;
}

/** The message when `amountCents` is not an amount an offline gift may have; undefined when it is fine. */
export function offlineAmountError(amountCents: number): string | undefined {
  if (!Number.isInteger(amountCents)) return 'The amount must be in whole cents';
  if (amountCents < OFFLINE_MIN_AMOUNT_CENTS) return `The amount must be at least $${OFFLINE_MIN_AMOUNT_CENTS / 100}`;
  if (amountCents > OFFLINE_MAX_AMOUNT_CENTS) return 'The amount must be at most $1,000,000';
  return undefined;
}

/**
 * Cents of a dollar amount as staff write it (`200`, `200.5`, `1,200.00`, `$200`), or NaN for anything else. A comma is
 * read only as a thousands separator (`1,200`), never as a decimal comma: `200,50` is refused rather than read as
 * $20,050 (a European spreadsheet's way of writing $200.50). Shared by the page and the CSV import (issue #37).
 */
export function centsOfDollarText(text: string): number {
  const match = /^\$?(\d{1,3}(?:,\d{3})+|\d{1,9})(?:\.(\d{1,2}))?$/.exec(text.trim());
  if (!match?.[1]) return Number.NaN;
  return Number(match[1].replaceAll(',', '')) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/** A campaign's slug as donations record it (lower case letters, digits and hyphens, 1-64). */
const CampaignSlugSchema = z.string().regex(/^[a-z0-9-]{1,64}$/, { error: 'Choose a campaign from the list' });

/** The donor's postal address (all lines optional), as on the donation form. */
export const OfflineDonorAddressSchema = z.strictObject({
  street: optionalText('Street', MAX_LENGTHS.street).optional(),
  city: optionalText('City', MAX_LENGTHS.city).optional(),
  state: optionalText('State', MAX_LENGTHS.state).optional(),
  zipCode: optionalText('ZIP code', MAX_LENGTHS.zipCode).optional(),
  country: optionalText('Country', MAX_LENGTHS.country).optional(),
});

/**
 * The donor of an offline gift: a name (required) and, optionally, an e-mail address and a postal address. An existing
 * donor is picked by search and sent with her name and address as found; a donor without an e-mail is identified by her
 * name (decision 0112).
 */
export const OfflineDonorSchema = z.strictObject({
  name: DonorNameSchema,
  email: DonorEmailSchema.optional(),
  address: OfflineDonorAddressSchema.optional(),
});

/**
 * The body of `POST /api/staff/offline-gifts` and `POST /api/admin/offline-gifts` (issue #37: "the same body as the
 * page"), with an `Idempotency-Key` header: the method, its optional reference, the day received (`YYYY-MM-DD`, checked
 * against today in TZ by the server: {@link receivedOnError}), the amount in integer cents ($1 to $1,000,000), the donor,
 * the cause, an optional campaign slug and dedication, a note, whether to e-mail the receipt (only with an address), and
 * `confirmDuplicate` once staff confirmed a likely duplicate. Strict, texts trimmed and refused with control characters.
 */
export const OfflineGiftRequestSchema = z.strictObject({
  method: z.enum(OFFLINE_METHODS, { error: 'Choose how the gift was paid: cheque, cash, bank transfer or other' }),
  reference: optionalText('Reference', OFFLINE_REFERENCE_MAX_LENGTH).optional(),
  receivedOn: z.string({ error: 'Enter the date received' }).refine(isIsoDate, { error: 'Enter the date as YYYY-MM-DD' }),
  amountCents: z
    .number({ error: 'The amount must be a number of cents' })
    .superRefine((value, ctx) => {
      const message = offlineAmountError(value);
      if (message) ctx.addIssue({ code: 'custom', message });
    }),
  donor: OfflineDonorSchema,
  cause: CauseSchema,
  campaign: CampaignSlugSchema.optional(),
  tribute: z
    .strictObject({ type: z.enum(TRIBUTE_TYPES, { error: TRIBUTE_TYPE_MESSAGE }), honoreeName: HonoreeNameSchema })
    .optional(),
  note: textField([[atMost(OFFLINE_NOTE_MAX_LENGTH), `Note must be at most ${OFFLINE_NOTE_MAX_LENGTH} characters`]], 'multi').optional(),
  sendReceipt: z.boolean({ error: 'Say whether to e-mail the receipt' }),
  confirmDuplicate: z.boolean().optional(),
});
/** A validated offline gift request. */
export type OfflineGiftRequest = z.infer<typeof OfflineGiftRequestSchema>;

/** An offline gift as recorded: the donation's id, its receipt number and whether its receipt was queued to the donor. */
export const OfflineGiftAnswerSchema = z.object({
  donationId: z.uuid(),
  receiptNumber: z.string(),
  receiptEmailed: z.boolean(),
});
/** {@link OfflineGiftAnswerSchema}'s type. */
export type OfflineGiftAnswer = z.infer<typeof OfflineGiftAnswerSchema>;

/** 409 of a likely duplicate: the gift it looks like (same donor, amount, day and reference); send again with `confirmDuplicate`. */
export const OfflineDuplicateAnswerSchema = z.object({
  success: z.literal(false),
  error: z.string(),
  code: z.literal('likely_duplicate'),
  duplicateOf: z.object({ donationId: z.uuid(), receiptNumber: z.string().nullable() }),
});

/** Body of a void (issue #37, "Correcting one"): why (a bounced cheque, a mistyped amount), 3-500 characters. */
export const OfflineVoidRequestSchema = z.strictObject({
  reason: textField([
    [(v) => v.length >= 3, 'Give the reason (at least 3 characters), e.g. cheque bounced'],
    [atMost(OFFLINE_VOID_REASON_MAX_LENGTH), `Reason must be at most ${OFFLINE_VOID_REASON_MAX_LENGTH} characters`],
  ]),
});

/** Answer of a void: the donation, whether its receipt was voided and whether the donor is told. */
export const OfflineVoidAnswerSchema = z.object({
  donationId: z.uuid(),
  receiptVoided: z.boolean(),
  donorNotified: z.boolean(),
});

/**
 * The columns of an offline gifts CSV, in the template's order (issue #37, "From a file"; documented in README.md).
 * `amount` is in dollars (`200` or `200.00`), `received_on` is `YYYY-MM-DD`, `method` one of {@link OFFLINE_METHODS},
 * `donor_email` or `donor_name` identifies the donor, `send_receipt` is `yes` or `no` (empty: no).
 */
export const OFFLINE_CSV_COLUMNS = [
  'received_on',
  'method',
  'reference',
  'amount',
  'donor_name',
  'donor_email',
  'street',
  'city',
  'state',
  'zip_code',
  'country',
  'cause',
  'campaign',
  'dedication_type',
  'honoree_name',
  'note',
  'send_receipt',
] as const;

/** One error of a checked CSV: the row (1 = the first data row, as a spreadsheet shows it less the header), the column and what is wrong. */
export const OfflineImportErrorSchema = z.object({ row: z.number().int(), column: z.string(), message: z.string() });

/** Answer of a CSV import: refused (every error named; nothing written) or recorded (how many new, how many already recorded). */
export const OfflineImportAnswerSchema = z.object({
  recorded: z.number().int(),
  alreadyRecorded: z.number().int(),
  rows: z.number().int(),
});

/** 400 of a CSV refused whole: every row's errors. */
export const OfflineImportRefusedSchema = z.object({
  success: z.literal(false),
  error: z.string(),
  code: z.literal('import_refused'),
  errors: z.array(OfflineImportErrorSchema),
});
