import type { DonationResult } from '../../../shared/donation';
import { formatDollars } from '../../../shared/money';
import type { I18n } from '@lingui/core';
import type { Locale } from '../../../shared/i18n/locales';

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
 * The rows of the amount on the thank-you page in `i18n`'s language, amounts formatted for `locale` (issue #23,
 * section 2: it shows "the gift, the fee covered and the total"): 'Gift', 'Card fee covered' and 'Total charged'
 * when the donor covered the fee; else 'Amount' alone.
 */
export function amountRows(i18n: I18n, locale: Locale, result: Pick<DonationResult, 'amount' | 'feeCovered'>): DetailRow[] {
  if (!result.feeCovered) return [{ term: i18n._('thankYou.amount'), value: formatDollars(result.amount, locale) }];
  return [
    { term: i18n._('thankYou.gift'), value: formatDollars(giftDollarsOf(result), locale) },
    { term: i18n._('thankYou.feeCovered'), value: formatDollars(result.feeCovered, locale) },
    { term: i18n._('thankYou.totalCharged'), value: formatDollars(result.amount, locale) },
  ];
}
