import { and, asc, eq, gte, lt, lte, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client';
import { type DonationRow, donations, offlineGifts, receipts } from '../db/schema';
import { addDays, startOfDay } from '../recurring/calendar';

/**
 * The rows of a donation export (issue #14, "Staff actions", Export), read from the database in batches by keyset
 * pagination, so an export of any length holds one batch in memory (decision 0061). One row per receipted gift:
 * every donation that succeeded has its receipt (issued in the same transaction, decision 0040), so the receipts are
 * exactly the gifts received, dated by the receipt (the date on the donor's tax receipt) and ordered by its number.
 */

/** How many rows one query of an export reads (keyset pagination: `LIMIT` this, after the last row of the batch before). */
export const EXPORT_BATCH_SIZE = 500;

/**
 * The donation's columns an export writes, as stored. `status` is succeeded (partly refunded maybe), refunded or
 * disputed: a receipted gift was never pending or failed; `refundedCents` is what an operator refunded so far
 * (migration 0008), all of it once the gift is `refunded`. Money in integer cents.
 */
type ExportedDonationColumns = Pick<
  DonationRow,
  | 'status'
  | 'amountCents'
  | 'refundedCents'
  | 'currency'
  | 'frequency'
  | 'cause'
  | 'donorName'
  | 'donorEmail'
  | 'donorPhone'
  | 'addressStreet'
  | 'addressCity'
  | 'addressState'
  | 'addressZipCode'
  | 'addressCountry'
  | 'message'
  | 'isAnonymous'
  | 'cardBrand'
  | 'cardLast4'
  | 'gateway'
  | 'isTestPayment'
  | 'tributeType'
  | 'tributeHonoreeName'
  | 'campaign'
  | 'feeCoveredCents'
  | 'paymentMethod'
>;

/** One gift of an export: its receipt, the donation and its donor as stored (ExportedDonationColumns). */
export interface ExportRow extends ExportedDonationColumns {
  receiptNumber: string;
  /** When the receipt was issued: the moment the gift succeeded (decision 0041). */
  issuedAt: Date;
  donationId: string;
  /** The gateway's charge id (`ch_...`), known for every gift that succeeded. */
  transactionId: string | null;
  /** True for a charge of a recurring plan (issue #13: donations.recurring_plan_id not null), its first gift included. */
  isRecurring: boolean;
  /** The day a gift received outside the site was received (`YYYY-MM-DD`, issue #37), null for a site gift. */
  receivedOn: string | null;
}

/** A range of calendar days (UTC, YYYY-MM-DD), both included. */
export interface ExportDays {
  /** First calendar day (UTC, YYYY-MM-DD), included. */
  from: string;
  /** Last calendar day (UTC, YYYY-MM-DD), included. */
  to: string;
}

/**
 * Which gifts an export reads: those whose receipt was issued in `receiptDays` (the operator's export), and/or those
 * `donations` selects (a condition on the donations table: the staff's filters, issue #21), and of them, with
 * `keptOnly`, only the gifts the charity keeps.
 */
export interface ExportFilter {
  receiptDays?: ExportDays;
  donations?: SQL;
  /**
   * Only the gifts the charity keeps: `succeeded` and not wholly refunded (a CRM import wants the money received);
   * otherwise refunded and disputed gifts too, for the `standard` file's status and refund columns.
   */
  keptOnly: boolean;
}

/** The condition on the receipts of `days`: issued from the first day's UTC midnight to the end of the last. */
function receiptDaysCondition({ from, to }: ExportDays): SQL | undefined {
  const start = startOfDay(from);
  const endExclusive = addDays(startOfDay(to), 1);
  return and(
    // NOTE: the year bounds let the (year, sequence) index skip other years; the instants give the exact days.
    gte(receipts.year, start.getUTCFullYear()),
    lte(receipts.year, startOfDay(to).getUTCFullYear()),
    gte(receipts.issuedAt, start),
    lt(receipts.issuedAt, endExclusive),
  );
}

const exportColumns = {
  receiptNumber: receipts.number,
  receiptYear: receipts.year,
  receiptSequence: receipts.sequence,
  issuedAt: receipts.issuedAt,
  donationId: donations.id,
  status: donations.status,
  amountCents: donations.amountCents,
  refundedCents: donations.refundedCents,
  currency: donations.currency,
  frequency: donations.frequency,
  cause: donations.cause,
  donorName: donations.donorName,
  donorEmail: donations.donorEmail,
  donorPhone: donations.donorPhone,
  addressStreet: donations.addressStreet,
  addressCity: donations.addressCity,
  addressState: donations.addressState,
  addressZipCode: donations.addressZipCode,
  addressCountry: donations.addressCountry,
  message: donations.message,
  isAnonymous: donations.isAnonymous,
  tributeType: donations.tributeType,
  tributeHonoreeName: donations.tributeHonoreeName,
  cardBrand: donations.cardBrand,
  cardLast4: donations.cardLast4,
  gateway: donations.gateway,
  transactionId: donations.gatewayTransactionId,
  isTestPayment: donations.isTestPayment,
  isRecurring: sql<boolean>`${donations.recurringPlanId} IS NOT NULL`.mapWith(Boolean),
  campaign: donations.campaign,
  feeCoveredCents: donations.feeCoveredCents,
  paymentMethod: donations.paymentMethod,
  receivedOn: offlineGifts.receivedOn,
};

/**
 * The gifts of `filter`, receipt by receipt in number order (year, then sequence), read `batchSize` at a time: each
 * query asks for the rows after the last one of the batch before (`(year, sequence) > (...)`, on the receipts'
 * unique (year, sequence) index), so no query skips or repeats a row whatever its position, and each runs on its own:
 * no transaction or cursor holds a pooled connection between batches. The next batch is read only when the
 * consumer asks for the row after the last (an async generator: the reply's backpressure paces the queries), and
 * none once it stops. Receipt days are UTC calendar days of the receipt's issue, `from` and `to` included. Rejects
 * when a query fails (the consumer's stream then fails).
 */
export async function* readExportRows(db: Database, filter: ExportFilter, batchSize = EXPORT_BATCH_SIZE): AsyncGenerator<ExportRow> {
  const inRange = and(
    filter.receiptDays ? receiptDaysCondition(filter.receiptDays) : undefined,
    filter.donations,
    filter.keptOnly ? and(eq(donations.status, 'succeeded'), lt(donations.refundedCents, donations.amountCents)) : undefined,
  );
  let after: { year: number; sequence: number } | undefined;
  for (;;) {
    const batch = await db
      .select(exportColumns)
      .from(receipts)
      .innerJoin(donations, eq(donations.id, receipts.donationId))
      .leftJoin(offlineGifts, eq(offlineGifts.donationId, donations.id))
      .where(and(inRange, after ? sql`(${receipts.year}, ${receipts.sequence}) > (${after.year}, ${after.sequence})` : undefined))
      .orderBy(asc(receipts.year), asc(receipts.sequence))
      .limit(batchSize);
    for (const { receiptYear, receiptSequence, ...row } of batch) {
      after = { year: receiptYear, sequence: receiptSequence };
      yield row;
    }
    if (batch.length < batchSize) return;
  }
}
