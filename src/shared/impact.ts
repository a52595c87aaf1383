import { describeCause } from './causes';
import { FREQUENCY_ADJECTIVES, type Frequency } from './frequencies';
import { formatDollars } from './money';

/** A tier picked by the largest `minDollars` that the amount reaches; the last tier has `minDollars` 0. */
interface Tier {
  minDollars: number;
  text: string;
}

function pickTier(tiers: readonly Tier[], amountDollars: number): string {
  const tier = tiers.find((t) => amountDollars >= t.minDollars) ?? tiers[tiers.length - 1];
  return tier?.text ?? '';
}

/** Impact text of the selection screen when no cause is chosen (spec section 9, first table). */
export const SELECTION_IMPACT_TIERS: readonly Tier[] = [
  { minDollars: 1000, text: 'several acres of coral reef habitat' },
  { minDollars: 500, text: 'an entire coral reef monitoring station' },
  { minDollars: 100, text: 'marine research equipment' },
  { minDollars: 50, text: 'coral restoration efforts' },
  { minDollars: 25, text: 'marine wildlife monitoring' },
  { minDollars: 10, text: 'educational programs for local communities' },
  { minDollars: 0, text: 'conservation awareness initiatives' },
];

/**
 * What the gift protects: the chosen cause's display name, or when no cause is chosen the
 * amount tier's text (spec section 9). An unknown cause value falls back to 'conservation efforts'.
 */
export function selectionImpactText(amountDollars: number, cause: string | null): string {
  if (cause === null || cause === '') return pickTier(SELECTION_IMPACT_TIERS, amountDollars);
  return describeCause(cause).displayName || 'conservation efforts';
}

/**
 * The selection screen's impact banner: 'Your $X [frequency] donation can help protect [impact text]'
 * (spec section 2); the frequency word is lowercase and omitted for one-time gifts.
 */
export function impactBannerMessage(amountDollars: number, frequency: Frequency, cause: string | null): string {
  const adjective = FREQUENCY_ADJECTIVES[frequency];
  const amount = formatDollars(amountDollars);
  const gift = adjective ? `${amount} ${adjective}` : amount;
  return `Your ${gift} donation can help protect ${selectionImpactText(amountDollars, cause)}`;
}

/** Thank-you impact messages (spec section 9 thresholds; our own wording, issue #2). */
export const THANK_YOU_IMPACT_TIERS: readonly Tier[] = [
  { minDollars: 1000, text: 'Your generosity can help safeguard several acres of coral reef habitat across the reserve.' },
  { minDollars: 500, text: 'Your gift can help keep an entire coral reef monitoring station running.' },
  { minDollars: 100, text: 'Your gift can help equip the scientists who study and protect the reef.' },
  { minDollars: 50, text: 'Your gift can help coral restoration efforts on the Belize Barrier Reef.' },
  { minDollars: 25, text: 'Your gift can help monitor the marine wildlife that depends on the reef.' },
  { minDollars: 10, text: 'Your gift can help bring reef education programs to local communities.' },
  { minDollars: 0, text: 'Your gift helps spread awareness of why the reef needs protecting.' },
];

/** The thank-you page's impact message for a gift of `amountDollars` (spec section 9). */
export function thankYouImpactMessage(amountDollars: number): string {
  return pickTier(THANK_YOU_IMPACT_TIERS, amountDollars);
}

/**
 * Conservation facts of the thank-you page (spec section 9 thresholds >=500, >=100, >=50, else generic).
 * Every fact comes from shared/content-facts.md (UNESCO's description of the site).
 */
export const CONSERVATION_FACT_TIERS: readonly Tier[] = [
  {
    minDollars: 500,
    text: 'The Great Blue Hole, in the Blue Hole Natural Monument, is a marine sinkhole about 300 m across and about 125 m deep.',
  },
  {
    minDollars: 100,
    text: 'The Belize Barrier Reef is the largest barrier reef in the Northern Hemisphere, about 300 km long.',
  },
  {
    minDollars: 50,
    text: 'The reserve is a refuge for threatened species including the West Indian manatee, the American crocodile and marine turtles.',
  },
  {
    minDollars: 0,
    text: 'The Belize Barrier Reef Reserve System has been on the UNESCO World Heritage List since 1996.',
  },
];

/** The thank-you page's conservation fact for a gift of `amountDollars` (spec section 9). */
export function conservationFact(amountDollars: number): string {
  return pickTier(CONSERVATION_FACT_TIERS, amountDollars);
}
