import { desc, eq, sql } from 'drizzle-orm';
import { campaignStatus } from '../../../shared/campaign-api';
import type { StaffCampaign, StaffCampaignInput, StaffCampaignList, StaffCampaignListQuery } from '../../../shared/staff/campaigns-api';
import { countCampaignByDay, countCampaigns, type CampaignCount } from '../../ledger/campaign-count';
import type { Database } from '../../db/client';
import { campaigns, donations, type CampaignRow } from '../../db/schema';
import { staffSupporters } from '../../campaigns/supporters';
import { fromLocalDateTime, toLocalDateTime } from './local-time';

/**
 * The staff's campaigns (issue #34, "Staff run campaigns"; decision 0101): the list, a campaign's page, and the rows a
 * create or an edit writes. Figures are counted by ledger/campaign-count.ts, the public figures' rule, read now (staff see
 * what is true, not the public minute).
 */

/** What the list and the page show of a count: the goal, what was raised, donors and the percentage of the goal (rounded down). */
function figuresOf(campaign: CampaignRow, count: CampaignCount) {
  return {
    goalCents: campaign.goalCents,
    raisedCents: count.raisedCents,
    donorCount: count.donorCount,
    percent: campaign.goalCents === null ? null : Math.floor((count.raisedCents * 100) / campaign.goalCents),
  };
}

/** `instant` as a local date-time in `timeZone`, or null. */
const localOrNull = (instant: Date | null, timeZone: string) => (instant === null ? null : toLocalDateTime(instant, timeZone));

/**
 * The campaigns `query` keeps (`status` at `now`; `q` from the start of the slug or of a word of the English title,
 * without case), newest first, each with its figures; their dates in `timeZone`.
 */
export async function listStaffCampaigns(db: Database, query: StaffCampaignListQuery, now: Date, timeZone: string): Promise<StaffCampaignList> {
  const rows = await db.select().from(campaigns).orderBy(desc(campaigns.createdAt), desc(campaigns.id));
  const q = query.q?.toLowerCase();
  const kept = rows
    .map((row) => ({ row, status: campaignStatus(row, now), title: row.texts.en?.title ?? row.slug }))
    .filter(({ row, status, title }) => {
      if (query.status !== undefined && status !== query.status) return false;
      if (!q) return true;
      return row.slug.startsWith(q) || title.toLowerCase().split(/\s+/).some((word) => word.startsWith(q)) || title.toLowerCase().startsWith(q);
    });
  const counts = await countCampaigns(db, kept.map(({ row }) => row.slug));
  return {
    timeZone,
    rows: kept.map(({ row, status, title }) => ({
      id: row.id,
      slug: row.slug,
      title,
      status,
      startsAt: localOrNull(row.startsAt, timeZone),
      endsAt: localOrNull(row.endsAt, timeZone),
      ...figuresOf(row, counts.get(row.slug) ?? { raisedCents: 0, donorCount: 0 }),
    })),
  };
}

/** The campaign of `id`, or undefined. */
export async function findCampaign(db: Database, id: string): Promise<CampaignRow | undefined> {
  const [row] = await db.select().from(campaigns).where(eq(campaigns.id, id));
  return row;
}

/** True when a donation recorded the campaign `slug` (its slug is then fixed: issue #34). */
export async function slugRecorded(db: Database, slug: string): Promise<boolean> {
  const [row] = await db.select({ one: sql<number>`1` }).from(donations).where(eq(donations.campaign, slug)).limit(1);
  return row !== undefined;
}

/** Cents as the form's dollar field holds them (`1000`, `12.50`), or null. */
const dollarsText = (cents: number | null) => (cents === null ? null : cents % 100 === 0 ? String(cents / 100) : (cents / 100).toFixed(2));

/**
 * The page of `campaign` at `now` (dates in `timeZone`): its fields as the form edits them, its figures, its days (each
 * day with a counted gift, and the running total), whether its slug is fixed, its supporters (decision 0103), and its
 * link under `publicUrl`.
 */
export async function readStaffCampaign(db: Database, campaign: CampaignRow, now: Date, timeZone: string, publicUrl: string): Promise<StaffCampaign> {
  const [counts, byDay, fixed, supporters] = await Promise.all([
    countCampaigns(db, [campaign.slug]),
    countCampaignByDay(db, campaign.slug, timeZone),
    slugRecorded(db, campaign.slug),
    staffSupporters(db, campaign.slug),
  ]);
  let total = 0;
  return {
    id: campaign.id,
    status: campaignStatus(campaign, now),
    fields: {
      slug: campaign.slug,
      texts: campaign.texts,
      goal: dollarsText(campaign.goalCents),
      startsAt: localOrNull(campaign.startsAt, timeZone),
      endsAt: localOrNull(campaign.endsAt, timeZone),
      presetAmount: dollarsText(campaign.presetAmountCents),
      presetFrequency: campaign.presetFrequency,
      presetCause: campaign.presetCause,
      showSupporters: campaign.showSupporters,
      published: campaign.published,
    },
    ...figuresOf(campaign, counts.get(campaign.slug) ?? { raisedCents: 0, donorCount: 0 }),
    slugFixed: fixed,
    days: byDay.map((day) => {
      total += day.raisedCents;
      return { ...day, totalCents: total };
    }),
    supporters: supporters.map((row) => ({
      donationId: row.donationId,
      name: row.name,
      givenAt: row.givenAt.toISOString(),
      message: row.showMessage ? row.message : null,
      hiddenAt: row.hiddenAt?.toISOString() ?? null,
    })),
    link: `${publicUrl.replace(/\/$/, '')}/donate?campaign=${campaign.slug}`,
    timeZone,
  };
}

/** The columns `input` writes, its local date-times read in `timeZone`. */
export function campaignColumns(input: StaffCampaignInput, timeZone: string) {
  return {
    slug: input.slug,
    texts: input.texts,
    goalCents: input.goal,
    startsAt: input.startsAt === null ? null : fromLocalDateTime(input.startsAt, timeZone),
    endsAt: input.endsAt === null ? null : fromLocalDateTime(input.endsAt, timeZone),
    presetAmountCents: input.presetAmount,
    presetFrequency: input.presetFrequency,
    presetCause: input.presetCause,
    showSupporters: input.showSupporters,
    published: input.published,
  };
}
