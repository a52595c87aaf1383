import { CARD_BRAND_NAMES } from '../../shared/card';
import { CAUSE_DETAILS } from '../../shared/causes';
import { FREQUENCY_LABELS } from '../../shared/frequencies';
import { describeTribute } from '../../shared/tribute';
import { keptAmountCents } from '../ledger/kept-amount';
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

/** `$25.00 USD`: cents as an amount with 2 decimals, its symbol and ISO code (en-US). */
export function formatAmountCents(amountCents: number, currency: string): string {
  const amount = new Intl.NumberFormat('en-US', { style: 'currency', currency, minimumFractionDigits: 2 }).format(
    amountCents / 100,
  );
  return `${amount} ${currency}`;
}

/** `23 November 2026`: a date as printed on receipts, in UTC (the time zone of receipt numbers; decision 0041). */
export function formatReceiptDate(instant: Date): string {
  return new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(instant);
}

/** `Visa ending in 4242`, or `Card` when the brand or last 4 are unknown. */
function paidWith({ cardBrand, cardLast4 }: Pick<ReceiptDetails, 'cardBrand' | 'cardLast4'>): string {
  if (!cardBrand || !cardLast4) return 'Card';
  return `${CARD_BRAND_NAMES[cardBrand]} ending in ${cardLast4}`;
}

/**
 * The lines of a receipt: number, date, amount and currency (the total charged; with the gift and the card fee the donor
 * covered, issue #23; after a partial refund, also what was refunded and the gift after it; issue #14), frequency, cause,
 * donor (their name even for an anonymous gift: the receipt is private), the dedication of a gift in honour or in memory
 * of someone (issue #23),
 * card brand and last 4, transaction id; and a recurring gift's next charge.
 */
export function receiptLines(receipt: ReceiptDetails & Partial<RecurringReceiptNote>): ReceiptLine[] {
  return [
    { label: 'Receipt number', value: receipt.number },
    { label: 'Date', value: formatReceiptDate(receipt.issuedAt) },
    { label: 'Amount', value: formatAmountCents(receipt.amountCents, receipt.currency) },
    // Issue #23: a gift whose donor covered the card fee shows the gift and the fee; 'Amount' is their total, as charged.
    ...(receipt.feeCoveredCents
      ? [
          { label: 'Gift', value: formatAmountCents(receipt.amountCents - receipt.feeCoveredCents, receipt.currency) },
          { label: 'Card fee covered', value: formatAmountCents(receipt.feeCoveredCents, receipt.currency) },
        ]
      : []),
    // NOTE: a void receipt (all refunded) says VOID instead; a partial refund leaves the receipt valid for the rest (decision 0058).
    ...(receipt.refundedCents > 0 && !receipt.voidedAt
      ? [
          { label: 'Refunded', value: formatAmountCents(receipt.refundedCents, receipt.currency) },
          { label: 'Gift after refund', value: formatAmountCents(keptAmountCents(receipt), receipt.currency) },
        ]
      : []),
    { label: 'Frequency', value: FREQUENCY_LABELS[receipt.frequency] },
    { label: 'Cause', value: CAUSE_DETAILS[receipt.cause].displayName },
    { label: 'Donor', value: receipt.isAnonymous ? `${receipt.donorName} (anonymous gift)` : receipt.donorName },
    // A dedicated gift (issue #23) says in honour or in memory of whom.
    ...(receipt.tributeType && receipt.tributeHonoreeName ? [{ label: 'Dedication', value: describeTribute({ type: receipt.tributeType, honoreeName: receipt.tributeHonoreeName }) }] : []),
    { label: 'Paid with', value: paidWith(receipt) },
    { label: 'Transaction ID', value: receipt.transactionId },
    // A gift of a recurring plan (issue #13) says so, and when the next charge is, as the e-mail sends it.
    ...(receipt.nextChargeOn ? [{ label: 'Next charge', value: `${formatReceiptDate(receipt.nextChargeOn)} (recurring gift)` }] : []),
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
