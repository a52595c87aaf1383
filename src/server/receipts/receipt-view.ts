import { CARD_BRAND_NAMES } from '../../shared/card';
import { CAUSE_DETAILS } from '../../shared/causes';
import { FREQUENCY_LABELS } from '../../shared/frequencies';
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
 * The lines of a receipt: number, date, amount and currency, frequency, cause, donor (their name even for an
 * anonymous gift: the receipt is private), card brand and last 4, transaction id.
 */
export function receiptLines(receipt: ReceiptDetails): ReceiptLine[] {
  return [
    { label: 'Receipt number', value: receipt.number },
    { label: 'Date', value: formatReceiptDate(receipt.issuedAt) },
    { label: 'Amount', value: formatAmountCents(receipt.amountCents, receipt.currency) },
    { label: 'Frequency', value: FREQUENCY_LABELS[receipt.frequency] },
    { label: 'Cause', value: CAUSE_DETAILS[receipt.cause].displayName },
    { label: 'Donor', value: receipt.isAnonymous ? `${receipt.donorName} (anonymous gift)` : receipt.donorName },
    { label: 'Paid with', value: paidWith(receipt) },
    { label: 'Transaction ID', value: receipt.transactionId },
  ];
}
