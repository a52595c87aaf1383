import { and, eq, gte, isNotNull, lt, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { donations, receipts } from '../db/schema';
import { keptCentsSql } from '../ledger/kept-amount';

/** Gifts and cents kept of one campaign (issue #23). */
export interface CampaignTally {
  campaign: string;
  count: number;
  /** Cents kept: each gift's amount less what was refunded of it. */
  amountCents: number;
}

/**
 * The day's gifts by campaign (issue #23: "the daily digest's counts"): the gifts the digest counts (receipt issued in
 * [`day.start`, `day.end`), still `succeeded`, at the amount kept; see loadDailyDigest) that came by a known campaign's
 * link, one tally per campaign with at least one gift, most gifts first (then by name). Rejects when the database fails.
 */
export async function loadCampaignTallies(db: Database, day: { start: Date; end: Date }): Promise<CampaignTally[]> {
  const rows = await db
    .select({
      campaign: donations.campaign,
      count: sql<number>`count(*)`.mapWith(Number),
      amountCents: sql<number>`coalesce(sum(${keptCentsSql}), 0)`.mapWith(Number),
    })
    .from(receipts)
    .innerJoin(donations, eq(donations.id, receipts.donationId))
    .where(and(gte(receipts.issuedAt, day.start), lt(receipts.issuedAt, day.end), eq(donations.status, 'succeeded'), isNotNull(donations.campaign)))
    .groupBy(donations.campaign)
    .orderBy(sql`count(*) DESC`, donations.campaign);
  return rows.map((row) => ({ campaign: row.campaign ?? '', count: row.count, amountCents: row.amountCents }));
}
