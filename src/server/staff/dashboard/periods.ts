import { DASHBOARD_DAILY_DAYS, DASHBOARD_PERIODS, type DashboardPeriod, type DayRange } from '../../../shared/staff/dashboard-api';
import { startOfZonedDay, zonedTime } from '../../digest/time-zone';
import { addDays, daysInMonth, startOfDay, toIsoDate, type IsoDate } from '../../recurring/calendar';

/**
 * The days the dashboard's figures cover (issue #22, "Dashboard /staff"; decision 0074), as calendar days in the staff's
 * time zone (TZ, as the daily digest and the donations list's date filters: digest/time-zone.ts), and the instants
 * they span there, daylight saving included. Pure: "today" comes from the caller's clock.
 */

/** A range of days with the instants it spans in the zone: from `start` (included) to `end` (excluded). */
export interface ZonedRange extends DayRange {
  start: Date;
  end: Date;
}

/** The last day of `month` (1..12) of `year`, `YYYY-MM-DD`. */
const lastDayOf = (year: number, month: number): IsoDate =>
  `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(daysInMonth(year, month)).padStart(2, '0')}`;

/** `date` moved by `days` calendar days (negative: earlier). Throws a RangeError on a malformed date. */
export function shiftDays(date: IsoDate, days: number): IsoDate {
  return toIsoDate(addDays(startOfDay(date), days));
}

/**
 * The same calendar date a year before `date`: `2026-11-26` -> `2025-11-26`; a leap day becomes the 28th of February
 * (`2028-02-29` -> `2027-02-28`), as a yearly plan's renewal moves the other way. Throws a RangeError on a malformed date.
 */
export function sameDateAYearBefore(date: IsoDate): IsoDate {
  const instant = startOfDay(date);
  const year = instant.getUTCFullYear() - 1;
  const month = instant.getUTCMonth() + 1;
  const day = Math.min(instant.getUTCDate(), daysInMonth(year, month));
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** Most day starts {@link dayStart} keeps; past it, it starts again from none (a dashboard needs about a hundred a day). */
const DAY_START_CACHE_SIZE = 5_000;
/** Day starts found so far, by `<time zone> <date>`. */
const dayStarts = new Map<string, Date>();

/**
 * The first instant of `date` in `timeZone` (time-zone.ts startOfZonedDay), remembered: finding one takes about 40
 * Intl look-ups (under a millisecond), and a dashboard asks for some two hundred, the same ones all day.
 */
function dayStart(date: IsoDate, timeZone: string): Date {
  const key = `${timeZone} ${date}`;
  let start = dayStarts.get(key);
  if (!start) {
    if (dayStarts.size >= DAY_START_CACHE_SIZE) dayStarts.clear();
    start = startOfZonedDay(date, timeZone);
    dayStarts.set(key, start);
  }
  return start;
}

/**
 * The instants of `days` in `timeZone`: from the first day's start to the start of the day after the last, as
 * time-zone.ts zonedDayBounds gives them (daylight saving included).
 */
export function zonedRange(days: DayRange, timeZone: string): ZonedRange {
  return { ...days, start: dayStart(days.from, timeZone), end: dayStart(shiftDays(days.to, 1), timeZone) };
}

/** `days` a year before: each end moved by {@link sameDateAYearBefore}. */
export function rangeAYearBefore(days: DayRange): DayRange {
  return { from: sameDateAYearBefore(days.from), to: sameDateAYearBefore(days.to) };
}

/** Today in `timeZone` at `now`. */
export function todayIn(now: Date, timeZone: string): IsoDate {
  return zonedTime(now, timeZone).date;
}

/**
 * The days of `period` ending `today` (included): `today` alone; `last7` and `last30` the 7 and 30 days to today;
 * `year` the calendar year from 1 January to today.
 */
export function periodDays(period: DashboardPeriod, today: IsoDate): DayRange {
  switch (period) {
    case 'today':
      return { from: today, to: today };
    case 'last7':
      return { from: shiftDays(today, -6), to: today };
    case 'last30':
      return { from: shiftDays(today, -(DASHBOARD_DAILY_DAYS - 1)), to: today };
    case 'year':
      return { from: `${today.slice(0, 4)}-01-01`, to: today };
  }
}

/** Every period in {@link DASHBOARD_PERIODS} order with its days. */
export function allPeriods(today: IsoDate): { period: DashboardPeriod; days: DayRange }[] {
  return DASHBOARD_PERIODS.map((period) => ({ period, days: periodDays(period, today) }));
}

/** The last {@link DASHBOARD_DAILY_DAYS} days to `today`, oldest first. */
export function dailyDates(today: IsoDate): IsoDate[] {
  return Array.from({ length: DASHBOARD_DAILY_DAYS }, (_, index) => shiftDays(today, index - (DASHBOARD_DAILY_DAYS - 1)));
}

/**
 * The months of `today`'s year to today (`YYYY-MM`), each with its days (the whole month; the current one up to today)
 * and its days a year before (the whole month then; the current one up to {@link sameDateAYearBefore} of today), so the
 * months add up to the `year` period and their years before to its year before, leap days included.
 */
export function monthsToDate(today: IsoDate): { month: string; days: DayRange; yearBefore: DayRange }[] {
  const year = Number(today.slice(0, 4));
  const lastMonth = Number(today.slice(5, 7));
  return Array.from({ length: lastMonth }, (_, index) => {
    const monthNumber = index + 1;
    const month = `${today.slice(0, 4)}-${String(monthNumber).padStart(2, '0')}`;
    const monthBefore = `${String(year - 1).padStart(4, '0')}-${String(monthNumber).padStart(2, '0')}`;
    const current = monthNumber === lastMonth;
    return {
      month,
      days: { from: `${month}-01`, to: current ? today : lastDayOf(year, monthNumber) },
      yearBefore: { from: `${monthBefore}-01`, to: current ? sameDateAYearBefore(today) : lastDayOf(year - 1, monthNumber) },
    };
  });
}
