import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { donations, mailOutbox, offlineGifts, receipts } from '../db/schema';
import { enqueueMail } from '../mail/outbox';
import { recordDonationEvent } from '../webhooks/record';

/**
 * Voiding a gift received outside the site (issue #37, "Correcting one"; decision 0112): a bounced cheque or a mistyped
 * amount. No gateway and no refund: the donation moves `succeeded` -> `refunded` for all of it (`refunded_cents` =
 * amount, what the life-cycle trigger allows and every figure already reads as "counts nothing"), its offline_gifts row
 * keeps when and why, its receipt is voided, and the donor is told only if the receipt had been sent to her (a receipt
 * still waiting in the outbox is cancelled instead: she never learns of a receipt she never got).
 */

/** What a void did, or why it could not. */
export type OfflineVoidOutcome =
  | { kind: 'voided'; receiptVoided: boolean; donorNotified: boolean; amountCents: number }
  | { kind: 'not_found' }
  | { kind: 'not_offline' }
  | { kind: 'already_voided' };

/**
 * Voids the offline gift `donationId` with `reason` in `tx` (the caller's transaction, with its audit entry), as
 * described above. The rows are locked first (`FOR UPDATE`), so two voids at once void once. Resolves with the outcome;
 * `not_found`, `not_offline` (a site gift: refund it instead) and `already_voided` write nothing.
 */
export async function voidOfflineGift(tx: Database, donationId: string, reason: string): Promise<OfflineVoidOutcome> {
  const [gift] = await tx
    .select({ status: donations.status, amountCents: donations.amountCents, email: donations.donorEmail, paymentMethod: donations.paymentMethod, voidedAt: offlineGifts.voidedAt, offline: offlineGifts.donationId })
    .from(donations)
    .leftJoin(offlineGifts, eq(offlineGifts.donationId, donations.id))
    .where(eq(donations.id, donationId))
    .for('update', { of: donations });
  if (!gift) return { kind: 'not_found' };
  if (gift.offline === null) return { kind: 'not_offline' };
  if (gift.voidedAt !== null || gift.status !== 'succeeded') return { kind: 'already_voided' };
  await tx
    .update(donations)
    .set({ status: 'refunded', refundedCents: gift.amountCents, updatedAt: sql`now()` })
    .where(eq(donations.id, donationId));
  await tx.update(offlineGifts).set({ voidedAt: sql`now()`, voidReason: reason }).where(eq(offlineGifts.donationId, donationId));
  const voided = await tx
    .update(receipts)
    .set({ voidedAt: sql`now()` })
    .where(and(eq(receipts.donationId, donationId), isNull(receipts.voidedAt)))
    .returning({ number: receipts.number });
  // The receipt's e-mail: told of the void if it was sent; cancelled, and nothing said, if it was still waiting.
  const [receiptMail] = await tx
    .select({ id: mailOutbox.id, status: mailOutbox.status })
    .from(mailOutbox)
    .where(and(eq(mailOutbox.donationId, donationId), eq(mailOutbox.kind, 'receipt')));
  let donorNotified = false;
  if (receiptMail?.status === 'pending') {
    await tx.update(mailOutbox).set({ status: 'cancelled' }).where(and(eq(mailOutbox.id, receiptMail.id), eq(mailOutbox.status, 'pending')));
  } else if (receiptMail?.status === 'sent') {
    donorNotified = (await enqueueMail(tx, { kind: 'receipt_void', dedupeKey: `receipt_void:${donationId}`, recipient: gift.email, donationId })) !== undefined;
  }
  // Issue #38: the `donation.voided` event, in this transaction.
  await recordDonationEvent(tx, 'donation.voided', donationId, { reason });
  return { kind: 'voided', receiptVoided: voided.length === 1, donorNotified, amountCents: gift.amountCents };
}
