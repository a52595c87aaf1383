import { shownEmail } from '../../../shared/offline-gifts';
import { and, asc, desc, gte, inArray, lt, notInArray, sql, type SQL } from 'drizzle-orm';
import type { StaffDonorListAnswer, StaffDonorListQuery, StaffDonorRow } from '../../../shared/staff/donors-api';
import type { Database } from '../../db/client';
import { donations, donorTotals, recurringPlans } from '../../db/schema';
import { zonedDayBounds } from '../../digest/time-zone';
import { searchCondition, staffSearch } from '../shared/search';
import { readDonorIdentities } from './donor-names';
import { ACTIVE_PLAN_STATUSES, donationDonorKeySql, readDonorFigures, zonedYearBounds, zonedYearOf } from './figures';

/**
 * The staff's list of donors (issue #22, "Donors"): one row per donor (an e-mail address compared case-insensitively;
 * a corrected address counts where the correction put the gift). The donors the filters select are sorted and paged
 * from the donor_totals table the database keeps (decision 0072), then the page's figures, names and addresses are
 * read from their gifts (figures.ts, donor-names.ts). Money in integer cents.
 */

/** The donor_totals column each sort key orders by (then the address, so pages never overlap). */
const SORT_COLUMNS = {
  last_gift: donorTotals.lastGiftAt,
  first_gift: donorTotals.firstGiftAt,
  lifetime: donorTotals.lifetimeCents,
  gifts: donorTotals.giftCount,
} as const satisfies Record<StaffDonorListQuery['sort'], unknown>;

/** The donor keys of the donors with a plan still charging (their plan's first gift's address). */
function activePlanDonorKeys() {
  return sql`(SELECT ${donationDonorKeySql} FROM ${recurringPlans} JOIN ${donations} ON ${donations.id} = ${recurringPlans.firstDonationId}
    WHERE ${inArray(recurringPlans.status, [...ACTIVE_PLAN_STATUSES])})`;
}

/**
 * The condition of `query`'s filters on donor_totals (days in `timeZone`): `q` keeps the donors with a gift the
 * donations list's search finds (staff/shared/search.ts: any part of a name, e-mail or receipt number, accents
 * ignored, a typo tolerated, a charge id); `from`/`to` bound the last gift; `plan` keeps donors with (or without) a plan still charging.
 */
function donorCondition(query: StaffDonorListQuery, timeZone: string): SQL | undefined {
  const search = searchCondition(query.q);
  return and(
    search ? sql`${donorTotals.address} IN (SELECT lower(btrim(${donations.donorEmail})) FROM ${donations} WHERE ${search})` : undefined,
    query.from === undefined ? undefined : gte(donorTotals.lastGiftAt, zonedDayBounds(query.from, timeZone).start),
    query.to === undefined ? undefined : lt(donorTotals.lastGiftAt, zonedDayBounds(query.to, timeZone).end),
    query.plan === undefined ? undefined : query.plan === 'active' ? inArray(donorTotals.donorKey, activePlanDonorKeys()) : notInArray(donorTotals.donorKey, activePlanDonorKeys()),
  );
}

/**
 * One page of the donors `query` selects at `now` (this year: the calendar year of `now` in `timeZone`), sorted by
 * `sort` in `order` (after the search's rank, best first, when `q` is given: issue #36; ties by address), with how many donors it selects; each row with the donor's key, the address of
 * their latest gift as typed, every name used (latest first) and the figures. Rejects when the database fails.
 */
export async function listStaffDonors(db: Database, query: StaffDonorListQuery, now: Date, timeZone: string): Promise<StaffDonorListAnswer> {
  const year = zonedYearOf(now, timeZone);
  const where = donorCondition(query, timeZone);
  const direction = query.order === 'asc' ? asc : desc;
  // Issue #36: with a search, best matches first (the best rank among the donor's gifts), then the asked order.
  const search = staffSearch(query.q);
  const rankOrder = search
    ? [sql`(SELECT max(${search.rank}) FROM ${donations} WHERE ${donationDonorKeySql} = ${donorTotals.donorKey} AND ${search.condition}) DESC`]
    : [];
  // NOTE: without a filter the page comes from the sort's index and the count from a scan of the table; with one, the
  // filtered set (a search's gifts...) is found once and counted alongside the page (0 on a page past the last).
  const pageQuery = db
    .select({ address: donorTotals.address, donorKey: donorTotals.donorKey, total: (where === undefined ? sql<number>`0` : sql<number>`count(*) OVER ()`).mapWith(Number) })
    .from(donorTotals)
    .where(where)
    .orderBy(...rankOrder, direction(SORT_COLUMNS[query.sort]), direction(donorTotals.address))
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  const [page, total] = await Promise.all([pageQuery, where === undefined ? db.$count(donorTotals) : undefined]);
  const keys = page.map((row) => row.donorKey);
  const [figures, identities] = await Promise.all([readDonorFigures(db, keys, zonedYearBounds(year, timeZone)), readDonorIdentities(db, keys)]);
  const rows = page.flatMap(({ address, donorKey }): StaffDonorRow[] => {
    const figure = figures.get(donorKey);
    // NOTE: a donor whose last charged gift changed between the two reads has no figures: left out of this page.
    if (!figure) return [];
    const identity = identities.get(donorKey);
    // A donor without an e-mail (issue #37) shows none.
    return [{ donorKey, email: shownEmail(identity?.emails[0] ?? address), names: identity?.names ?? [], ...figure }];
  });
  return { rows, total: total ?? page[0]?.total ?? 0, page: query.page, pageSize: query.pageSize, year };
}
