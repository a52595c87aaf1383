import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { donations, recurringPlans } from '../../db/schema';
import { zonedDayBounds, zonedTime } from '../../digest/time-zone';
import { keptCentsSql } from '../../ledger/kept-amount';
import { donorKeySql } from '../shared/donor-key';
import { selectRows } from './raw-rows';

/**
 * A donor's figures (issue #22, "Donors"; decision 0072), read live from the donations of a few donors at once by their
 * keys (the donor key index, migration 0016_staff_donors), for the list's page and a donor's page alike: the charged
 * gifts (succeeded, refunded in part or whole, disputed) count; the totals are the ledger's kept amount
 * (ledger/kept-amount.ts) of the gifts still succeeded, as ledger/stats.ts counts them (refunds and disputes taken off);
 * "this year" is the calendar year in the staff's time zone; active plans are those still charging.
 */

/** A donation's donor key in SQL (`donor_key(donations.donor_email)`, the indexed expression). */
export const donationDonorKeySql = sql.raw(donorKeySql('"donations"."donor_email"'));

/** The ledger statuses of a charged gift: it took money once (succeeded, then maybe refunded or disputed). */
export const chargedGiftCondition = sql`${donations.status} IN ('succeeded', 'refunded', 'disputed')`;

/** The plan statuses of a plan still charging: an "active plan" on the donors' pages (paused and cancelled ones are not). */
export const ACTIVE_PLAN_STATUSES = ['active', 'past_due'] as const;

/** The calendar year `now` falls in, in `timeZone`. */
export function zonedYearOf(now: Date, timeZone: string): number {
  return Number(zonedTime(now, timeZone).date.slice(0, 4));
}

/** The instants of calendar year `year` in `timeZone`: from 1 January's start (included) to the next 1 January's (excluded). */
export function zonedYearBounds(year: number, timeZone: string): { start: Date; end: Date } {
  return { start: zonedDayBounds(`${year}-01-01`, timeZone).start, end: zonedDayBounds(`${year}-12-31`, timeZone).end };
}

/** A donor's figures in the answers' shape (StaffDonorFiguresSchema): ISO dates, integer cents. */
export interface DonorFigures {
  firstGiftAt: string;
  lastGiftAt: string;
  giftCount: number;
  lifetimeCents: number;
  thisYearCents: number;
  activePlans: number;
}

/** `coalesce(sum(kept) FILTER (WHERE succeeded [AND condition]), 0)` as bigint: what the ledger's stats count. */
const netCentsSql = (condition = sql`true`) =>
  sql`coalesce(sum(${keptCentsSql}) FILTER (WHERE ${donations.status} = 'succeeded' AND ${condition}), 0)::bigint`;

/** `keys` as a SQL list of parameters. */
const keyList = (keys: readonly string[]) => sql.join(keys.map((key) => sql`${key}`), sql`, `);

/**
 * The {@link DonorFigures} of each donor of `donorKeys` with a charged gift, by donor key, this year being `yearBounds`.
 * Rejects when the database fails. NOTE: sums are bigint text from the driver; below 2^53 cents Number() is exact.
 */
export async function readDonorFigures(db: Database, donorKeys: readonly string[], yearBounds: { start: Date; end: Date }): Promise<Map<string, DonorFigures>> {
  const figures = new Map<string, DonorFigures>();
  if (donorKeys.length === 0) return figures;
  const inYear = sql`${donations.createdAt} >= ${yearBounds.start.toISOString()}::timestamptz AND ${donations.createdAt} < ${yearBounds.end.toISOString()}::timestamptz`;
  const activeStatuses = sql.join(ACTIVE_PLAN_STATUSES.map((status) => sql`${status}`), sql`, `);
  const [gifts, plans] = await Promise.all([
    selectRows<{ donor_key: string; first_gift_at: Date; last_gift_at: Date; gift_count: number; lifetime_cents: string; this_year_cents: string }>(db, sql`
      SELECT ${donationDonorKeySql} AS donor_key, min(${donations.createdAt}) AS first_gift_at, max(${donations.createdAt}) AS last_gift_at,
        count(*)::int AS gift_count, ${netCentsSql()} AS lifetime_cents, ${netCentsSql(inYear)} AS this_year_cents
      FROM ${donations}
      WHERE ${donationDonorKeySql} IN (${keyList(donorKeys)}) AND ${chargedGiftCondition}
      GROUP BY 1`),
    selectRows<{ donor_key: string; active_plans: number }>(db, sql`
      SELECT ${donationDonorKeySql} AS donor_key, count(*)::int AS active_plans
      FROM ${recurringPlans} JOIN ${donations} ON ${donations.id} = ${recurringPlans.firstDonationId}
      WHERE ${donationDonorKeySql} IN (${keyList(donorKeys)}) AND ${recurringPlans.status} IN (${activeStatuses})
      GROUP BY 1`),
  ]);
  const activePlans = new Map(plans.map((row) => [row.donor_key, row.active_plans]));
  for (const row of gifts) {
    figures.set(row.donor_key, {
      firstGiftAt: new Date(row.first_gift_at).toISOString(),
      lastGiftAt: new Date(row.last_gift_at).toISOString(),
      giftCount: row.gift_count,
      lifetimeCents: Number(row.lifetime_cents),
      thisYearCents: Number(row.this_year_cents),
      activePlans: activePlans.get(row.donor_key) ?? 0,
    });
  }
  return figures;
}
