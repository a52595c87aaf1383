import { and, eq, gte, isNotNull, lt, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { donations, receipts } from '../db/schema';
import { countedCentsSql } from '../ledger/campaign-count';

/** Gifts and cents kept of one campaign (issue #23). */
export interface CampaignTally {
  campaign: string;
  count: number;
  /**
   * Cents counted for the campaign (issue #34, "the same rules in ... the digest"; decision 0101): each gift's amount less
   * what was refunded of it and less the card fee the donor covered (ledger/campaign-count.ts).
   */
  amountCents: number;
}

/**
 * The day's gifts by campaign (issue #23: "the daily digest's counts"): the gifts the digest counts (receipt issued in
 * [`day.start`, `day.end`), still `succeeded`; see loadDailyDigest) that recorded a campaign, counted as the campaign's
 * public figures count them (issue #34; ledger/campaign-count.ts: net of refunds, a lost dispute nothing, without the
 * covered fee), one tally per campaign with at least one gift, most gifts first (then by name). Rejects when the database
 * fails.
 */
export async function loadCampaignTallies(db: Database, day: { start: Date; end: Date }): Promise<CampaignTally[]> {
  const rows = await db
    .select({
      campaign: donations.campaign,
      count: sql<number>`count(*)`.mapWith(Number),
      amountCents: sql<number>`coalesce(sum(${countedCentsSql}), 0)`.mapWith(Number),
    })
    .from(receipts)
    .innerJoin(donations, eq(donations.id, receipts.donationId))
    .where(and(gte(receipts.issuedAt, day.start), lt(receipts.issuedAt, day.end), eq(donations.status, 'succeeded'), isNotNull(donations.campaign)))
    .groupBy(donations.campaign)
    .orderBy(sql`count(*) DESC`, donations.campaign);
  return rows.map((row) => ({ campaign: row.campaign ?? '', count: row.count, amountCents: row.amountCents }));
}
