import { and, asc, desc, eq, gte, inArray, lte, sql, type SQL } from 'drizzle-orm';
import type { StaffPlanListAnswer, StaffPlanListQuery, StaffPlanRow, StaffPlanTotals } from '../../../shared/staff/plans-api';
import type { Database } from '../../db/client';
import { donations, receipts, recurringPlans } from '../../db/schema';
import { activeMonthlyEquivalentCentsSql } from '../../recurring/monthly-equivalent';
import { searchCondition, staffSearch } from '../shared/search';
import { donorKeyOf } from '../shared/donor-key';

/**
 * The staff's list of recurring plans (issue #22, "Recurring plans /staff/plans"): one page of the filtered plans in
 * the asked order, each with its donor (the first gift's name and address: recurring/plans.ts) and that gift's receipt
 * number, and the totals of the whole filtered set, in SQL. Money in integer cents.
 */

/**
 * The date staff read as a plan's next charge: its next charge date while active, its next retry's day (UTC) while
 * past due, none while paused or cancelled (as the donor's manage page: recurring/manage.ts managedPlanView).
 */
export const nextChargeSql = sql<string | null>`CASE ${recurringPlans.status}
  WHEN 'active' THEN ${recurringPlans.nextChargeOn}
  WHEN 'past_due' THEN (${recurringPlans.nextAttemptAt} AT TIME ZONE 'UTC')::date
  ELSE NULL END`;

/** The condition of `query`'s filters and search over recurring_plans alone (the search a subquery of donations). */
function filterCondition(db: Database, query: StaffPlanListQuery): SQL | undefined {
  const search = searchCondition(query.q);
  return and(
    query.status ? eq(recurringPlans.status, query.status) : undefined,
    query.frequency ? eq(recurringPlans.frequency, query.frequency) : undefined,
    query.cause ? eq(recurringPlans.cause, query.cause) : undefined,
    query.nextFrom ? sql`${nextChargeSql} >= ${query.nextFrom}::date` : undefined,
    query.nextTo ? sql`${nextChargeSql} <= ${query.nextTo}::date` : undefined,
    query.amountMin !== undefined ? gte(recurringPlans.amountCents, query.amountMin) : undefined,
    query.amountMax !== undefined ? lte(recurringPlans.amountCents, query.amountMax) : undefined,
    // NOTE: the search of the donations list, on the plan's first gift: its donor's name or e-mail, or its receipt number.
    // A semi-join (answered from the donations' search indexes), so neither query joins the donations table to filter.
    search ? inArray(recurringPlans.firstDonationId, db.select({ id: donations.id }).from(donations).where(search)) : undefined,
  );
}

/** The columns of a list row; dates as selected, turned into the answer's text by {@link toRow}. */
const rowColumns = {
  id: recurringPlans.id,
  status: recurringPlans.status,
  donorName: donations.donorName,
  email: donations.donorEmail,
  amountCents: recurringPlans.amountCents,
  currency: recurringPlans.currency,
  frequency: recurringPlans.frequency,
  cause: recurringPlans.cause,
  nextChargeOn: sql<string | null>`(${nextChargeSql})::text`,
  createdAt: recurringPlans.createdAt,
  firstReceiptNumber: receipts.number,
  isTestPayment: recurringPlans.isTestPayment,
};

/** A selected row in the answer's shape, with its donor's key (donorKeyOf of the first gift's address). */
function toRow({ createdAt, isTestPayment, ...row }: { createdAt: Date; isTestPayment: boolean } & Omit<StaffPlanRow, 'createdAt' | 'mode' | 'donorKey'>): StaffPlanRow {
  return { ...row, donorKey: donorKeyOf(row.email), createdAt: createdAt.toISOString(), mode: isTestPayment ? 'test' : 'live' };
}

/**
 * The totals (StaffPlanTotalsSchema): how many plans, how many active (status `active`: a past-due plan is counted by
 * its own filter), and the active plans' monthly equivalent (recurring/monthly-equivalent.ts, decision 0068).
 */
const totalColumns = {
  count: sql<number>`count(*)`.mapWith(Number),
  activeCount: sql<number>`count(*) FILTER (WHERE ${recurringPlans.status} = 'active')`.mapWith(Number),
  activeMonthlyCents: activeMonthlyEquivalentCentsSql,
};

/**
 * One page of the plans matching `query`, sorted by `sort` (`next_charge`: the date staff read as the next charge,
 * plans without one last; `amount`; `created`) in `order` (after the search's rank, best first, when `q` is given:
 * issue #36), ties broken by id so pages never overlap, with the totals of
 * the whole filtered set; the two queries run at once, on recurring_plans alone but for the page's rows. Rejects when
 * the database fails.
 */
export async function listStaffPlans(db: Database, query: StaffPlanListQuery): Promise<StaffPlanListAnswer> {
  const where = filterCondition(db, query);
  const direction = query.order === 'asc' ? asc : desc;
  const key = query.sort === 'amount' ? sql`${recurringPlans.amountCents}` : query.sort === 'created' ? sql`${recurringPlans.createdAt}` : sql`${nextChargeSql}`;
  const sorted = [query.order === 'asc' ? sql`${key} ASC NULLS LAST` : sql`${key} DESC NULLS LAST`, direction(recurringPlans.id)];
  // Issue #36: with a search, best matches first (the rank of the plan's first gift), then the asked order.
  const search = staffSearch(query.q);
  const orderBy = search ? [sql`(SELECT ${search.rank} FROM ${donations} WHERE ${donations.id} = ${recurringPlans.firstDonationId}) DESC`, ...sorted] : sorted;
  // NOTE: a deferred join (as the donations list's, decision 0085): the page's plans are chosen from recurring_plans
  // alone, then only those are joined to their first gift and its receipt.
  const pageIds = db
    .select({ id: recurringPlans.id })
    .from(recurringPlans)
    .where(where)
    .orderBy(...orderBy)
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  const [rows, [totals]] = await Promise.all([
    db
      .select(rowColumns)
      .from(recurringPlans)
      .innerJoin(donations, eq(donations.id, recurringPlans.firstDonationId))
      .leftJoin(receipts, eq(receipts.donationId, donations.id))
      .where(inArray(recurringPlans.id, pageIds))
      .orderBy(...orderBy),
    db.select(totalColumns).from(recurringPlans).where(where),
  ]);
  const empty: StaffPlanTotals = { count: 0, activeCount: 0, activeMonthlyCents: 0 };
  return { rows: rows.map(toRow), totals: totals ?? empty, page: query.page, pageSize: query.pageSize };
}
