import { randomUUID } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { donations, webhookEvents, type DonationRefundRow, type DonationStatus } from '../db/schema';
import { voidReceipt } from './receipt-entries';
import { cancelTributeCard } from './tribute-entries';
import { createPendingDonation, type PendingDonation } from './repository';
import { recordDonationEvent } from '../webhooks/record';
import { recordCampaignGoalsReached } from './campaign-goal-entries';
import { refundOfEvent } from './refund-event';

/**
 * The ledger's side of payment intents (spec section 7; issue #11): a donation made through
 * create-payment-intent / confirm-donation is found by its intent, and moves on what the gateway's webhooks
 * say (refunds, disputes). Every move is a conditional UPDATE (`WHERE status IN (...)`) under the database's
 * transition trigger (migration 0005), so events delivered twice or out of order only ever move a donation
 * forward. Amounts in cents.
 */

/** What the intent flows need of a donation. */
export interface IntentDonation {
  id: string;
  status: DonationStatus;
  amountCents: number;
  currency: string;
  donorName: string;
  gatewayTransactionId: string | null;
  declineCode: string | null;
  isTestPayment: boolean;
  /** The period of the recurring plan it is a charge of (0 the first gift, 1... a renewal; issue #13); null for a one-time gift. */
  recurringPeriod: number | null;
  /** Cents of amountCents that cover the card fee (issue #23). */
  feeCoveredCents: number;
}

const intentDonationColumns = {
  id: donations.id,
  status: donations.status,
  amountCents: donations.amountCents,
  currency: donations.currency,
  donorName: donations.donorName,
  gatewayTransactionId: donations.gatewayTransactionId,
  declineCode: donations.declineCode,
  isTestPayment: donations.isTestPayment,
  recurringPeriod: donations.recurringPeriod,
  feeCoveredCents: donations.feeCoveredCents,
};

/** The donation of a payment intent, or undefined when none was recorded for it. */
export async function findDonationByPaymentIntent(db: Database, paymentIntentId: string): Promise<IntentDonation | undefined> {
  const [row] = await db.select(intentDonationColumns).from(donations).where(eq(donations.paymentIntentId, paymentIntentId));
  return row;
}

/**
 * The donation of `donation.paymentIntentId`: the one already recorded for that intent, or a new `pending`
 * one (card unknown) written now. One donation per intent (a unique constraint): two requests at once find
 * the same row. Resolves with it.
 */
export async function findOrCreateIntentDonation(
  db: Database,
  donation: PendingDonation & { paymentIntentId: string },
): Promise<IntentDonation> {
  const existing = await findDonationByPaymentIntent(db, donation.paymentIntentId);
  if (existing) return existing;
  try {
    await createPendingDonation(db, donation, randomUUID());
  } catch (error) {
    // NOTE: lost a race for the intent's unique constraint: the other request's row is the donation.
    const raced = await findDonationByPaymentIntent(db, donation.paymentIntentId);
    if (raced) return raced;
    throw error;
  }
  const created = await findDonationByPaymentIntent(db, donation.paymentIntentId);
  if (!created) throw new Error(`The donation of payment intent ${donation.paymentIntentId} was written but cannot be read`);
  return created;
}

/**
 * Moves a donation to `refunded` (a full refund of its charge, from `pending`, `succeeded` or `disputed`: a
 * refund that arrives before the success still leaves it refunded), all of its amount refunded (`refunded_cents`;
 * issue #14), keeping the charge's id, and voids its receipt with a notice to the donor (issue #12: "a refund voids
 * the receipt and sends a notice"), and cancels a dedicated gift's card not yet sent (issue #23; cancelTributeCard), in `db`, the caller's transaction. Used by the webhook (a refund made in Stripe's
 * Dashboard) and by an operator's refund of what was left (admin/refund.ts). Records the `donation.refunded` webhook
 * event (issue #38) with `refund` (the settled refund that completed it, from refund-ledger.ts) or, without one, what
 * was left to refund. Resolves with whether it moved (false when it was refunded already, failed, or unknown).
 */
export async function markDonationRefunded(
  db: Database,
  donationId: string,
  transactionId: string,
  refund?: Pick<DonationRefundRow, 'id' | 'amountCents'>,
): Promise<boolean> {
  // NOTE: what was refunded before, for the webhook event of a full refund the gateway reported without a refund row.
  const [before] = refund ? [] : await db.select({ refundedCents: donations.refundedCents }).from(donations).where(eq(donations.id, donationId));
  const moved = await db
    .update(donations)
    .set({
      status: 'refunded',
      refundedCents: sql`${donations.amountCents}`,
      gatewayTransactionId: sql`coalesce(${donations.gatewayTransactionId}, ${transactionId})`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(donations.id, donationId), inArray(donations.status, ['pending', 'succeeded', 'disputed'])))
    .returning({ id: donations.id });
  if (moved.length !== 1) return false;
  await voidReceipt(db, donationId);
  await cancelTributeCard(db, donationId);
  // Issue #38: the full refund is told to the charity's other systems in the same transaction (decision 0106).
  const [after] = await db.select({ amountCents: donations.amountCents }).from(donations).where(eq(donations.id, donationId));
  const ofEvent = refund ?? { id: null, amountCents: (after?.amountCents ?? 0) - (before?.refundedCents ?? 0) };
  await recordDonationEvent(db, 'donation.refunded', donationId, { refund: refundOfEvent(ofEvent, true) });
  return true;
}

/**
 * Records a dispute (chargeback) of a donation's charge: `disputed` with Stripe's dispute status, from
 * `pending` or `succeeded`; a dispute already recorded only has its status updated. Resolves with whether it changed.
 */
export async function markDonationDisputed(db: Database, donationId: string, transactionId: string, disputeStatus: string): Promise<boolean> {
  const moved = await db
    .update(donations)
    .set({
      status: 'disputed',
      disputeStatus,
      gatewayTransactionId: sql`coalesce(${donations.gatewayTransactionId}, ${transactionId})`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(donations.id, donationId), inArray(donations.status, ['pending', 'succeeded', 'disputed'])))
    .returning({ id: donations.id });
  if (moved.length !== 1) return false;
  // Issue #38: a dispute opened (or its status changed) is told to the charity's other systems.
  await recordDonationEvent(db, 'donation.disputed', donationId, { disputeStatus });
  return true;
}

/**
 * Records the close of a dispute: won, the gift stands (`succeeded` again); lost, it stays `disputed` with
 * the status `lost` (the money went back to the donor). Only a donation that is `disputed` changes.
 */
export async function closeDonationDispute(db: Database, donationId: string, disputeStatus: string): Promise<boolean> {
  const moved = await db
    .update(donations)
    .set({ status: disputeStatus === 'won' ? 'succeeded' : 'disputed', disputeStatus, updatedAt: sql`now()` })
    .where(and(eq(donations.id, donationId), eq(donations.status, 'disputed')))
    .returning({ id: donations.id });
  if (moved.length !== 1) return false;
  await recordDonationEvent(db, 'donation.disputed', donationId, { disputeStatus });
  // A dispute won counts the gift again: it may be the one that makes its campaign reach its goal (decision 0113).
  if (disputeStatus === 'won') await recordCampaignGoalsReached(db, [donationId]);
  return true;
}

/**
 * Records that webhook event `id` is being processed, in the caller's transaction (issue #11: "Each event id is
 * processed once (a unique constraint, in the same transaction as its effect)"). Resolves false when it was
 * processed already (then the caller does nothing).
 */
export async function claimWebhookEvent(db: Database, event: { id: string; type: string; gateway: string }): Promise<boolean> {
  const inserted = await db.insert(webhookEvents).values(event).onConflictDoNothing().returning({ id: webhookEvents.id });
  return inserted.length === 1;
}
