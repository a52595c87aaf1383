import type { I18n } from '@lingui/core';
/** Donation frequencies, in display order (spec section 3). */
export const FREQUENCIES = ['one-time', 'monthly', 'yearly'] as const;

/** A donation frequency: `one-time`, `monthly` or `yearly`. Its schema is FrequencySchema (field-rules.ts). */
export type Frequency = (typeof FREQUENCIES)[number];

/** The default frequency (spec section 9). */
export const DEFAULT_FREQUENCY: Frequency = 'one-time';

/** Toggle labels of the 'Choose Frequency' group (spec section 2). */
export const FREQUENCY_LABELS: Record<Frequency, string> = {
  'one-time': 'One-time Gift',
  monthly: 'Monthly',
  yearly: 'Yearly',
};

/**
 * The lowercase word used in sentences ("Your $25 monthly donation ...");
 * empty for one-time gifts, which the spec omits from the impact banner (section 2).
 */
export const FREQUENCY_ADJECTIVES: Record<Frequency, string> = {
  'one-time': '',
  monthly: 'monthly',
  yearly: 'yearly',
};

/** Catalogue ids of the 'Choose Frequency' toggles' labels (issue #24; English: {@link FREQUENCY_LABELS}, tested). */
export const FREQUENCY_LABEL_IDS: Record<Frequency, string> = {
  'one-time': /*i18n*/ 'frequency.one-time',
  monthly: /*i18n*/ 'frequency.monthly',
  yearly: /*i18n*/ 'frequency.yearly',
};

/** A frequency's toggle label in `i18n`'s language ('One-time Gift', 'Mensual'). */
export function frequencyLabel(i18n: I18n, frequency: Frequency): string {
  return i18n._(FREQUENCY_LABEL_IDS[frequency]);
}

/**
 * A gift's amount with its frequency, as the language writes it: `$25 monthly`, `25 US$ al mes`, `$10 one-time`.
 * `amount` is already formatted (formatDollars with the same language).
 */
export function amountWithFrequency(i18n: I18n, amount: string, frequency: Frequency): string {
  return i18n._('page.amountWithFrequency', { amount, frequency });
}
