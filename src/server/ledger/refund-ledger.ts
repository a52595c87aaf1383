import { eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { donationRefunds, donations, type DonationRefundRow } from '../db/schema';
import { markDonationRefunded } from './intent-ledger';
import { keptAmountCents } from './kept-amount';
import { enqueuePartialRefundNotice } from './receipt-entries';

/**
 * The ledger's side of refunds (issue #14; decision 0058): a refund the gateway made is recorded with its donation's
 * `refunded_cents`, and the donor is told, in one transaction. Amounts in integer cents.
 */

/** A refund the gateway made, to record: of which donation, how much (cents), under which gateway refund and key. */
export interface RefundToRecord {
  donationId: string;
  amountCents: number;
  /** The gateway's name (`test`, `stripe`). */
  gateway: string;
  /** The gateway's refund id (`re_...`). */
  gatewayRefundId: string;
  /** The operator's Idempotency-Key the refund was asked with ({@link reportedRefundKey} for a refund the gateway reported). */
  idempotencyKey: string;
}

/**
 * Records `refund` in `tx`, the caller's transaction, which holds the donation's row locked (FOR UPDATE): writes its
 * donation_refunds row and adds its amount to `donations.refunded_cents`. When nothing is left, the donation moves to
 * `refunded` and its receipt is voided with the void notice (markDonationRefunded, as a full refund from the webhook);
 * otherwise the gift stands for the rest and the partial refund's notice is queued (enqueuePartialRefundNotice).
 * Resolves with the row. Throws (rolling the transaction back) when the amount is more than what is left
 * (donations_refunded_cents_check) or the gateway refund or idempotency key was recorded before (unique constraints).
 */
export async function recordRefund(tx: Database, refund: RefundToRecord): Promise<DonationRefundRow> {
  const [row] = await tx.insert(donationRefunds).values(refund).returning();
  if (!row) throw new Error(`The refund ${refund.gatewayRefundId} was not recorded`);
  const [donation] = await tx
    .update(donations)
    .set({ refundedCents: sql`${donations.refundedCents} + ${refund.amountCents}`, updatedAt: sql`now()` })
    .where(eq(donations.id, refund.donationId))
    .returning({ amountCents: donations.amountCents, refundedCents: donations.refundedCents, transactionId: donations.gatewayTransactionId });
  if (!donation) throw new Error(`Donation ${refund.donationId} does not exist`);
  if (donation.refundedCents === donation.amountCents) {
    await markDonationRefunded(tx, refund.donationId, donation.transactionId ?? '');
  } else {
    await enqueuePartialRefundNotice(tx, row);
  }
  return row;
}

/**
 * A refund the gateway reported by itself (Stripe's `refund.created`): which donation, how much (cents), which refund,
 * and the operator's Idempotency-Key it was made with through our route, when the gateway kept one.
 */
export interface ReportedRefund {
  donationId: string;
  amountCents: number;
  gateway: string;
  gatewayRefundId: string;
  operatorKey?: string;
}

/**
 * The idempotency key a reported refund is recorded under, as no operator asked for it: `<gateway>-refund-<refund id>`,
 * one per gateway refund.
 */
export const reportedRefundKey = (gateway: string, gatewayRefundId: string) => `${gateway}-refund-${gatewayRefundId}`;

/**
 * What became of a reported refund: `recorded` now; `known` (recorded before, by the operator's refund route or an
 * earlier delivery); or `not_applicable`, because the donation is not a succeeded gift (disputed, never charged) or
 * the amount is more than what is left of it. A gift already refunded in full by its `charge.refunded` gets the
 * refund's row only (nothing else changes).
 */
export type ReportedRefundOutcome = 'recorded' | 'known' | 'not_applicable';

/**
 * Records a refund the gateway reported (decision 0058, addendum: a refund made in Stripe's Dashboard, all or part of
 * a gift), in `tx`, the caller's transaction: locks the donation's row first (FOR UPDATE), so an operator's refund of
 * it under way through the route finishes first and this finds it `known`; then records it as the route does
 * (recordRefund: refunded_cents, the status, the receipt, the donor's notice) under the operator's key when the
 * gateway kept one that no other refund holds (a refund made through the route whose answer was lost), else under
 * {@link reportedRefundKey}. Resolves with the outcome; writes nothing unless `recorded`. Rejects when the database fails.
 */
export async function recordReportedRefund(tx: Database, refund: ReportedRefund): Promise<ReportedRefundOutcome> {
  const [donation] = await tx
    .select({ status: donations.status, amountCents: donations.amountCents, refundedCents: donations.refundedCents })
    .from(donations)
    .where(eq(donations.id, refund.donationId))
    .for('update');
  const [known] = await tx.select({ id: donationRefunds.id }).from(donationRefunds).where(eq(donationRefunds.gatewayRefundId, refund.gatewayRefundId));
  if (known) return 'known';
  if (!donation || refund.amountCents <= 0) return 'not_applicable';
  const { operatorKey, ...reported } = refund;
  // NOTE: under the operator's key when the refund was made through our route (its answer was lost, a 503): the
  // operator's retry with that key then finds it and answers it, instead of refusing an amount no longer left.
  const [keyTaken] = operatorKey ? await tx.select({ id: donationRefunds.id }).from(donationRefunds).where(eq(donationRefunds.idempotencyKey, operatorKey)) : [];
  const row = { ...reported, idempotencyKey: operatorKey && !keyTaken ? operatorKey : reportedRefundKey(refund.gateway, refund.gatewayRefundId) };
  if (donation.status === 'refunded') {
    // NOTE: the full refund's charge.refunded came first and moved the gift to refunded (refunded_cents, receipt, notice):
    // the refund itself is still written, without counting it twice, so the gift's refunds add up to what it says.
    const [recorded] = await tx
      .select({ cents: sql<number>`coalesce(sum(${donationRefunds.amountCents}), 0)`.mapWith(Number) })
      .from(donationRefunds)
      .where(eq(donationRefunds.donationId, refund.donationId));
    if ((recorded?.cents ?? 0) + refund.amountCents > donation.amountCents) return 'not_applicable';
    await tx.insert(donationRefunds).values(row);
    return 'recorded';
  }
  if (donation.status !== 'succeeded' || refund.amountCents > keptAmountCents(donation)) return 'not_applicable';
  await recordRefund(tx, row);
  return 'recorded';
}
