import { and, eq, inArray, isNotNull, sql, type SQL } from 'drizzle-orm';
import { CAUSES } from '../../shared/causes';
import { FREQUENCIES } from '../../shared/frequencies';
import type { DashboardPeriod, DayRange, MoneyTotals, StaffDashboard } from '../../shared/staff/dashboard-api';
import type { Database } from '../db/client';
import { donations, mailOutbox, recurringPlans } from '../db/schema';
import { keptCentsSql } from '../ledger/kept-amount';
import { CHARGED_STATUSES, totalColumns } from '../staff-donations/list';
import { donorKeySql } from '../staff-donors/donor-key';
import { allPeriods, dailyDates, monthsToDate, periodDays, rangeAYearBefore, sameDateAYearBefore, todayIn, zonedRange } from './periods';

/**
 * The dashboard's figures (issue #22, "Dashboard /staff"; decision 0074), read from the database in SQL, integer cents.
 * Money is counted as the donations list's totals count it (staff-donations/list.ts totalColumns: gross, refunded,
 * disputed, net = the ledger's kept amount of the gifts still succeeded, as ledger/stats.ts), over the gifts charged
 * (CHARGED_STATUSES) whose donation was created in the days asked, days in the staff's TZ (as the list's date filters
 * and so its export): every figure of a range equals the list's totals and the staff export of the same days.
 */

/** A range of instants named by `key`, one row of the VALUES list the sums are grouped by. */
interface Bucket {
  key: string;
  days: DayRange;
}

/**
 * `(VALUES (key, start, end), ...) AS bucket(key, starts_at, ends_at)`: the buckets' instants in `timeZone`. Joined to
 * the donations on `created_at` in [starts_at, ends_at), each range is one scan of the (status, created_at, amount,
 * refunded) index, so the sums are read from the index alone.
 */
function bucketsSql(buckets: readonly Bucket[], timeZone: string): SQL {
  const rows = buckets.map(({ key, days }) => {
    const { start, end } = zonedRange(days, timeZone);
    return sql`(${key}::text, ${start.toISOString()}::timestamptz, ${end.toISOString()}::timestamptz)`;
  });
  return sql`(VALUES ${sql.join(rows, sql`, `)}) AS bucket(key, starts_at, ends_at)`;
}

const bucketKey = sql<string>`bucket.key`;
const inBucket = sql`${donations.createdAt} >= bucket.starts_at AND ${donations.createdAt} < bucket.ends_at`;
const charged = inArray(donations.status, CHARGED_STATUSES);
const EMPTY_TOTALS: MoneyTotals = { count: 0, grossCents: 0, refundedCents: 0, disputedCents: 0, netCents: 0 };

/** The totals (totalColumns) of the gifts charged in each bucket, by key; a bucket without gifts is absent. */
async function totalsByBucket(db: Database, buckets: readonly Bucket[], timeZone: string): Promise<Map<string, MoneyTotals>> {
  const rows = await db
    .select({ key: bucketKey, ...totalColumns })
    .from(donations)
    .innerJoin(bucketsSql(buckets, timeZone), inBucket)
    .where(charged)
    .groupBy(bucketKey);
  return new Map(rows.map(({ key, ...totals }) => [key, totals]));
}

/** Net (and count) of the gifts charged in each bucket, by key, cause and frequency. */
function groupsByBucket(db: Database, buckets: readonly Bucket[], timeZone: string) {
  return db
    .select({ key: bucketKey, cause: donations.cause, frequency: donations.frequency, count: totalColumns.count, netCents: totalColumns.netCents })
    .from(donations)
    .innerJoin(bucketsSql(buckets, timeZone), inBucket)
    .where(charged)
    .groupBy(bucketKey, donations.cause, donations.frequency);
}

/**
 * Donors who kept a gift in `days` (a succeeded donation created then), one per donor key (donorKeySql: the e-mail
 * address trimmed and compared case-insensitively, as the donors page), split into new (their first charged gift,
 * any time, is in `days`) and returning (they had one before), with the net each group gave in `days`.
 */
async function donorSplit(db: Database, days: DayRange, timeZone: string): Promise<StaffDashboard['donors']> {
  const { start, end } = zonedRange(days, timeZone);
  const inRange = sql`${donations.createdAt} >= ${start.toISOString()}::timestamptz`;
  const donorKey = sql.raw(donorKeySql('"donations"."donor_email"'));
  const perDonor = db
    .select({
      firstAt: sql<Date>`min(${donations.createdAt})`.as('first_at'),
      netCents: sql<number>`sum(${keptCentsSql}) FILTER (WHERE ${donations.status} = 'succeeded' AND ${inRange})`.as('net_cents'),
    })
    .from(donations)
    .where(and(charged, sql`${donations.createdAt} < ${end.toISOString()}::timestamptz`))
    .groupBy(donorKey)
    .having(sql`bool_or(${donations.status} = 'succeeded' AND ${inRange})`)
    .as('per_donor');
  const isNew = sql`${perDonor.firstAt} >= ${start.toISOString()}::timestamptz`;
  const [row] = await db
    .select({
      newCount: sql<number>`count(*) FILTER (WHERE ${isNew})`.mapWith(Number),
      newCents: sql<number>`coalesce(sum(${perDonor.netCents}) FILTER (WHERE ${isNew}), 0)`.mapWith(Number),
      returningCount: sql<number>`count(*) FILTER (WHERE NOT ${isNew})`.mapWith(Number),
      returningCents: sql<number>`coalesce(sum(${perDonor.netCents}) FILTER (WHERE NOT ${isNew}), 0)`.mapWith(Number),
    })
    .from(perDonor);
  return {
    newDonors: { donorCount: row?.newCount ?? 0, netCents: row?.newCents ?? 0 },
    returningDonors: { donorCount: row?.returningCount ?? 0, netCents: row?.returningCents ?? 0 },
  };
}

const countWhere = (condition: SQL) => sql<number>`count(*) FILTER (WHERE ${condition})`.mapWith(Number);
const sumWhere = (expression: SQL, condition: SQL) => sql<number>`coalesce(sum(${expression}) FILTER (WHERE ${condition}), 0)`.mapWith(Number);

/**
 * Plans now: `active` ones and what they bring a month (monthly amounts plus a twelfth of yearly ones, rounded to the
 * cent once, on the sum), and `past_due` ones (a renewal declined and being retried) with the amounts they owe.
 */
async function planFigures(db: Database): Promise<Pick<StaffDashboard, 'activePlans' | 'failingRenewals'>> {
  const active = sql`${recurringPlans.status} = 'active'`;
  const pastDue = sql`${recurringPlans.status} = 'past_due'`;
  const [row] = await db
    .select({
      activeCount: countWhere(active),
      monthlyCents: sumWhere(sql`${recurringPlans.amountCents}`, sql`${active} AND ${recurringPlans.frequency} = 'monthly'`),
      yearlyCents: sumWhere(sql`${recurringPlans.amountCents}`, sql`${active} AND ${recurringPlans.frequency} = 'yearly'`),
      pastDueCount: countWhere(pastDue),
      pastDueCents: sumWhere(sql`${recurringPlans.amountCents}`, pastDue),
    })
    .from(recurringPlans)
    .where(inArray(recurringPlans.status, ['active', 'past_due']));
  return {
    activePlans: { count: row?.activeCount ?? 0, monthlyEquivalentCents: Math.round((row?.monthlyCents ?? 0) + (row?.yearlyCents ?? 0) / 12) },
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

  const [periodTotals, seriesTotals, groups, donors, plans, failingMail] = await Promise.all([
    totalsByBucket(
      db,
      periods.flatMap((entry) => [
        { key: `now:${entry.period}`, days: entry.days },
        { key: `before:${entry.period}`, days: entry.yearBeforeDays },
      ]),
      timeZone,
    ),
    totalsByBucket(
      db,
      [
        ...days.flatMap((date) => [
          { key: `day:${date}`, days: { from: date, to: date } },
          { key: `day-before:${date}`, days: { from: sameDateAYearBefore(date), to: sameDateAYearBefore(date) } },
        ]),
        ...months.flatMap((month) => [
          { key: `month:${month.month}`, days: month.days },
          { key: `month-before:${month.month}`, days: month.yearBefore },
        ]),
      ],
      timeZone,
    ),
    groupsByBucket(
      db,
      [
        { key: 'now', days: selectedDays },
        { key: 'before', days: rangeAYearBefore(selectedDays) },
      ],
      timeZone,
    ),
    donorSplit(db, selectedDays, timeZone),
    planFigures(db),
    mailFigures(db),
  ]);

  const figuresOf = (entry: (typeof periods)[number]) => ({
    period: entry.period,
    days: entry.days,
    totals: periodTotals.get(`now:${entry.period}`) ?? EMPTY_TOTALS,
    yearBefore: { days: entry.yearBeforeDays, totals: periodTotals.get(`before:${entry.period}`) ?? EMPTY_TOTALS },
  });
  const netOf = (key: string) => seriesTotals.get(key)?.netCents ?? 0;
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
    daily: days.map((date) => ({ date, netCents: netOf(`day:${date}`), yearBeforeNetCents: netOf(`day-before:${date}`) })),
    monthly: months.map(({ month }) => ({ month, netCents: netOf(`month:${month}`), yearBeforeNetCents: netOf(`month-before:${month}`) })),
  };
}
