/**
 * Copy of the site that the spec leaves to us, as message ids of the catalogues (src/locales; issue #24): a screen
 * shows `i18n._(id)`. Every fact comes from /work/shared/content-facts.md (UNESCO's description of the Belize Barrier
 * Reef Reserve System); the headline stats are the spec's own (section 1), kept as written in the English catalogue.
 * The thank-you screen's parts, `thankYou.` ids, ship with the lazily loaded screens (catalogue-parts.ts); the landing
 * hero's copy lives with the hero (landing-hero.tsx), so that /donate does not load this module (issue #5 budget).
 */

/** A headline figure and what it counts: `label` is a message id (`selection.hero.stat.corals` → 'coral species'). */
export interface Stat {
  value: string;
  label: string;
}

/** The thank-you page's static stats (spec section 2). */
export const THANK_YOU_STATS: readonly Stat[] = [
  { value: '300+', label: /*i18n*/ 'thankYou.stat.corals' },
  { value: '500+', label: /*i18n*/ 'thankYou.stat.fish' },
  { value: '7', label: /*i18n*/ 'thankYou.stat.areas' },
];

/**
 * The 'What Happens Next' steps of the thank-you page (spec section 2), as message ids of each step's title and text
 * ('Confirmation email', 'Tax documentation', 'Putting your gift to work').
 */
export const NEXT_STEPS: readonly { title: string; text: string }[] = [
  { title: /*i18n*/ 'thankYou.nextStep.email.title', text: /*i18n*/ 'thankYou.nextStep.email.text' },
  { title: /*i18n*/ 'thankYou.nextStep.tax.title', text: /*i18n*/ 'thankYou.nextStep.tax.text' },
  { title: /*i18n*/ 'thankYou.nextStep.work.title', text: /*i18n*/ 'thankYou.nextStep.work.text' },
];

/** What a donor shares from the thank-you page (issue #2: share buttons do real things), as message ids. */
export const SHARE_MESSAGE = {
  subject: /*i18n*/ 'thankYou.share.subject',
  text: /*i18n*/ 'thankYou.share.text',
} as const;
