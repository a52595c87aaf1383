import { and, eq, gte, lt, lte, type SQL } from 'drizzle-orm';
import type { StaffDonationFilter } from '../../../shared/staff/donations-api';
import { donations } from '../../db/schema';
import { zonedDayBounds } from '../../digest/time-zone';
import { searchCondition } from '../shared/search';
import { staffStatusCondition } from '../shared/status';

/**
 * The SQL condition of the staff's filters (issue #21, "Donations"), on the donations table: the list, its totals and
 * the export all select through it, so the three always agree. Each filter is a plain condition on an indexed column where one helps (migration of issue #21).
 */

/**
 * The condition of `filter` (amounts in cents), or undefined when it has none: `from`/`to` are calendar days in
 * `timeZone` (the staff's TZ, as the daily digest's days: a day there from its midnight to the next, daylight saving
 * included) of the donation's creation, both included; the rest as StaffDonationFilterShape says. Throws a RangeError
 * for a date that is not a calendar date (the query schema refuses those first).
 */
export function filterCondition(filter: StaffDonationFilter, timeZone: string): SQL | undefined {
  return and(
    filter.from === undefined ? undefined : gte(donations.createdAt, zonedDayBounds(filter.from, timeZone).start),
    filter.to === undefined ? undefined : lt(donations.createdAt, zonedDayBounds(filter.to, timeZone).end),
    filter.status === undefined ? undefined : staffStatusCondition(filter.status),
    filter.frequency === undefined ? undefined : eq(donations.frequency, filter.frequency),
    filter.cause === undefined ? undefined : eq(donations.cause, filter.cause),
    filter.gateway === undefined ? undefined : eq(donations.gateway, filter.gateway),
    filter.mode === undefined ? undefined : eq(donations.isTestPayment, filter.mode === 'test'),
    filter.paymentMethod === undefined ? undefined : eq(donations.paymentMethod, filter.paymentMethod),
    filter.amountMin === undefined ? undefined : gte(donations.amountCents, filter.amountMin),
    filter.amountMax === undefined ? undefined : lte(donations.amountCents, filter.amountMax),
    searchCondition(filter.q),
    filter.campaign === undefined ? undefined : eq(donations.campaign, filter.campaign),
  );
}
