import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { donations } from '../db/schema';

/**
 * What a campaign has raised (issue #34, "What counts"; decision 0101), the one rule of the public figures and the
 * staff's: the succeeded gifts that recorded the campaign (a renewal records it only when charged while the campaign is
 * live: ledger/campaign-entries.ts), each counted as its amount less what was refunded and less the card fee the donor
 * covered (never below 0); a fully refunded gift (`refunded`), a disputed one (`disputed`, until won) and pending or
 * declined attempts count nothing. Donors are distinct addresses, compared without case.
 */

/** A campaign's count: `raisedCents`, net as above, and `donorCount`, distinct donor e-mail addresses. */
export interface CampaignCount {
  raisedCents: number;
  donorCount: number;
}

/** What one counted gift adds, in cents: its amount less its refunds and its covered fee, at least 0. */
export const countedCentsSql = sql<number>`greatest(${donations.amountCents} - ${donations.refundedCents} - ${donations.feeCoveredCents}, 0)`;

/** The gifts that count for the campaign `slug` (lower-case): succeeded ones that recorded it. */
export function countedGiftsOf(slug: string) {
  return and(eq(donations.campaign, slug), eq(donations.status, 'succeeded'));
}

/**
 * The count of the campaign `slug` (lower-case) now, in one query read from the index donations_campaign_figures_idx
 * alone (no table rows). Callers that answer the public keep it for a while (figures-cache.ts).
 */
export async function countCampaign(db: Database, slug: string): Promise<CampaignCount> {
  const [row] = await db
    .select({
      raisedCents: sql<string>`coalesce(sum(${countedCentsSql}), 0)`,
      donorCount: sql<number>`count(DISTINCT lower(${donations.donorEmail}))::int`,
    })
    .from(donations)
    .where(countedGiftsOf(slug));
  return { raisedCents: Number(row?.raisedCents ?? 0), donorCount: row?.donorCount ?? 0 };
}
