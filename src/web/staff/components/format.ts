import { centsToDollars } from '../../../shared/money';

const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** An amount of integer cents as the staff pages show it: `$1,234.50` (always two decimals, as in a ledger). */
export function formatCents(amountCents: number): string {
  return money.format(centsToDollars(amountCents));
}

/** An ISO instant in the reader's time zone: `Nov 26, 2026, 1:41 PM`; a dash when there is none. */
export function formatInstant(iso: string | null | undefined): string {
  return iso ? dateTime.format(new Date(iso)) : '—';
}

const dayFormat = new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'short', day: 'numeric', year: 'numeric' });

/** A calendar day `YYYY-MM-DD` as `Mar 10, 2027` (the day itself, whatever the reader's zone). */
export function formatDay(date: string): string {
  return dayFormat.format(new Date(`${date}T00:00:00Z`));
}
