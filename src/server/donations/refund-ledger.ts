import { eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { donationRefunds, donations, type DonationRefundRow } from '../db/schema';
import { enqueuePartialRefundNotice } from '../receipts/repository';
import { markDonationRefunded } from './intent-ledger';

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
  /** The operator's Idempotency-Key the refund was asked with. */
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
