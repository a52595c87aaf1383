import { z } from 'zod';
import { EXPORT_FORMATS } from '../../shared/export-formats';

/**
 * What an operator asks of GET /api/admin/donations.csv (issue #14, "Staff actions", Export): the range of calendar
 * days and the CRM the file is for. Validated by {@link ExportRequestSchema}; see
 * docs/decisions/0060-donation-export-for-crms.md.
 */

export { EXPORT_FORMATS, type ExportFormat } from '../../shared/export-formats';

/**
 * The longest range one export covers, in calendar days, both ends included: a whole leap year (2028-01-01 to
 * 2028-12-31). A longer history is exported year by year (decision 0060: it bounds how long one request runs).
 */
export const MAX_EXPORT_DAYS = 366;

/** `fieldErrors` message of a `from` or `to` that is not a calendar date written YYYY-MM-DD. */
export const EXPORT_DATE_MESSAGE = 'Use a calendar date written YYYY-MM-DD, e.g. 2026-01-31';
/** `fieldErrors` message of a `format` that is not one of {@link EXPORT_FORMATS}. */
export const EXPORT_FORMAT_MESSAGE = `Choose one of ${EXPORT_FORMATS.join(', ')}`;
/** `fieldErrors` message (on `to`) of a range that ends before it starts. */
export const EXPORT_RANGE_ORDER_MESSAGE = 'The range must not end before it starts (from <= to)';
/** `fieldErrors` message (on `to`) of a range over {@link MAX_EXPORT_DAYS}. */
export const EXPORT_RANGE_LENGTH_MESSAGE = `A range covers at most ${MAX_EXPORT_DAYS} days; export a longer history year by year`;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Midnight UTC at the start of the calendar day `date` (`YYYY-MM-DD`), in ms since the epoch; NaN for a malformed one.
 * NOTE: not calendar.ts's startOfDay, which throws: the schema's range check may see a date its field check refuses.
 */
function utcDayStartMs(date: string): number {
  return Date.parse(`${date}T00:00:00Z`);
}

/** The number of calendar days from `from` to `to`, both included (1 when they are the same day). */
export function daysInRange(from: string, to: string): number {
  return Math.round((utcDayStartMs(to) - utcDayStartMs(from)) / DAY_MS) + 1;
}

// NOTE: zod's ISO date accepts only real days (2026-02-29 is refused, 2028-02-29 accepted), written YYYY-MM-DD.
const CalendarDateSchema = z.iso.date({ error: EXPORT_DATE_MESSAGE });

/**
 * Query string of GET /api/admin/donations.csv: `from` and `to` (calendar days in UTC, both included) and `format`.
 * Refuses unknown parameters (strict), a range that ends before it starts, or one over {@link MAX_EXPORT_DAYS} days
 * (both reported on `to`); the route answers those with a 400 and `fieldErrors` (errors.ts handleError).
 */
export const ExportRequestSchema = z
  .strictObject({
    from: CalendarDateSchema,
    to: CalendarDateSchema,
    format: z.enum(EXPORT_FORMATS, { error: EXPORT_FORMAT_MESSAGE }),
  })
  .superRefine(({ from, to }, ctx) => {
    const days = daysInRange(from, to);
    if (days < 1) ctx.addIssue({ code: 'custom', path: ['to'], message: EXPORT_RANGE_ORDER_MESSAGE });
    else if (days > MAX_EXPORT_DAYS) ctx.addIssue({ code: 'custom', path: ['to'], message: EXPORT_RANGE_LENGTH_MESSAGE });
  });
/** A validated export request. */
export type ExportRequest = z.infer<typeof ExportRequestSchema>;

/**
 * The file name the export is offered under (`Content-Disposition: attachment`), and `npm run admin -- export` saves
 * it as by default: `donations-<format>-<from>-to-<to>.csv`, only letters, digits, `-` and `.` (no quoting needed).
 */
export function exportFileName({ format, from, to }: ExportRequest): string {
  return `donations-${format}-${from}-to-${to}.csv`;
}
