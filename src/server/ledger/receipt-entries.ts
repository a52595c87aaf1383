import { randomUUID } from 'node:crypto';
import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client';
import { isNoEmailAddress } from '../../shared/offline-gifts';
import { donations, receiptCounters, receipts, type DonationRefundRow } from '../db/schema';
import { enqueueMail, enqueueMails } from '../mail/outbox';

/**
 * The ledger's side of receipts (issue #12; decisions 0041 and 0075): a receipt's number is taken, a receipt voided and
 * the donor's notice queued in the outbox in the same transaction as the donation's move, never one without the other.
 * Reading, rendering and sending receipts is receipts/'s work.
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
 * {@link formatReceiptNumber} in SQL, for a statement that takes the number itself (the one-statement success, issue #39):
 * `year || '-' || sequence` padded to 6 digits, more past 999,999. `year` and `sequence` are integer expressions.
 */
export function receiptNumberSql(year: SQL, sequence: SQL): SQL {
  return sql`(${year}::text || '-' || lpad(${sequence}::text, greatest(6, length(${sequence}::text)), '0'))`;
}

/** A donation that `db` has just marked succeeded, whose receipt {@link issueReceipts} takes, and its address when it is e-mailed. */
export interface ReceiptToIssue {
  donationId: string;
  /** The address to queue the receipt to, or null to queue none (a gift received outside the site; issue #37). */
  mailTo: string | null;
}

/**
 * Issues the receipts of `gifts` (donations `db`, a transaction, has just marked succeeded) in their order, as
 * the success of a gift does one (outcome-statements.ts): the next numbers of the current calendar year (UTC, database clock) taken by ONE upsert
 * of receipt_counters (so they follow the site's gifts in one sequence, without gaps; decision 0041), the receipts
 * written in ONE insert (rows in one json parameter), and the e-mails queued only for those with `mailTo` (issue #37: staff choose, and a
 * donor without an address gets none). Returns the receipt numbers in the order of `gifts`. Throws when a donation does not exist or already has a receipt (unique donation_id), which rolls the transaction back.
 */
export async function issueReceipts(db: Database, gifts: readonly ReceiptToIssue[]): Promise<string[]> {
  if (gifts.length === 0) return [];
  const [counter] = await db
    .insert(receiptCounters)
    .values({ year: sql`extract(year from now() at time zone 'UTC')::integer`, lastNumber: gifts.length })
    .onConflictDoUpdate({ target: receiptCounters.year, set: { lastNumber: sql`${receiptCounters.lastNumber} + ${gifts.length}` } })
    .returning();
  if (!counter) throw new Error('The receipt counter returned no row');
  const first = counter.lastNumber - gifts.length + 1;
  const rows = gifts.map((gift, index) => ({
    number: formatReceiptNumber(counter.year, first + index),
    donationId: gift.donationId,
    year: counter.year,
    sequence: first + index,
  }));
  // One statement, its rows in one json parameter: a multi-row VALUES costs the query builder ~0.3 s per 1,000 rows
  // (issue #37's 5,000-row import, scripts/bench-offline-import.ts).
  const receiptsJson = JSON.stringify(rows.map((row) => ({ number: row.number, donation_id: row.donationId, sequence: row.sequence })));
  await db.execute(sql`
    INSERT INTO receipts (number, donation_id, year, sequence)
    SELECT r.number, r.donation_id, ${counter.year}::integer, r.sequence
    FROM json_to_recordset(${receiptsJson}::json) AS r(number text, donation_id uuid, sequence integer)`);
  const mails = gifts.flatMap((gift) =>
    gift.mailTo === null ? [] : [{ kind: 'receipt' as const, dedupeKey: `receipt:${gift.donationId}`, recipient: gift.mailTo, donationId: gift.donationId }],
  );
  await enqueueMails(db, mails);
  return rows.map((row) => row.number);
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

/**
 * Queues the receipt of a donation again (issue #21, "Resend the receipt"; decision 0086), in `db` (the caller's transaction, with its
 * audit entry): a `receipt_resend` message, rendered and sent as the first receipt is (the PDF attached), to the
 * donation's address as it is NOW (a corrected address included). Each call is a message of its own (its own
 * dedupe key and Message-ID), so a receipt can be sent again as often as staff ask. Resolves with the message's id and
 * recipient, or undefined when the donation has no receipt, its receipt is void (a gift refunded in full) or its donor has
 * no e-mail (the stand-in address of decision 0112: nothing is ever sent to it), so nothing is queued.
 */
export async function enqueueReceiptResend(db: Database, donationId: string): Promise<{ id: string; recipient: string } | undefined> {
  const [donation] = await db
    .select({ email: donations.donorEmail, voidedAt: receipts.voidedAt })
    .from(donations)
    .innerJoin(receipts, eq(receipts.donationId, donations.id))
    .where(eq(donations.id, donationId));
  if (!donation || donation.voidedAt !== null || isNoEmailAddress(donation.email)) return undefined;
  const id = await enqueueMail(db, { kind: 'receipt_resend', dedupeKey: `receipt_resend:${donationId}:${randomUUID()}`, recipient: donation.email, donationId });
  return id === undefined ? undefined : { id, recipient: donation.email };
}
