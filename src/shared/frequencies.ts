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
