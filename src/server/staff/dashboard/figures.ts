import { and, eq, gte, inArray, isNotNull, lt, or, sql, type SQL } from 'drizzle-orm';
import { CAUSES } from '../../../shared/causes';
import { FREQUENCIES } from '../../../shared/frequencies';
import type { DashboardPeriod, DayRange, MoneyTotals, StaffDashboard } from '../../../shared/staff/dashboard-api';
import type { Database } from '../../db/client';
import { donations, mailOutbox, recurringPlans } from '../../db/schema';
import { keptCentsSql } from '../../ledger/kept-amount';
import { activeMonthlyEquivalentCentsSql } from '../../recurring/monthly-equivalent';
import { CHARGED_STATUSES, totalColumns } from '../shared/totals';
import { allPeriods, dailyDates, monthsToDate, periodDays, rangeAYearBefore, sameDateAYearBefore, todayIn, zonedRange } from './periods';

/**
 * The dashboard's figures (issue #22, "Dashboard /staff"; decision 0074), read from the database in SQL, integer cents.
 * Money is counted as the donations list's totals count it (staff/shared/totals.ts totalColumns: gross, refunded,
 * disputed, net = the ledger's kept amount of the gifts still succeeded, as ledger/stats.ts), over the gifts charged
 * (CHARGED_STATUSES) whose donation was created in the days asked, days in the staff's TZ (as the list's date filters
 * and so its export): every figure of a range equals the list's totals and the staff export of the same days.
 * NOTE: at most four scans of the ledger whatever the figures (100,000 donations within 200 ms; decision 0074): the
 * money of every day from 1 January a year ago to today in one index-only scan, added up here into the periods and
 * series; the causes and frequencies of the selected period and of its year before, from their days' gifts only
 * (decision 0117); its donors, from every charged gift until its end.
 */

const charged = inArray(donations.status, CHARGED_STATUSES);
const EMPTY_TOTALS: MoneyTotals = { count: 0, grossCents: 0, refundedCents: 0, disputedCents: 0, netCents: 0 };

/**
 * The totals (totalColumns) of the gifts charged on each day of `days` in `timeZone`, by date (`YYYY-MM-DD`); a day
 * without gifts is absent. The range's instants come from time-zone.ts; the day of each gift within it from
 * PostgreSQL's `date_trunc('day', ..., zone)` with the same IANA zone (one index-only scan of the (status, created_at, amount,
 * refunded) index, where 700 range scans of time-zone.ts's days would take as long as the rest together).
 */
async function totalsByDay(db: Database, days: DayRange, timeZone: string): Promise<Map<string, MoneyTotals>> {
  const { start, end } = zonedRange(days, timeZone);
  // NOTE: the zone inlined as a literal (TZ's canonical IANA name, config.ts; quotes doubled all the same), so that the
  // SELECT's day and the GROUP BY are one expression: date_trunc once per gift (the cheapest way to a zoned day), the
  // date written once per day.
  const zone = sql.raw(`'${timeZone.replaceAll("'", "''")}'`);
  const dayStart = sql`date_trunc('day', ${donations.createdAt}, ${zone})`;
  const rows = await db
    .select({ day: sql<string>`to_char(${dayStart} AT TIME ZONE ${zone}, 'YYYY-MM-DD')`, ...totalColumns })
    .from(donations)
    .where(and(charged, gte(donations.createdAt, start), lt(donations.createdAt, end)))
    .groupBy(dayStart);
  return new Map(rows.map(({ day, ...totals }) => [day, totals]));
}

/** The sum of `byDay`'s totals over the days of `range` (both included). */
function totalsOver(byDay: Map<string, MoneyTotals>, range: DayRange): MoneyTotals {
  const sum = { ...EMPTY_TOTALS };
  for (const [day, totals] of byDay) {
    if (day < range.from || day > range.to) continue;
    sum.count += totals.count;
    sum.grossCents += totals.grossCents;
    sum.refundedCents += totals.refundedCents;
    sum.disputedCents += totals.disputedCents;
    sum.netCents += totals.netCents;
  }
  return sum;
}

/**
 * Net cents (ledger's kept amount, totalColumns.netCents) and count of the gifts charged in `selected` (key `now`) and in
 * `yearBefore` (key `before`), days in `timeZone`, by key, cause and frequency: at most 2 x 5 x 3 rows. Throws a
 * RangeError when `yearBefore` does not end before `selected` starts (a gift would belong to both).
 * NOTE: one scan of the gifts of the two ranges (`created_at` in one OR the other: two range scans of the (status,
 * created_at, amount, refunded) index for a short period), grouped by the boolean "in `selected`", which PostgreSQL
 * knows has two values: the join to a VALUES list of the two ranges that this replaced read every charged gift of the
 * ledger whatever the period (a parallel scan of the table, 60-110 ms of the dashboard's 200 for 100,000 gifts), and a
 * CASE naming the range made PostgreSQL expect one group per instant and sort them (decision 0117).
 */
async function groupsOfPeriod(db: Database, selected: DayRange, yearBefore: DayRange, timeZone: string) {
  const now = zonedRange(selected, timeZone);
  const before = zonedRange(yearBefore, timeZone);
  if (before.end > now.start) throw new RangeError(`The days a year before (${yearBefore.from}..${yearBefore.to}) overlap ${selected.from}..${selected.to}`);
  const inRange = ({ start, end }: { start: Date; end: Date }) => and(gte(donations.createdAt, start), lt(donations.createdAt, end));
  const rows = await db
    .select({
      // NOTE: first, so that GROUP BY 1 names it (the same condition written twice would be two parameters to PostgreSQL).
      inSelected: sql<boolean>`${donations.createdAt} >= ${now.start.toISOString()}::timestamptz`,
      cause: donations.cause,
      frequency: donations.frequency,
      count: totalColumns.count,
      netCents: totalColumns.netCents,
    })
    .from(donations)
    .where(and(charged, or(inRange(now), inRange(before))))
    .groupBy(sql`1`, donations.cause, donations.frequency);
  return rows.map(({ inSelected, ...row }) => ({ key: inSelected ? 'now' : 'before', ...row }));
}

/**
 * Donors who kept a gift in `days` (a succeeded donation created then), one per e-mail address compared
 * case-insensitively, split into new (no charged gift before `days`) and returning (one before), with the net each
 * group gave in `days`. NOTE: `lower(donor_email)` names the same donors as the donor key (staff/shared/donor-key.ts:
 * `lower(btrim(...))`), since every stored address went through DonorEmailSchema, which trims it. One pass over the
 * gifts charged before the period's end, grouped by address, answers both "kept a gift in it?" and "gave before?":
 * read in address order from donations_donor_email_charged_idx alone (an index-only scan, no sort, no hash: about
 * 50 ms for the benchmark's 100,000 gifts, whatever the period), where a probe of the index per donor of the period
 * took 130 ms for the 42,000 donors of its year (decision 0074).
 */
async function donorSplit(db: Database, days: DayRange, timeZone: string): Promise<StaffDashboard['donors']> {
  const { start, end } = zonedRange(days, timeZone);
  const startSql = sql`${start.toISOString()}::timestamptz`;
  const keptInPeriod = sql`${donations.status} = 'succeeded' AND ${donations.createdAt} >= ${startSql}`;
  const rows = await db
    .select({
      returning: sql<boolean>`donor.gave_before`,
      donorCount: sql<number>`count(*)`.mapWith(Number),
      netCents: sql<number>`coalesce(sum(donor.net_cents), 0)`.mapWith(Number),
    })
    .from(
      sql`(
        SELECT bool_or(${donations.createdAt} < ${startSql}) AS gave_before, bool_or(${keptInPeriod}) AS kept_in_period,
          sum(${keptCentsSql}) FILTER (WHERE ${keptInPeriod}) AS net_cents
        FROM ${donations}
        WHERE ${charged} AND ${donations.createdAt} < ${end.toISOString()}::timestamptz
        GROUP BY lower(${donations.donorEmail})
      ) AS donor`,
    )
    .where(sql`donor.kept_in_period`)
    .groupBy(sql`1`);
  const group = (returning: boolean) => {
    const row = rows.find((each) => each.returning === returning);
    return { donorCount: row?.donorCount ?? 0, netCents: row?.netCents ?? 0 };
  };
  return { newDonors: group(false), returningDonors: group(true) };
}

const countWhere = (condition: SQL) => sql<number>`count(*) FILTER (WHERE ${condition})`.mapWith(Number);
const sumWhere = (expression: SQL, condition: SQL) => sql<number>`coalesce(sum(${expression}) FILTER (WHERE ${condition}), 0)`.mapWith(Number);

/**
 * Plans now: `active` ones and what they bring a month (recurring/monthly-equivalent.ts, as the plans list's totals), and `past_due` ones (a renewal declined and being retried) with the amounts they owe.
 */
async function planFigures(db: Database): Promise<Pick<StaffDashboard, 'activePlans' | 'failingRenewals'>> {
  const active = sql`${recurringPlans.status} = 'active'`;
  const pastDue = sql`${recurringPlans.status} = 'past_due'`;
  const [row] = await db
    .select({
      activeCount: countWhere(active),
      monthlyEquivalentCents: activeMonthlyEquivalentCentsSql,
      pastDueCount: countWhere(pastDue),
      pastDueCents: sumWhere(sql`${recurringPlans.amountCents}`, pastDue),
    })
    .from(recurringPlans)
    .where(inArray(recurringPlans.status, ['active', 'past_due']));
  return {
    activePlans: { count: row?.activeCount ?? 0, monthlyEquivalentCents: row?.monthlyEquivalentCents ?? 0 },
    failingRenewals: { count: row?.pastDueCount ?? 0, amountCents: row?.pastDueCents ?? 0 },
  };
}

/**
 * Outbox messages failing now, as the daily digest tells them (digest/report.ts): `retrying` = pending after an error
 * (the relay tries again later), `failed` = given up on. On the (status, next_attempt_at) index.
 */
async function mailFigures(db: Database): Promise<StaffDashboard['failingMail']> {
  const [row] = await db
    .select({
      retrying: countWhere(and(eq(mailOutbox.status, 'pending'), isNotNull(mailOutbox.lastError)) as SQL),
      failed: countWhere(eq(mailOutbox.status, 'failed')),
    })
    .from(mailOutbox)
    .where(inArray(mailOutbox.status, ['pending', 'failed']));
  return { retrying: row?.retrying ?? 0, failed: row?.failed ?? 0 };
}

/**
 * Every figure of the dashboard at `now` in `timeZone`, the breakdowns over `period` (StaffDashboardSchema says what
 * each holds). The queries run at once on pooled connections. Rejects when the database fails.
 */
export async function loadDashboard(db: Database, { now, timeZone, period }: { now: Date; timeZone: string; period: DashboardPeriod }): Promise<StaffDashboard> {
  const today = todayIn(now, timeZone);
  const periods = allPeriods(today).map((entry) => ({ ...entry, yearBeforeDays: rangeAYearBefore(entry.days) }));
  const selectedDays = periodDays(period, today);
  const days = dailyDates(today);
  const months = monthsToDate(today);

  // Every day any figure needs: from the earliest a year before (1 January, or in January the last 30 days' start) to today.
  const window = { from: periods.map((entry) => entry.yearBeforeDays.from).reduce((earliest, from) => (from < earliest ? from : earliest)), to: today };

  const [byDay, groups, donors, plans, failingMail] = await Promise.all([
    totalsByDay(db, window, timeZone),
    groupsOfPeriod(db, selectedDays, rangeAYearBefore(selectedDays), timeZone),
    donorSplit(db, selectedDays, timeZone),
    planFigures(db),
    mailFigures(db),
  ]);

  const figuresOf = (entry: (typeof periods)[number]) => ({
    period: entry.period,
    days: entry.days,
    totals: totalsOver(byDay, entry.days),
    yearBefore: { days: entry.yearBeforeDays, totals: totalsOver(byDay, entry.yearBeforeDays) },
  });
  const netOf = (range: DayRange) => totalsOver(byDay, range).netCents;
  const groupNet = (match: (row: (typeof groups)[number]) => boolean) => {
    const sum = (key: string, field: 'netCents' | 'count') => groups.filter((row) => row.key === key && match(row)).reduce((total, row) => total + row[field], 0);
    return { netCents: sum('now', 'netCents'), count: sum('now', 'count'), yearBeforeNetCents: sum('before', 'netCents') };
  };
  const selected = periods.find((entry) => entry.period === period);
  if (!selected) throw new RangeError(`Unknown period ${period}`);

  return {
    timeZone,
    today,
    periods: periods.map(figuresOf),
    selected: figuresOf(selected),
    byCause: CAUSES.map((cause) => ({ cause, ...groupNet((row) => row.cause === cause) })),
    byFrequency: FREQUENCIES.map((frequency) => ({ frequency, ...groupNet((row) => row.frequency === frequency) })),
    donors,
    ...plans,
    failingMail,
    daily: days.map((date) => {
      const before = sameDateAYearBefore(date);
      return { date, netCents: byDay.get(date)?.netCents ?? 0, yearBeforeNetCents: netOf({ from: before, to: before }) };
    }),
    monthly: months.map((month) => ({ month: month.month, netCents: netOf(month.days), yearBeforeNetCents: netOf(month.yearBefore) })),
  };
}
