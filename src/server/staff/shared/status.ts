import { and, eq, gt, sql, type SQL } from 'drizzle-orm';
import type { StaffDonationStatus } from '../../../shared/staff/donations-api';
import { donations, type DonationStatus } from '../../db/schema';

/**
 * A donation's status as staff see it (issue #21, "Donations": succeeded, failed, pending, refunded, partially
 * refunded, disputed), derived from the ledger's status and what was refunded of the gift (`refunded_cents`, issue #14):
 * a `succeeded` gift with a refund is `partially_refunded` (a refund of all that was left moved it to `refunded`
 * already, ledger/refund-ledger.ts). In JS and in SQL side by side, as ledger/kept-amount.ts, so the two cannot drift.
 */

/** The staff status of a gift, from its ledger status and refunded cents. */
export function staffStatusOf(donation: { status: DonationStatus; refundedCents: number }): StaffDonationStatus {
  return donation.status === 'succeeded' && donation.refundedCents > 0 ? 'partially_refunded' : donation.status;
}

/** {@link staffStatusOf} in SQL, over the donations table's columns (text). */
export const staffStatusSql = sql<StaffDonationStatus>`CASE WHEN ${donations.status} = 'succeeded' AND ${donations.refundedCents} > 0 THEN 'partially_refunded' ELSE ${donations.status} END`;

/**
 * The condition on the donations table that selects the gifts of one staff status; written on the columns themselves
 * (not on {@link staffStatusSql}) so the planner can use the (status, created_at) index.
 */
export function staffStatusCondition(status: StaffDonationStatus): SQL | undefined {
  switch (status) {
    case 'succeeded':
      return and(eq(donations.status, 'succeeded'), eq(donations.refundedCents, 0));
    case 'partially_refunded':
      return and(eq(donations.status, 'succeeded'), gt(donations.refundedCents, 0));
    default:
      return eq(donations.status, status);
  }
}
