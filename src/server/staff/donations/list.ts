import { asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { StaffDonationListAnswer, StaffDonationListQuery, StaffDonationRow, StaffDonationTotals } from '../../../shared/staff/donations-api';
import { shownEmail } from '../../../shared/offline-gifts';
import type { Database } from '../../db/client';
import { donations, receipts } from '../../db/schema';
import { filterCondition } from './filters';
import { staffSearch } from '../shared/search';
import { staffStatusSql } from '../shared/status';
import { totalColumns } from '../shared/totals';

/**
 * The staff's list of donations (issue #21, "Donations"): one page of the filtered set in the asked order (each row
 * with its receipt's number), and the totals of the whole filtered set, both in SQL (Drizzle).
 * Money in integer cents.
 */

/** The columns of a list row (see StaffDonationRowSchema); dates as Date, turned into ISO text by {@link toListRow}. */
const rowColumns = {
  id: donations.id,
  createdAt: donations.createdAt,
  donorName: donations.donorName,
  email: donations.donorEmail,
  amountCents: donations.amountCents,
  currency: donations.currency,
  frequency: donations.frequency,
  cause: donations.cause,
  status: staffStatusSql,
  gateway: donations.gateway,
  isTestPayment: donations.isTestPayment,
  receiptNumber: receipts.number,
  cardBrand: donations.cardBrand,
  last4: donations.cardLast4,
  refundedCents: donations.refundedCents,
  campaign: donations.campaign,
  feeCoveredCents: donations.feeCoveredCents,
  isAnonymous: donations.isAnonymous,
  paymentMethod: donations.paymentMethod,
};

/** A row as selected by {@link rowColumns}. */
type SelectedRow = { [K in keyof typeof rowColumns]: unknown } & { createdAt: Date; isTestPayment: boolean };

/** A selected row in the answer's shape (ISO dates, `mode` from `is_test_payment`). */
export function toListRow({ isTestPayment, createdAt, ...row }: SelectedRow): StaffDonationRow {
  const listed = row as Omit<StaffDonationRow, 'createdAt' | 'mode'>;
  // A donor without an e-mail (issue #37) shows none: her stand-in address is never shown.
  return { ...listed, email: shownEmail(listed.email), createdAt: createdAt.toISOString(), mode: isTestPayment ? 'test' : 'live' };
}



/**
 * One page of the donations matching `query`'s filters (dates in `timeZone`), sorted by `sort` (`date`: created_at;
 * `amount`: amount_cents, then created_at) in `order` (after the search's rank, best first, when `q` is given: issue
 * #36), ties broken by id so pages never overlap, `pageSize` rows after
 * `(page - 1) * pageSize` (OFFSET on the sort's index, a deferred join; decision 0085), with the totals of the whole filtered set. The
 * two queries run at once on two pooled connections. Rejects when the database fails.
 */
export async function listStaffDonations(db: Database, query: StaffDonationListQuery, timeZone: string): Promise<StaffDonationListAnswer> {
  const where = filterCondition(query, timeZone);
  const direction = query.order === 'asc' ? asc : desc;
  const sorted = query.sort === 'amount' ? [direction(donations.amountCents), direction(donations.createdAt), direction(donations.id)] : [direction(donations.createdAt), direction(donations.id)];
  // Issue #36: with a search, best matches first, then the asked order among equal matches.
  const search = staffSearch(query.q);
  const orderBy = search ? [sql`${search.rank} DESC`, ...sorted] : sorted;
  // NOTE: a deferred join: the page's ids are chosen first, from the sort's index alone (an index-only scan skips the
  // OFFSET's rows without reading them from the table), then only those rows are read and joined to their receipts.
  const pageIds = db
    .select({ id: donations.id })
    .from(donations)
    .where(where)
    .orderBy(...orderBy)
    .limit(query.pageSize)
    .offset((query.page - 1) * query.pageSize);
  const [rows, [totals]] = await Promise.all([
    db
      .select(rowColumns)
      .from(donations)
      .leftJoin(receipts, eq(receipts.donationId, donations.id))
      .where(inArray(donations.id, pageIds))
      .orderBy(...orderBy),
    db.select(totalColumns).from(donations).where(where),
  ]);
  const empty: StaffDonationTotals = { count: 0, grossCents: 0, refundedCents: 0, disputedCents: 0, netCents: 0 };
  return { rows: rows.map(toListRow), totals: totals ?? empty, page: query.page, pageSize: query.pageSize };
}
