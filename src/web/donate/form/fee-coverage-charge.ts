import { chargeFor } from '../../../shared/fee-coverage';
import { centsToDollars, dollarsToCents } from '../../../shared/money';
import { getSiteConfig } from '../../config/site-config';

/**
 * What the donor is charged for a gift of `giftDollars` (issue #23, section 2), with the fee the deployment offers
 * (the site config's `feeCoverage`; none with FEE_COVERAGE=off): `{totalDollars, feeDollars}` (the fee covered when
 * `coverFee`, else 0), and `offeredFeeDollars`, what the checkbox offers to add. The server computes the same itself.
 */
export function feeCoverageCharge(giftDollars: number, coverFee: boolean): { totalDollars: number; feeDollars: number; offeredFeeDollars: number | null } {
  const { feeCoverage } = getSiteConfig();
  const giftCents = dollarsToCents(giftDollars);
  const charged = chargeFor(giftCents, coverFee, feeCoverage);
  const offered = chargeFor(giftCents, true, feeCoverage);
  return {
    totalDollars: centsToDollars(charged.totalCents),
    feeDollars: centsToDollars(charged.feeCoveredCents),
    offeredFeeDollars: feeCoverage ? centsToDollars(offered.feeCoveredCents) : null,
  };
}
