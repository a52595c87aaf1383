import { chargeFor, type FeeCoverageSettings } from '../../shared/fee-coverage';

/**
 * The columns of a plan whose donor changes its gift to `giftCents` (issue #13 "change the amount"; issue #23): the new
 * gift, and, when the plan covers the card fee (`coversFee`) and the site still offers it (`feeCoverage` not null), the
 * fee of the new gift, computed as at the first gift; otherwise no fee (FEE_COVERAGE=off since: the plan stops adding it).
 * Cents in, cents out.
 */
export function planAmountChange(giftCents: number, coversFee: boolean, feeCoverage: FeeCoverageSettings | null): { amountCents: number; feeCoveredCents: number } {
  return { amountCents: giftCents, feeCoveredCents: chargeFor(giftCents, coversFee, feeCoverage).feeCoveredCents };
}
