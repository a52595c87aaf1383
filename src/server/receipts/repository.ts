import { and, asc, desc, eq, gte, isNull, lt, lte, sql } from 'drizzle-orm';
import type { CardBrand } from '../../shared/card';
import type { Cause } from '../../shared/causes';
import type { Frequency } from '../../shared/frequencies';
import type { Database } from '../db/client';
import { donationRefunds, donations, receiptCounters, receipts, type DonationRefundRow } from '../db/schema';
import { enqueueMail } from '../mail/outbox';

/**
 * Receipts (issue #12): numbered in the transaction that marks their donation succeeded (decision 0041), read
 * back for the e-mail, the PDF, resends and year-end statements. Money is integer cents.
 */

/**
 * `2026-000123`: the year, a hyphen and the sequence number padded to 6 digits (more digits past 999,999, so a
 * number is never cut). Throws on a sequence below 1.
 */
export function formatReceiptNumber(year: number, sequence: number): string {
  if (!Number.isInteger(sequence) || sequence < 1) throw new RangeError(`A receipt sequence starts at 1, not ${sequence}`);
  return `${year}-${String(sequence).padStart(6, '0')}`;
}

/**
 * Issues the receipt of a donation that `db` (a transaction) has just marked succeeded: takes the next number of
 * the current calendar year (UTC, by the database clock) from receipt_counters with one UPSERT, writes the
 * receipt, and enqueues its e-mail in the outbox, all in that transaction (issue #12: "assigned in the same
 * transaction, never reused"; decision 0041). Returns the receipt number. Throws when the donation does not exist
 * or already has a receipt (unique donation_id), which rolls the transaction back.
 */
export async function issueReceipt(db: Database, donationId: string): Promise<string> {
  const [counter] = await db
    .insert(receiptCounters)
    .values({ year: sql`extract(year from now() at time zone 'UTC')::integer`, lastNumber: 1 })
    .onConflictDoUpdate({ target: receiptCounters.year, set: { lastNumber: sql`${receiptCounters.lastNumber} + 1` } })
    .returning();
  if (!counter) throw new Error('The receipt counter returned no row');
  const number = formatReceiptNumber(counter.year, counter.lastNumber);
  await db.insert(receipts).values({ number, donationId, year: counter.year, sequence: counter.lastNumber });
  const [donation] = await db.select({ email: donations.donorEmail }).from(donations).where(eq(donations.id, donationId));
  if (!donation) throw new Error(`Donation ${donationId} does not exist`);
  await enqueueMail(db, { kind: 'receipt', dedupeKey: `receipt:${donationId}`, recipient: donation.email, donationId });
  return number;
}

/**
 * Voids the receipt of a refunded donation and enqueues the notice, in `db` (the refund's transaction; issue #12:
 * "a refund voids the receipt and sends a notice, never edits it"). Returns false when the donation has no
 * receipt or it is void already (then nothing is written).
 */
export async function voidReceipt(db: Database, donationId: string): Promise<boolean> {
  const [voided] = await db
    .update(receipts)
    .set({ voidedAt: sql`now()` })
    .where(and(eq(receipts.donationId, donationId), isNull(receipts.voidedAt)))
    .returning({ donationId: receipts.donationId });
  if (!voided) return false;
  const [donation] = await db.select({ email: donations.donorEmail }).from(donations).where(eq(donations.id, donationId));
  if (!donation) return false;
  await enqueueMail(db, { kind: 'receipt_void', dedupeKey: `receipt_void:${donationId}`, recipient: donation.email, donationId });
  return true;
}

/**
 * Queues the notice of a partial refund (issue #14; decision 0058), in `db` (the refund's transaction): one message per
 * refund, naming it (`refund_id`), to the donor's address. The receipt stays valid for the amount kept, which the
 * notice, the receipt's PDF and the year-end statement state. Returns the message id, or undefined when queued before.
 * NOTE: no `donation_id` on it: (kind, donation_id) is unique, and a donation can have several partial refunds.
 */
export async function enqueuePartialRefundNotice(db: Database, refund: Pick<DonationRefundRow, 'id' | 'donationId'>): Promise<string | undefined> {
  const [donation] = await db.select({ email: donations.donorEmail }).from(donations).where(eq(donations.id, refund.donationId));
  if (!donation) throw new Error(`Donation ${refund.donationId} does not exist`);
  return enqueueMail(db, { kind: 'partial_refund', dedupeKey: `partial_refund:${refund.id}`, recipient: donation.email, refundId: refund.id });
}

/** A refund as its notice reports it: its amount and time, and what was refunded of its donation up to it (cents). */
export interface RefundNoticeDetails {
  donationId: string;
  amountCents: number;
  createdAt: Date;
  /** Cents refunded of the donation by this refund and the ones before it (not the later ones). */
  refundedCentsSoFar: number;
}

/** The refund `refundId` with the donation's refunds up to it (see RefundNoticeDetails); undefined when there is none. */
export async function findRefundNoticeDetails(db: Database, refundId: string): Promise<RefundNoticeDetails | undefined> {
  const [refund] = await db.select().from(donationRefunds).where(eq(donationRefunds.id, refundId));
  if (!refund) return undefined;
  // NOTE: compared with the row's own created_at in SQL: a JS Date would cut PostgreSQL's microseconds.
  const createdAtOfRefund = db.select({ createdAt: donationRefunds.createdAt }).from(donationRefunds).where(eq(donationRefunds.id, refundId));
  const [soFar] = await db
    .select({ cents: sql<number>`coalesce(sum(${donationRefunds.amountCents}), 0)`.mapWith(Number) })
    .from(donationRefunds)
    .where(and(eq(donationRefunds.donationId, refund.donationId), lte(donationRefunds.createdAt, sql`(${createdAtOfRefund})`)));
  return { donationId: refund.donationId, amountCents: refund.amountCents, createdAt: refund.createdAt, refundedCentsSoFar: soFar?.cents ?? refund.amountCents };
}

/** Everything a receipt shows (issue #12, "Contents"). Amount in cents. */
export interface ReceiptDetails {
  number: string;
  issuedAt: Date;
  voidedAt: Date | null;
  donationId: string;
  amountCents: number;
  /** Cents refunded so far (issue #14): more than 0 after a partial refund, the receipt then stands for the rest. */
  refundedCents: number;
  currency: string;
  frequency: Frequency;
  cause: Cause;
  donorName: string;
  donorEmail: string;
  isAnonymous: boolean;
  /** Null when the gateway did not say (the card data never reached the server). */
  cardBrand: CardBrand | null;
  cardLast4: string | null;
  transactionId: string;
  isTestPayment: boolean;
}

const detailColumns = {
  number: receipts.number,
  issuedAt: receipts.issuedAt,
  voidedAt: receipts.voidedAt,
  donationId: donations.id,
  amountCents: donations.amountCents,
  refundedCents: donations.refundedCents,
  currency: donations.currency,
  frequency: donations.frequency,
  cause: donations.cause,
  donorName: donations.donorName,
  donorEmail: donations.donorEmail,
  isAnonymous: donations.isAnonymous,
  // NOTE: known for every donation with a receipt (succeeded or after; donations_card_known_check), NULL only while pending.
  cardBrand: sql<CardBrand>`${donations.cardBrand}`,
  cardLast4: sql<string>`${donations.cardLast4}`,
  transactionId: sql<string>`${donations.gatewayTransactionId}`,
  isTestPayment: donations.isTestPayment,
};

/** The receipt of a donation, by donation id; undefined when it has none. */
export async function findReceiptByDonationId(db: Database, donationId: string): Promise<ReceiptDetails | undefined> {
  const [row] = await db
    .select(detailColumns)
    .from(receipts)
    .innerJoin(donations, eq(donations.id, receipts.donationId))
    .where(eq(receipts.donationId, donationId));
  return row;
}

/** The receipt of a donation, by the gateway's transaction id (the capability link names it); undefined when none. */
export async function findReceiptByTransactionId(db: Database, transactionId: string): Promise<ReceiptDetails | undefined> {
  const [row] = await db
    .select(detailColumns)
    .from(receipts)
    .innerJoin(donations, eq(donations.id, receipts.donationId))
    .where(eq(donations.gatewayTransactionId, transactionId));
  return row;
}

/**
 * Every receipt of the donations made with `email` (compared case-insensitively), oldest first; with `year`,
 * only that year's receipts that are not void (a refunded gift is left out of a statement; issue #12).
 */
export async function listReceiptsByEmail(db: Database, email: string, year?: number): Promise<ReceiptDetails[]> {
  const byAddress = eq(sql`lower(${donations.donorEmail})`, email.toLowerCase());
  return db
    .select(detailColumns)
    .from(receipts)
    .innerJoin(donations, eq(donations.id, receipts.donationId))
    .where(year === undefined ? byAddress : and(byAddress, eq(receipts.year, year), isNull(receipts.voidedAt)))
    .orderBy(asc(receipts.year), asc(receipts.sequence));
}

/**
 * The distinct addresses (lower case) with at least one receipt, not void, issued in `year`: who gets a year-end
 * statement. Issued times are compared in UTC, like receipt numbers.
 */
export async function listStatementRecipients(db: Database, year: number): Promise<string[]> {
  const rows = await db
    .selectDistinct({ email: sql<string>`lower(${donations.donorEmail})` })
    .from(receipts)
    .innerJoin(donations, eq(donations.id, receipts.donationId))
    .where(
      and(
        gte(receipts.issuedAt, new Date(Date.UTC(year, 0, 1))),
        lt(receipts.issuedAt, new Date(Date.UTC(year + 1, 0, 1))),
        isNull(receipts.voidedAt),
      ),
    )
    .orderBy(sql`1`);
  return rows.map((row) => row.email);
}

/**
 * The address, as the donor typed it, of the latest donation with a receipt made with `email` (compared
 * case-insensitively), or undefined when that address has none: where a resend goes (never an address only
 * typed on /donate/receipts).
 */
export async function findDonorAddress(db: Database, email: string): Promise<string | undefined> {
  const [row] = await db
    .select({ email: donations.donorEmail })
    .from(receipts)
    .innerJoin(donations, eq(donations.id, receipts.donationId))
    .where(eq(sql`lower(${donations.donorEmail})`, email.toLowerCase()))
    .orderBy(desc(receipts.issuedAt))
    .limit(1);
  return row?.email;
}
