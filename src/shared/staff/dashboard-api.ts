import { z } from 'zod';
import { CAUSES } from '../causes';
import { FREQUENCIES } from '../frequencies';

/**
 * The staff dashboard API (issue #22, "Dashboard /staff"): `GET /api/staff/dashboard?period=...`, the figures at a
 * glance. Money in integer cents; days are calendar days in the staff's time zone (TZ, as the daily digest and the
 * donations list's date filters), written YYYY-MM-DD, both ends of a range included. What each figure counts:
 * docs/decisions/0074-what-the-dashboard-counts.md. Shared by the server (validation, OpenAPI) and the staff page.
 */

/** The periods the headline figures cover: today, the last 7 and 30 days (today included), this calendar year to today. */
export const DASHBOARD_PERIODS = ['today', 'last7', 'last30', 'year'] as const;
/** One of {@link DASHBOARD_PERIODS}. */
export type DashboardPeriod = (typeof DASHBOARD_PERIODS)[number];
/** The period the breakdowns (by cause, one-time versus recurring, new versus returning donors) cover unless asked. */
export const DEFAULT_DASHBOARD_PERIOD: DashboardPeriod = 'last30';
/** How many days the daily series covers (the last 30, today included, as the `last30` period). */
export const DASHBOARD_DAILY_DAYS = 30;

/** `fieldErrors.period` of an unknown period. */
export const DASHBOARD_PERIOD_MESSAGE = `Choose one of ${DASHBOARD_PERIODS.join(', ')}`;

/** Query of the dashboard: `period` (default {@link DEFAULT_DASHBOARD_PERIOD}); unknown parameters refused (400). */
export const StaffDashboardQuerySchema = z.strictObject({
  period: z.enum(DASHBOARD_PERIODS, { error: DASHBOARD_PERIOD_MESSAGE }).default(DEFAULT_DASHBOARD_PERIOD),
});
/** A parsed dashboard query. */
export type StaffDashboardQuery = z.output<typeof StaffDashboardQuerySchema>;

const Cents = z.number().int();
const Count = z.number().int().nonnegative();
const IsoDay = z.iso.date();

/** A range of calendar days in the staff's time zone, both included. */
export const DayRangeSchema = z.object({ from: IsoDay, to: IsoDay });
/** One of {@link DayRangeSchema}. */
export type DayRange = z.infer<typeof DayRangeSchema>;

/**
 * The money of a range, as the donations list's totals count it (issue #21): `count` = gifts charged (succeeded,
 * refunded or disputed: the standard export's rows), `grossCents` their amounts, `refundedCents` what was refunded of
 * them, `disputedCents` what was left of the disputed ones, `netCents` = gross - refunded - disputed: what the charity
 * keeps (the ledger's kept amount of the gifts still succeeded, as `/api/donations/stats`).
 */
export const MoneyTotalsSchema = z.object({
  count: Count,
  grossCents: Cents,
  refundedCents: Cents,
  disputedCents: Cents,
  netCents: Cents,
});
/** One of {@link MoneyTotalsSchema}. */
export type MoneyTotals = z.infer<typeof MoneyTotalsSchema>;

/** A period's totals and those of the same period a year before. */
export const PeriodFiguresSchema = z.object({
  period: z.enum(DASHBOARD_PERIODS),
  days: DayRangeSchema,
  totals: MoneyTotalsSchema,
  yearBefore: z.object({ days: DayRangeSchema, totals: MoneyTotalsSchema }),
});
/** One of {@link PeriodFiguresSchema}. */
export type PeriodFigures = z.infer<typeof PeriodFiguresSchema>;

/** Net of a group in the selected period and in the same period a year before. */
const GroupNet = { netCents: Cents, count: Count, yearBeforeNetCents: Cents };

/** Donors of the selected period who kept a gift in it: new (their first gift is in it) or returning. */
export const DonorSplitSchema = z.object({
  newDonors: z.object({ donorCount: Count, netCents: Cents }),
  returningDonors: z.object({ donorCount: Count, netCents: Cents }),
});

/** 200 answer of `GET /api/staff/dashboard`. */
export const StaffDashboardSchema = z.object({
  /** The staff's time zone (TZ) the days are in. */
  timeZone: z.string(),
  /** Today in that zone. */
  today: IsoDay,
  /** Headline net of each period, in {@link DASHBOARD_PERIODS} order. */
  periods: z.array(PeriodFiguresSchema),
  /** The period the breakdowns below cover. */
  selected: PeriodFiguresSchema,
  /** Every cause (CAUSES order, zeros included). */
  byCause: z.array(z.object({ cause: z.enum(CAUSES), ...GroupNet })),
  /** Every frequency (FREQUENCIES order): one-time versus recurring (monthly, yearly). */
  byFrequency: z.array(z.object({ frequency: z.enum(FREQUENCIES), ...GroupNet })),
  donors: DonorSplitSchema,
  /** Plans `active` now, and what they bring a month (a yearly plan a twelfth), rounded to the cent. */
  activePlans: z.object({ count: Count, monthlyEquivalentCents: Cents }),
  /** Plans past due now (a renewal declined, being retried), and the amount of the renewals they owe. */
  failingRenewals: z.object({ count: Count, amountCents: Cents }),
  /** Outbox messages failing now: still being retried after an error, and given up on. */
  failingMail: z.object({ retrying: Count, failed: Count }),
  /** Net of each of the last {@link DASHBOARD_DAILY_DAYS} days, oldest first, with the same date a year before. */
  daily: z.array(z.object({ date: IsoDay, netCents: Cents, yearBeforeNetCents: Cents })),
  /**
   * Net of each month of this year to today (`YYYY-MM`; the current month to today), with the same month a year before
   * (the current one to the same date): they add up to the `year` period's net and its year before.
   */
  monthly: z.array(z.object({ month: z.string().regex(/^[0-9]{4}-[0-9]{2}$/), netCents: Cents, yearBeforeNetCents: Cents })),
});
/** One of {@link StaffDashboardSchema}. */
export type StaffDashboard = z.infer<typeof StaffDashboardSchema>;
