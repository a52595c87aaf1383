import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { donations } from '../db/schema';

/**
 * What a campaign has raised (issue #34, "What counts"; decision 0101), the one rule of the public figures and the
 * staff's: the succeeded gifts that recorded the campaign (a renewal records it only when charged while the campaign is
 * live: ledger/campaign-entries.ts), each counted as its amount less what was refunded and less the card fee the donor
 * covered (never below 0); a fully refunded gift (`refunded`), a disputed one (`disputed`, until won) and pending or
 * declined attempts count nothing. Donors are distinct addresses, compared without case. In the ledger (decision 0113)
 * because the move that makes a gift count also checks, in its transaction, whether it made the campaign reach its goal
 * (campaign-goal-entries.ts).
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
 * The counts of the campaigns `slugs` (lower-case) now, in one query read from the index donations_campaign_figures_idx
 * alone (no table rows), by slug; a campaign without a counted gift counts 0. Callers that answer the public keep it for
 * a while (figures-cache.ts).
 */
export async function countCampaigns(db: Database, slugs: readonly string[]): Promise<Map<string, CampaignCount>> {
  const counts = new Map<string, CampaignCount>(slugs.map((slug) => [slug, { raisedCents: 0, donorCount: 0 }]));
  if (slugs.length === 0) return counts;
  const rows = await db
    .select({
      slug: donations.campaign,
      raisedCents: sql<string>`coalesce(sum(${countedCentsSql}), 0)`,
      donorCount: sql<number>`count(DISTINCT lower(${donations.donorEmail}))::int`,
    })
    .from(donations)
    .where(and(inArray(donations.campaign, [...slugs]), eq(donations.status, 'succeeded')))
    .groupBy(donations.campaign);
  for (const row of rows) if (row.slug !== null) counts.set(row.slug, { raisedCents: Number(row.raisedCents), donorCount: row.donorCount });
  return counts;
}

/** The count of the campaign `slug` (lower-case) now: {@link countCampaigns} of it alone. */
export async function countCampaign(db: Database, slug: string): Promise<CampaignCount> {
  return (await countCampaigns(db, [slug])).get(slug) ?? { raisedCents: 0, donorCount: 0 };
}

/**
 * What the campaign `slug` raised each calendar day in `timeZone` (the staff's TZ) on which a counted gift was made,
 * oldest first, counted as {@link countCampaigns} (a gift refunded later counts what it kept, on the day it was made).
 */
export async function countCampaignByDay(db: Database, slug: string, timeZone: string): Promise<Array<{ date: string; raisedCents: number }>> {
  const day = sql<string>`to_char(${donations.createdAt} AT TIME ZONE ${timeZone}, 'YYYY-MM-DD')`;
  const rows = await db
    .select({ date: day, raisedCents: sql<string>`sum(${countedCentsSql})` })
    .from(donations)
    .where(countedGiftsOf(slug))
    // NOTE: by position: the zone is a parameter, and PostgreSQL sees `$1` in the list and `$2` in GROUP BY as two expressions.
    .groupBy(sql`1`)
    .orderBy(sql`1`);
  return rows.map((row) => ({ date: row.date, raisedCents: Number(row.raisedCents) }));
}

/**
 * True when a campaign's raised amount went from below its goal to at least its goal (cents, counted as
 * {@link countCampaigns}): the test a `campaign.goal_reached` event (issue #38; campaign-goal-entries.ts) applies to a
 * campaign's count without and with the gifts a move made count. False without a goal.
 */
export function crossesGoal(beforeCents: number, afterCents: number, goalCents: number | null): boolean {
  return goalCents !== null && beforeCents < goalCents && afterCents >= goalCents;
}
