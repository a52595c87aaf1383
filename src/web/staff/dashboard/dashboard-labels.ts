import type { DashboardPeriod, DayRange } from '../../../shared/staff/dashboard-api';
import { formatCents, formatDay } from '../components/format';

/** The periods in words, as the cards and the period picker name them (issue #22, "Dashboard /staff"). */
export const PERIOD_LABELS: Record<DashboardPeriod, string> = {
  today: 'Today',
  last7: 'Last 7 days',
  last30: 'Last 30 days',
  year: 'This year',
};

const monthFormat = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'long', year: 'numeric' });

/** A month `YYYY-MM` as `March 2027`. */
export function formatMonth(month: string): string {
  return monthFormat.format(new Date(`${month}-01T00:00:00Z`));
}

/** A range of days in words: `Mar 10, 2027`, or `Feb 9, 2027 to Mar 10, 2027`. */
export function formatDays({ from, to }: DayRange): string {
  return from === to ? formatDay(from) : `${formatDay(from)} to ${formatDay(to)}`;
}

/**
 * How `nowCents` compares with `beforeCents` a year before, in words that need no colour or arrow to be read:
 * `up $30.00 (38%)`, `down $5.00 (10%)`, `same as a year before`, or `up $12.00 (none a year before)`.
 */
export function describeChange(nowCents: number, beforeCents: number): string {
  const difference = nowCents - beforeCents;
  if (difference === 0) return 'same as a year before';
  const direction = difference > 0 ? 'up' : 'down';
  const share = beforeCents === 0 ? 'none a year before' : `${Math.round((Math.abs(difference) / beforeCents) * 100)}%`;
  return `${direction} ${formatCents(Math.abs(difference))} (${share})`;
}
