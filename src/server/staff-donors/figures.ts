import { sql, type SQL } from 'drizzle-orm';
import { donations } from '../db/schema';
import { zonedDayBounds } from '../digest/time-zone';
import { keptCentsSql } from '../ledger/kept-amount';

/**
 * What a donor's figures count (issue #22, "Donors"; decision 0072), in SQL over the donations table, shared by the
 * list and a donor's page so the two agree: a donor is an address compared case-insensitively ({@link donorAddressSql},
 * the text donor-key.ts hashes); the gifts counted are the charged ones; the totals are the ledger's kept amount of the
 * gifts still succeeded (ledger/kept-amount.ts, as ledger/stats.ts counts them: refunds, full or partial, and disputes
 * taken off); "this year" is the calendar year in the staff's time zone.
 */

/** A donation's donor address as compared: its e-mail trimmed and lower-cased (donorKeyOf hashes the same text). */
export const donorAddressSql = sql<string>`lower(btrim(${donations.donorEmail}))`;

/** The ledger statuses of a charged gift: it took money once (succeeded, then maybe refunded or disputed). */
export const chargedGiftCondition = sql`${donations.status} IN ('succeeded', 'refunded', 'disputed')`;

/** The instants of calendar year `year` in `timeZone`: from 1 January's start (included) to the next 1 January's (excluded). */
export function zonedYearBounds(year: number, timeZone: string): { start: Date; end: Date } {
  return { start: zonedDayBounds(`${year}-01-01`, timeZone).start, end: zonedDayBounds(`${year}-12-31`, timeZone).end };
}

/** `coalesce(sum(kept) FILTER (WHERE succeeded [AND condition]), 0)` as bigint text: what the ledger's stats count. */
function netCentsSql(condition?: SQL): SQL {
  return sql`coalesce(sum(${keptCentsSql}) FILTER (WHERE ${donations.status} = 'succeeded'${condition ? sql` AND ${condition}` : sql``}), 0)::bigint`;
}

/**
 * The aggregate columns of a donor's figures over their charged gifts (select from donations WHERE
 * {@link chargedGiftCondition}, grouped by donor): first and last gift, number of gifts, lifetime net and the net of
 * `year` (instants of `yearBounds`). Named as the figures' raw row ({@link FiguresRow}).
 */
export function figureColumnsSql(yearBounds: { start: Date; end: Date }): SQL {
  const inYear = sql`${donations.createdAt} >= ${yearBounds.start.toISOString()}::timestamptz AND ${donations.createdAt} < ${yearBounds.end.toISOString()}::timestamptz`;
  return sql`min(${donations.createdAt}) AS first_gift_at, max(${donations.createdAt}) AS last_gift_at, count(*)::int AS gift_count,
    ${netCentsSql()} AS lifetime_cents, ${netCentsSql(inYear)} AS this_year_cents`;
}

/** The figures as the database hands them back (bigint sums as text, timestamps as Date). */
export interface FiguresRow {
  first_gift_at: Date;
  last_gift_at: Date;
  gift_count: number;
  lifetime_cents: string | number;
  this_year_cents: string | number;
  active_plans: number;
}

/** A {@link FiguresRow} in the answer's shape (ISO dates, integer cents: below 2^53, so Number() is exact). */
export function toFigures(row: FiguresRow) {
  return {
    firstGiftAt: new Date(row.first_gift_at).toISOString(),
    lastGiftAt: new Date(row.last_gift_at).toISOString(),
    giftCount: Number(row.gift_count),
    lifetimeCents: Number(row.lifetime_cents),
    thisYearCents: Number(row.this_year_cents),
    activePlans: Number(row.active_plans),
  };
}

/** The plan statuses of a plan still charging: an "active plan" on the donors' pages (paused and cancelled ones are not). */
export const ACTIVE_PLAN_STATUSES = ['active', 'past_due'] as const;
