import type { I18n } from '@lingui/core';
import { pickTier, type Tier } from './impact';

/*
 * The thank-you page's texts for the gift's amount (spec section 9). Apart from impact.ts, which /donate loads, so
 * that they load with the thank-you page only (issue #24: /donate's budget).
 */

/** Thank-you impact messages (spec section 9 thresholds; our own wording, issue #2). */
export const THANK_YOU_IMPACT_TIERS: readonly Tier[] = [
  { minDollars: 1000, text: /*i18n*/ 'thankYou.impact.1000' },
  { minDollars: 500, text: /*i18n*/ 'thankYou.impact.500' },
  { minDollars: 100, text: /*i18n*/ 'thankYou.impact.100' },
  { minDollars: 50, text: /*i18n*/ 'thankYou.impact.50' },
  { minDollars: 25, text: /*i18n*/ 'thankYou.impact.25' },
  { minDollars: 10, text: /*i18n*/ 'thankYou.impact.10' },
  { minDollars: 0, text: /*i18n*/ 'thankYou.impact.0' },
];

/** The thank-you page's impact message for a gift of `amountDollars`, in `i18n`'s language (spec section 9). */
export function thankYouImpactMessage(i18n: I18n, amountDollars: number): string {
  return pickTier(i18n, THANK_YOU_IMPACT_TIERS, amountDollars);
}

/**
 * Conservation facts of the thank-you page (spec section 9 thresholds >=500, >=100, >=50, else generic).
 * Every fact comes from shared/content-facts.md (UNESCO's description of the site).
 */
export const CONSERVATION_FACT_TIERS: readonly Tier[] = [
  { minDollars: 500, text: /*i18n*/ 'thankYou.fact.500' },
  { minDollars: 100, text: /*i18n*/ 'thankYou.fact.100' },
  { minDollars: 50, text: /*i18n*/ 'thankYou.fact.50' },
  { minDollars: 0, text: /*i18n*/ 'thankYou.fact.0' },
];

/** The thank-you page's conservation fact for a gift of `amountDollars`, in `i18n`'s language (spec section 9). */
export function conservationFact(i18n: I18n, amountDollars: number): string {
  return pickTier(i18n, CONSERVATION_FACT_TIERS, amountDollars);
}
