import type { Frequency } from '../../shared/frequencies';

/**
 * The renewal calendar of recurring gifts (issue #13, "Calendar"), pure and in UTC: a plan's period `n` falls
 * on its anchor date (the first charge's date) moved forward by `n` months or years; a day the month does not
 * have becomes the month's last day, and the next month goes back to the anchor's day (Jan 31 -> Feb 28 or 29
 * -> Mar 31; a yearly Feb 29 -> Feb 28 in common years). Dates are ISO 8601 calendar dates, `YYYY-MM-DD`.
 */

/** A frequency that renews: monthly or yearly. */
export type RecurringFrequency = Exclude<Frequency, 'one-time'>;

/** A UTC calendar date, `YYYY-MM-DD` (ISO 8601). */
export type IsoDate = string;

const DAY_MS = 24 * 60 * 60 * 1000;

/** True for a frequency that renews (monthly, yearly). */
export function isRecurringFrequency(frequency: Frequency): frequency is RecurringFrequency {
  return frequency === 'monthly' || frequency === 'yearly';
}

/** Days in `month` (1..12) of `year`, by the Gregorian calendar: 28 to 31. */
export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** The parts of an ISO date; throws a RangeError when `date` is not a real `YYYY-MM-DD` date. */
function parse(date: IsoDate): { year: number; month: number; day: number } {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  const [year, month, day] = match ? [Number(match[1]), Number(match[2]), Number(match[3])] : [0, 0, 0];
  if (!match || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) throw new RangeError(`Not a date: ${date}`);
  return { year, month, day };
}

const format = (year: number, month: number, day: number): IsoDate =>
  `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;

/** The UTC calendar date of `instant`. */
export function toIsoDate(instant: Date): IsoDate {
  return instant.toISOString().slice(0, 10);
}

/** The instant a UTC date starts (00:00:00.000 UTC). Throws a RangeError on a malformed date. */
export function startOfDay(date: IsoDate): Date {
  const { year, month, day } = parse(date);
  return new Date(Date.UTC(year, month - 1, day));
}

/** `instant` plus `days` whole days of 24 hours (UTC has no daylight saving). */
export function addDays(instant: Date, days: number): Date {
  return new Date(instant.getTime() + days * DAY_MS);
}

/**
 * The date of period `period` (0 = the first charge, on `anchor`; 1 = the first renewal...) of a plan anchored on
 * `anchor` that renews `frequency`. Throws a RangeError on a malformed anchor or a negative or fractional period.
 */
export function chargeDate(anchor: IsoDate, frequency: RecurringFrequency, period: number): IsoDate {
  if (!Number.isSafeInteger(period) || period < 0) throw new RangeError(`A period is a whole number from 0, not ${period}`);
  const { year, month, day } = parse(anchor);
  const months = (month - 1) + (frequency === 'monthly' ? period : 12 * period);
  const targetYear = year + Math.floor(months / 12);
  const targetMonth = (months % 12) + 1;
  return format(targetYear, targetMonth, Math.min(day, daysInMonth(targetYear, targetMonth)));
}

/**
 * The first period after period 0 whose date is on or after `date`: where a plan resumed (or paused until)
 * `date` picks up, skipping the periods it missed. Returns at least 1.
 */
export function firstPeriodOnOrAfter(anchor: IsoDate, frequency: RecurringFrequency, date: IsoDate): number {
  const from = parse(anchor);
  const to = parse(date);
  const monthsApart = (to.year - from.year) * 12 + (to.month - from.month);
  // NOTE: a first guess one period early, then forward: the clamped day can fall either side of `date`'s day.
  let period = Math.max(1, (frequency === 'monthly' ? monthsApart : Math.floor(monthsApart / 12)) - 1);
  while (chargeDate(anchor, frequency, period) < date) period += 1;
  return period;
}
