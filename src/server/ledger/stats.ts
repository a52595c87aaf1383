import { count, countDistinct, eq, sql } from 'drizzle-orm';
import { CAUSES, type Cause } from '../../shared/causes';
import { FREQUENCIES, type Frequency } from '../../shared/frequencies';
import type { Database } from '../db/client';
import { donations } from '../db/schema';
import { keptCentsSql } from './kept-amount';

/** The ledger's totals (issue #2, spec section 7's statistics), summed in SQL in integer cents. */

/** Totals of a group of donations; amount in cents. */
export interface DonationTotalsCents {
  totalCents: number;
  donationCount: number;
}

/** Totals over succeeded donations, in cents; see {@link getDonationStatsCents}. */
export interface DonationStatsCents extends DonationTotalsCents {
  donorCount: number;
  byCause: Array<{ cause: Cause } & DonationTotalsCents>;
  byFrequency: Array<{ frequency: Frequency } & DonationTotalsCents>;
}

// NOTE: SUM and COUNT return bigint (and SUM numeric for bigint input), which drivers hand back as strings;
// the amounts fit in a double exactly (below 2^53 cents), so Number() is lossless here. A partly refunded gift counts
// for what was kept.
const totalCents = sql<number>`coalesce(sum(${keptCentsSql}), 0)`.mapWith(Number);
const donationCount = count().mapWith(Number);
const succeeded = eq(donations.status, 'succeeded');

/**
 * Totals over succeeded donations only (issue #2), summed in SQL in integer cents (less what was refunded of a partly
 * refunded gift; issue #14): the total, the number of donations, the number of distinct donors (e-mail addresses compared
 * case-insensitively: `count(distinct lower(donor_email))`), and totals per cause and per frequency.
 * `byCause` and `byFrequency` list only the causes and frequencies that have at least one succeeded
 * donation, in the display order of the shared CAUSES and FREQUENCIES.
 */
export async function getDonationStatsCents(db: Database): Promise<DonationStatsCents> {
  // One read-only snapshot, so the three queries agree even while donations come in.
  const { totals, byCause, byFrequency } = await db.transaction(
    async (tx) => {
      const [totals] = await tx
        .select({
          totalCents,
          donationCount,
          donorCount: countDistinct(sql`lower(${donations.donorEmail})`).mapWith(Number),
        })
        .from(donations)
        .where(succeeded);
      const byCause = await tx
        .select({ cause: donations.cause, totalCents, donationCount })
        .from(donations)
        .where(succeeded)
        .groupBy(donations.cause);
      const byFrequency = await tx
        .select({ frequency: donations.frequency, totalCents, donationCount })
        .from(donations)
        .where(succeeded)
        .groupBy(donations.frequency);
      return { totals, byCause, byFrequency };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );

  return {
    totalCents: totals?.totalCents ?? 0,
    donationCount: totals?.donationCount ?? 0,
    donorCount: totals?.donorCount ?? 0,
    byCause: byCause.sort((a, b) => CAUSES.indexOf(a.cause) - CAUSES.indexOf(b.cause)),
    byFrequency: byFrequency.sort((a, b) => FREQUENCIES.indexOf(a.frequency) - FREQUENCIES.indexOf(b.frequency)),
  };
}
