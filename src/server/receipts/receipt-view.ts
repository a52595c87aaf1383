import { CARD_BRAND_NAMES } from '../../shared/card';
import { causeName } from '../../shared/causes';
import { frequencyLabel } from '../../shared/frequencies';
import { type Locale, SOURCE_LOCALE } from '../../shared/i18n/locales';
import { formatDollars } from '../../shared/money';
import { serverI18n } from '../i18n/catalogues';
import { keptAmountCents } from '../ledger/kept-amount';
import type { OrganizationProfile } from '../platform/config';
import type { ReceiptDetails } from './repository';

/**
 * What a receipt says, line by line, in one place for the e-mail (HTML and text) and the PDF, so they cannot
 * disagree (issue #12, "Contents"). Amounts come in as integer cents and are shown with their currency.
 */

/** One labelled line of a receipt. */
export interface ReceiptLine {
  label: string;
  value: string;
}

/** The amount formats of English receipts, by currency; the date formats, by locale. */
const amountFormats = new Map<string, Intl.NumberFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * `$25.00 USD`: cents as an amount with 2 decimals, its symbol and ISO code (en-US), the spec's English receipts;
 * in another language, dollars as that language writes them (issue #24: formatDollars, `25 US$`, `25,50 US$`).
 */
export function formatAmountCents(amountCents: number, currency: string, locale: Locale = SOURCE_LOCALE): string {
  if (locale !== SOURCE_LOCALE) return formatDollars(amountCents / 100, locale);
  return `${onceEach(amountFormats, currency, () => new Intl.NumberFormat('en-US', { style: 'currency', currency, minimumFractionDigits: 2 })).format(amountCents / 100)} ${currency}`;
}

/**
 * The value kept in `cache` under `key`, made by `make` the first time. NOTE: an Intl formatter costs tens of
 * microseconds to build and almost nothing to use; a receipt formats a dozen amounts and dates (issue #39's profile).
 */
function onceEach<T>(cache: Map<string, T>, key: string, make: () => T): T {
  let value = cache.get(key);
  if (value === undefined) {
    value = make();
    cache.set(key, value);
  }
  return value;
}

/**
 * `23 November 2026`: a date as printed on receipts, in UTC (the time zone of receipt numbers; decision 0041); in
 * another language as Intl writes it there (issue #24: `23 de noviembre de 2026`).
 */
export function formatReceiptDate(instant: Date, locale: Locale = SOURCE_LOCALE): string {
  const tag = locale === SOURCE_LOCALE ? 'en-GB' : locale;
  return onceEach(dateFormats, tag, () => new Intl.DateTimeFormat(tag, { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' })).format(instant);
}

/**
 * The day a receipt's gift was given, as an instant to print with {@link formatReceiptDate}: the day a gift received
 * outside the site was received (issue #37: a cheque of last month, recorded today, is dated last month), else the
 * receipt's issue time (a site gift's receipt is issued as it succeeds).
 */
export function giftDateOf({ issuedAt, receivedOn }: Pick<ReceiptDetails, 'issuedAt' | 'receivedOn'>): Date {
  if (!receivedOn) return issuedAt;
  const [year = 0, month = 1, day = 1] = receivedOn.split('-').map(Number);
  return new Date(Date.UTC(year, month - 1, day, 12));
}

/** `Visa ending in 4242`, or `Card` when the brand or last 4 are unknown, or the method of a gift received outside the site (`Cheque`; issue #37), in `locale`. */
function paidWith({ cardBrand, cardLast4, paymentMethod }: Pick<ReceiptDetails, 'cardBrand' | 'cardLast4' | 'paymentMethod'>, locale: Locale): string {
  const i18n = serverI18n(locale);
  if (paymentMethod !== undefined && paymentMethod !== 'card') return i18n._('pdf.receipt.offlineMethod', { method: paymentMethod });
  if (!cardBrand || !cardLast4) return i18n._('pdf.receipt.card');
  return i18n._('pdf.receipt.cardEnding', { brand: CARD_BRAND_NAMES[cardBrand], last4: cardLast4 });
}

/**
 * The lines of a receipt: number, date, amount and currency (the total charged; with the gift and the card fee the donor
 * covered, issue #23; after a partial refund, also what was refunded and the gift after it; issue #14), frequency, cause,
 * donor (their name even for an anonymous gift: the receipt is private), the dedication of a gift in honour or in memory
 * of someone (issue #23),
 * card brand and last 4, transaction id; and a recurring gift's next charge.
 */
export function receiptLines(receipt: ReceiptDetails & Partial<RecurringReceiptNote>): ReceiptLine[] {
  // Issue #24: in the gift's language (the receipt's `locale`), English when unknown.
  const locale = receipt.locale ?? SOURCE_LOCALE;
  const i18n = serverI18n(locale);
  const amount = (cents: number) => formatAmountCents(cents, receipt.currency, locale);
  return [
    { label: i18n._('pdf.receipt.number'), value: receipt.number },
    { label: i18n._('pdf.receipt.date'), value: formatReceiptDate(giftDateOf(receipt), locale) },
    { label: i18n._('pdf.receipt.amount'), value: amount(receipt.amountCents) },
    // Issue #23: a gift whose donor covered the card fee shows the gift and the fee; 'Amount' is their total, as charged.
    ...(receipt.feeCoveredCents
      ? [
          { label: i18n._('pdf.receipt.gift'), value: amount(receipt.amountCents - receipt.feeCoveredCents) },
          { label: i18n._('pdf.receipt.cardFeeCovered'), value: amount(receipt.feeCoveredCents) },
        ]
      : []),
    // NOTE: a void receipt (all refunded) says VOID instead; a partial refund leaves the receipt valid for the rest (decision 0058).
    ...(receipt.refundedCents > 0 && !receipt.voidedAt
      ? [
          { label: i18n._('pdf.receipt.refunded'), value: amount(receipt.refundedCents) },
          { label: i18n._('pdf.receipt.giftAfterRefund'), value: amount(keptAmountCents(receipt)) },
        ]
      : []),
    { label: i18n._('pdf.receipt.frequency'), value: frequencyLabel(i18n, receipt.frequency) },
    { label: i18n._('pdf.receipt.cause'), value: causeName(i18n, receipt.cause) },
    { label: i18n._('pdf.receipt.donor'), value: receipt.isAnonymous ? i18n._('pdf.receipt.anonymousDonor', { name: receipt.donorName }) : receipt.donorName },
    // A dedicated gift (issue #23) says in honour or in memory of whom.
    ...(receipt.tributeType && receipt.tributeHonoreeName ? [{ label: i18n._('pdf.receipt.dedication'), value: i18n._('email.tribute.dedication', { type: receipt.tributeType, name: receipt.tributeHonoreeName }) }] : []),
    { label: i18n._('pdf.receipt.paidWith'), value: paidWith(receipt, locale) },
    { label: i18n._('pdf.receipt.transactionId'), value: receipt.transactionId },
    // A gift of a recurring plan (issue #13) says so, and when the next charge is, as the e-mail sends it.
    ...(receipt.nextChargeOn
      ? [{ label: i18n._('pdf.receipt.nextCharge'), value: i18n._('pdf.receipt.nextChargeValue', { date: formatReceiptDate(receipt.nextChargeOn, locale) }) }]
      : []),
  ];
}

/**
 * What the receipt of a recurring plan's gift adds (issue #13): the plan's next charge (null when it is paused or
 * cancelled) and the donor's manage link. Given by the recurring module (recurring/receipt-note.ts).
 */
export interface RecurringReceiptNote {
  nextChargeOn: Date | null;
  /** The absolute, signed `<PUBLIC_URL>/donate/manage/<token>` link of the plan. */
  manageUrl: string;
}

/** The recurring note of a donation's receipt, or undefined for a one-time gift. */
export type RecurringReceiptNoteOf = (donationId: string) => Promise<RecurringReceiptNote | undefined>;

/**
 * The tax wording of a receipt in `locale` (issue #12, decision 0043; issue #24): the operator's RECEIPT_TAX_STATEMENT
 * as written when set, else the catalogues' default, which claims no tax deductibility (a gift made straight to a
 * charity outside the United States is generally not deductible there, so it says only what is true everywhere).
 */
export function taxStatementIn(organization: Pick<OrganizationProfile, 'taxStatement'>, locale: Locale): string {
  const i18n = serverI18n(locale);
  return organization.taxStatement ?? i18n._('pdf.receipt.taxStatement');
}
