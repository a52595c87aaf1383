import type { I18n } from '@lingui/core';
import { causeName } from './causes';
import type { Frequency } from './frequencies';
import type { Locale } from './i18n/locales';
import { formatDollars } from './money';

/**
 * A tier picked by the largest `minDollars` that the amount reaches; the last tier has `minDollars` 0. `text` is a
 * catalogue id (issue #24): the source catalogue holds the spec's English.
 */
export interface Tier {
  minDollars: number;
  text: string;
}

/** The text of the tier `amountDollars` reaches, in `i18n`'s language (shared with thank-you-impact.ts). */
export function pickTier(i18n: I18n, tiers: readonly Tier[], amountDollars: number): string {
  const tier = tiers.find((t) => amountDollars >= t.minDollars) ?? tiers[tiers.length - 1];
  return tier ? i18n._(tier.text) : '';
}

/** Impact text of the selection screen when no cause is chosen (spec section 9, first table). */
export const SELECTION_IMPACT_TIERS: readonly Tier[] = [
  { minDollars: 1000, text: /*i18n*/ 'impact.tier.1000' },
  { minDollars: 500, text: /*i18n*/ 'impact.tier.500' },
  { minDollars: 100, text: /*i18n*/ 'impact.tier.100' },
  { minDollars: 50, text: /*i18n*/ 'impact.tier.50' },
  { minDollars: 25, text: /*i18n*/ 'impact.tier.25' },
  { minDollars: 10, text: /*i18n*/ 'impact.tier.10' },
  { minDollars: 0, text: /*i18n*/ 'impact.tier.0' },
];

/**
 * What the gift protects, in `i18n`'s language: the chosen cause's name, or when no cause is chosen the amount tier's
 * text (spec section 9). An unknown cause value shows itself, as everywhere (spec section 3).
 */
export function selectionImpactText(i18n: I18n, amountDollars: number, cause: string | null): string {
  if (cause === null || cause === '') return pickTier(i18n, SELECTION_IMPACT_TIERS, amountDollars);
  return causeName(i18n, cause);
}

/**
 * The selection screen's impact banner: 'Your $X [frequency] donation can help protect [impact text]' (spec
 * section 2); the frequency word is lowercase and omitted for one-time gifts. In `locale` (the language of `i18n`).
 */
export function impactBannerMessage(i18n: I18n, locale: Locale, amountDollars: number, frequency: Frequency, cause: string | null): string {
  return i18n._('impact.banner', {
    amount: formatDollars(amountDollars, locale),
    frequency,
    impact: selectionImpactText(i18n, amountDollars, cause),
  });
}
