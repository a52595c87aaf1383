import { addDays, startOfDay, toIsoDate, type IsoDate } from '../recurring/calendar';

/**
 * Calendar days in a named time zone (the staff's `TZ`; issue #14, decision 0062), with nothing but `Intl` and the IANA
 * database Node carries: what day and hour an instant is there, and the instants a day there starts and ends, daylight
 * saving included (a spring-forward day lasts 23 hours, a fall-back day 25). NOTE: never the process's local time
 * (`Date#getHours`, `new Date(y, m, d)`): Node reads `TZ` too, and a test or another deployment may set it differently.
 */

/** Where an instant falls in a time zone: its calendar date and its hour (0 to 23). */
export interface ZonedTime {
  date: IsoDate;
  hour: number;
}

/** Formatters by time zone name (building one is far costlier than using it). */
const formatters = new Map<string, Intl.DateTimeFormat>();

/** The formatter of `timeZone`'s numeric date and 24-hour hour. Throws a RangeError for a name Intl does not know. */
function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    // NOTE: hourCycle h23, not hour12: false, which some ICU versions answer with hour 24 at midnight.
    formatter = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit' });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The calendar date and hour of `instant` in `timeZone`. Throws a RangeError for an unknown zone. */
export function zonedTime(instant: Date, timeZone: string): ZonedTime {
  const parts = Object.fromEntries(formatterOf(timeZone).formatToParts(instant).map((part) => [part.type, part.value]));
  return { date: `${parts.year}-${parts.month}-${parts.day}`, hour: Number(parts.hour) };
}

/** The calendar date before `date` (`2026-03-01` -> `2026-02-28`). Throws a RangeError on a malformed date. */
export function previousDate(date: IsoDate): IsoDate {
  return toIsoDate(addDays(startOfDay(date), -1));
}

/** The calendar date after `date`. Throws a RangeError on a malformed date. */
function nextDate(date: IsoDate): IsoDate {
  return toIsoDate(addDays(startOfDay(date), 1));
}

/** Farther than any UTC offset (-12 to +14 hours) from a date's UTC midnight, in ms. */
const BEYOND_ANY_OFFSET_MS = 15 * 60 * 60 * 1000;

/**
 * The first instant whose date in `timeZone` is `date` or later: 00:00 there, or, on a day whose midnight a daylight
 * saving change skips (America/Santiago in September), the instant the clocks jump. Found by bisection between two
 * instants certainly before and after it, so no offset arithmetic can be off by a transition. Throws a RangeError on a
 * malformed date or an unknown zone.
 */
export function startOfZonedDay(date: IsoDate, timeZone: string): Date {
  const midnightUtc = startOfDay(date).getTime();
  let before = midnightUtc - BEYOND_ANY_OFFSET_MS;
  let after = midnightUtc + BEYOND_ANY_OFFSET_MS;
  while (after - before > 1) {
    const middle = Math.floor((before + after) / 2);
    if (zonedTime(new Date(middle), timeZone).date >= date) after = middle;
    else before = middle;
  }
  return new Date(after);
}

/**
 * The instants `date` covers in `timeZone`: from its start (included) to the next day's start (excluded), so the days
 * of a zone tile time with neither gap nor overlap. Throws like {@link startOfZonedDay}.
 */
export function zonedDayBounds(date: IsoDate, timeZone: string): { start: Date; end: Date } {
  return { start: startOfZonedDay(date, timeZone), end: startOfZonedDay(nextDate(date), timeZone) };
}
