/**
 * Covering the card processing fee (issue #23, section 2): the donor may add what the card network takes, so that the
 * charity receives the whole gift. Plain code, no zod: the form's chunk and the server both use it.
 */

/** The fee the processor takes of a charge: `percent` of it (2.9 means 2.9 %) plus `fixedCents`. */
export interface FeeCoverageSettings {
  /** Percentage of the charge (FEE_COVERAGE_PERCENT, default 2.9), from 0 to below 100, at most 3 decimals. */
  percent: number;
  /** Fixed part per charge in cents (FEE_COVERAGE_FIXED_CENTS, default 30). */
  fixedCents: number;
}

/** Defaults of issue #23: Stripe's US card pricing, 2.9 % + 30 cents. */
export const DEFAULT_FEE_COVERAGE: FeeCoverageSettings = { percent: 2.9, fixedCents: 30 };

/** 100 % in thousandths of a percent: percentages are counted in these, so the arithmetic stays in whole numbers. */
const WHOLE_IN_MILLIPERCENT = 100_000;

/**
 * The total to charge so that, after the processor's fee, `giftCents` remain (issue #23, section 2):
 * `(gift + fixed) / (1 - percent / 100)`, rounded up to the cent, in integer arithmetic (no float rounding error).
 * Takes and returns cents.
 */
export function totalCoveringFeeCents(giftCents: number, settings: FeeCoverageSettings): number {
  const percentMilli = Math.round(settings.percent * 1000);
  const numerator = (giftCents + settings.fixedCents) * WHOLE_IN_MILLIPERCENT;
  const denominator = WHOLE_IN_MILLIPERCENT - percentMilli;
  const remainder = numerator % denominator;
  return (numerator - remainder) / denominator + (remainder === 0 ? 0 : 1);
}

/** The fee a donor covers on a gift of `giftCents`: {@link totalCoveringFeeCents} minus the gift, in cents. */
export function coveredFeeCents(giftCents: number, settings: FeeCoverageSettings): number {
  return totalCoveringFeeCents(giftCents, settings) - giftCents;
}

/**
 * What a gift of `giftCents` charges (issue #23): `{totalCents, feeCoveredCents}`, the gift plus the covered fee when
 * `coverFee` and the deployment offers it (`settings` not null), else the gift alone and 0.
 */
export function chargeFor(giftCents: number, coverFee: boolean, settings: FeeCoverageSettings | null): { totalCents: number; feeCoveredCents: number } {
  if (!coverFee || !settings) return { totalCents: giftCents, feeCoveredCents: 0 };
  const feeCoveredCents = coveredFeeCents(giftCents, settings);
  return { totalCents: giftCents + feeCoveredCents, feeCoveredCents };
}
