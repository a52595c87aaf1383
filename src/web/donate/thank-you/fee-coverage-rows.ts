import type { DonationResult } from '../../../shared/donation';
import { formatDollars } from '../../../shared/money';

/** A row of the thank-you page's details: its term and value. */
export interface DetailRow {
  term: string;
  value: string;
}

/** The gift of a result in dollars: its amount without the fee covered (issue #23), to the cent. */
export function giftDollarsOf(result: Pick<DonationResult, 'amount' | 'feeCovered'>): number {
  return Math.round((result.amount - (result.feeCovered ?? 0)) * 100) / 100;
}

/**
 * The rows of the amount on the thank-you page (issue #23, section 2: it shows "the gift, the fee covered and the
 * total"): 'Gift', 'Card fee covered' and 'Total charged' when the donor covered the fee; else 'Amount' alone.
 */
export function amountRows(result: Pick<DonationResult, 'amount' | 'feeCovered'>): DetailRow[] {
  if (!result.feeCovered) return [{ term: 'Amount', value: formatDollars(result.amount) }];
  return [
    { term: 'Gift', value: formatDollars(giftDollarsOf(result)) },
    { term: 'Card fee covered', value: formatDollars(result.feeCovered) },
    { term: 'Total charged', value: formatDollars(result.amount) },
  ];
}
