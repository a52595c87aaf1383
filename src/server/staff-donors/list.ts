import { sql, type SQL } from 'drizzle-orm';
import type { StaffDonorListAnswer, StaffDonorListQuery, StaffDonorRow } from '../../shared/staff/donors-api';
import type { Database } from '../db/client';
import { donations, recurringPlans } from '../db/schema';
import { zonedDayBounds, zonedTime } from '../digest/time-zone';
import { searchCondition } from '../staff-donations/search';
import { donorKeyOf } from './donor-key';
import { readDonorIdentities } from './donor-names';
import { selectRows } from './raw-rows';
import { ACTIVE_PLAN_STATUSES, chargedGiftCondition, donorAddressSql, figureColumnsSql, toFigures, zonedYearBounds, type FiguresRow } from './figures';

/**
 * The staff's list of donors (issue #22, "Donors"): one row per donor (an e-mail address compared case-insensitively;
 * a corrected address counts where the correction put the gift), with the figures of figures.ts, filtered, sorted and
 * paged in SQL; then the names and addresses of the page's donors. Money in integer cents.
 */

/** The SQL column each sort key orders by (the per-donor columns of {@link listStaffDonors}' query). */
const SORT_COLUMNS: Record<StaffDonorListQuery['sort'], SQL> = {
  last_gift: sql.raw('last_gift_at'),
  first_gift: sql.raw('first_gift_at'),
  lifetime: sql.raw('lifetime_cents'),
  this_year: sql.raw('this_year_cents'),
  gifts: sql.raw('gift_count'),
};

/** The calendar year `now` falls in, in `timeZone`. */
export function zonedYearOf(now: Date, timeZone: string): number {
  return Number(zonedTime(now, timeZone).date.slice(0, 4));
}

/**
 * One page of the donors `query` selects, at `now` (this year: the calendar year of `now` in `timeZone`; `from`/`to`
 * days there too): `q` keeps the donors with a gift the donations list's search finds (staff-donations/search.ts: a
 * name or e-mail from the start of a word, a receipt number, a charge id), whose figures count all their gifts; `plan`
 * and the last gift's days filter the donors; sorted by `sort` in `order`, ties broken by address so pages never
 * overlap. Grouping, figures, filters and the page are one query (an aggregate over the charged gifts; decision 0072).
 * Rejects when the database fails.
 */
export async function listStaffDonors(db: Database, query: StaffDonorListQuery, now: Date, timeZone: string): Promise<StaffDonorListAnswer> {
  const year = zonedYearOf(now, timeZone);
  const search = searchCondition(query.q);
  const matched = search ? sql` AND ${donorAddressSql} IN (SELECT ${donorAddressSql} FROM ${donations} WHERE ${search})` : sql``;
  const listedConditions = [
    query.from === undefined ? undefined : sql`last_gift_at >= ${zonedDayBounds(query.from, timeZone).start.toISOString()}::timestamptz`,
    query.to === undefined ? undefined : sql`last_gift_at < ${zonedDayBounds(query.to, timeZone).end.toISOString()}::timestamptz`,
    query.plan === undefined ? undefined : query.plan === 'active' ? sql`active_plans > 0` : sql`active_plans = 0`,
  ].filter((condition) => condition !== undefined);
  const listedWhere = listedConditions.length > 0 ? sql`WHERE ${sql.join(listedConditions, sql` AND `)}` : sql``;
  const direction = sql.raw(query.order === 'asc' ? 'ASC' : 'DESC');
  const activePlanStatuses = sql.join(ACTIVE_PLAN_STATUSES.map((status) => sql`${status}`), sql`, `);
  const found = await selectRows<FiguresRow & { address: string; total: number }>(db, sql`
    WITH per_donor AS (
      SELECT ${donorAddressSql} AS address, ${figureColumnsSql(zonedYearBounds(year, timeZone))}
      FROM ${donations}
      WHERE ${chargedGiftCondition}${matched}
      GROUP BY 1
    ), plans AS (
      SELECT ${donorAddressSql} AS address, count(*)::int AS active_plans
      FROM ${recurringPlans} JOIN ${donations} ON ${donations.id} = ${recurringPlans.firstDonationId}
      WHERE ${recurringPlans.status} IN (${activePlanStatuses})
      GROUP BY 1
    ), listed AS (
      SELECT per_donor.*, coalesce(plans.active_plans, 0) AS active_plans
      FROM per_donor LEFT JOIN plans ON plans.address = per_donor.address
    )
    SELECT *, count(*) OVER ()::int AS total FROM listed ${listedWhere}
    ORDER BY ${SORT_COLUMNS[query.sort]} ${direction}, address ${direction}
    LIMIT ${query.pageSize} OFFSET ${(query.page - 1) * query.pageSize}`);
  const keys = found.map((row) => donorKeyOf(row.address));
  const identities = await readDonorIdentities(db, keys);
  const rows = found.map((row, index): StaffDonorRow => {
    const donorKey = keys[index] ?? '';
    const identity = identities.get(donorKey);
    return { donorKey, email: identity?.emails[0] ?? row.address, names: identity?.names ?? [], ...toFigures(row) };
  });
  return { rows, total: found[0]?.total ?? 0, page: query.page, pageSize: query.pageSize, year };
}
