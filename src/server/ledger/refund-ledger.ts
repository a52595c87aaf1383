import { and, asc, eq, lt, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { adminAuditLog, donationRefunds, donations, type DonationRefundRow, type DonationStatus, type RefundAuditEntry } from '../db/schema';
import { markDonationRefunded } from './intent-ledger';
import { keptAmountCents } from './kept-amount';
import { enqueuePartialRefundNotice } from './receipt-entries';
import { recordDonationEvent } from '../webhooks/record';
import { refundOfEvent } from './refund-event';

/**
 * The ledger's side of refunds (issue #14; decision 0058; issue #32, decision 0095): a refund asked of the gateway is
 * written `pending` (with its gateway idempotency key) and committed BEFORE the gateway is asked, then settled once
 * the gateway answers (by the request, the reconciler or the gateway's webhook, whichever comes first, exactly once):
 * `succeeded` adds its amount to the donation's `refunded_cents`, moves the status, voids or corrects the receipt,
 * tells the donor and writes the staff member's audit entry, all in the settlement's transaction; `failed` changes
 * nothing else. Amounts in integer cents.
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

/** A donation's refund state after a refund: its status, amount and what was refunded of it, in cents. */
export interface RefundedDonation {
  id: string;
  status: DonationStatus;
  amountCents: number;
  refundedCents: number;
}

/**
 * Moves the donation of `refund`, a refund just settled `succeeded`, in `tx`: adds its amount to
 * `donations.refunded_cents`; when nothing is left, the donation moves to `refunded` and its receipt is voided with the
 * void notice (markDonationRefunded, as a full refund from the webhook); otherwise the gift stands for the rest and the
 * partial refund's notice is queued (enqueuePartialRefundNotice); either way the `donation.refunded` webhook event is
 * recorded (issue #38). Throws when the amount is more than what is left
 * (donations_refunded_cents_check).
 */
async function countRefund(tx: Database, refund: Pick<DonationRefundRow, 'id' | 'donationId' | 'amountCents'>): Promise<void> {
  const [donation] = await tx
    .update(donations)
    .set({ refundedCents: sql`${donations.refundedCents} + ${refund.amountCents}`, updatedAt: sql`now()` })
    .where(eq(donations.id, refund.donationId))
    .returning({ amountCents: donations.amountCents, refundedCents: donations.refundedCents, transactionId: donations.gatewayTransactionId });
  if (!donation) throw new Error(`Donation ${refund.donationId} does not exist`);
  if (donation.refundedCents === donation.amountCents) {
    await markDonationRefunded(tx, refund.donationId, donation.transactionId ?? '', refund);
  } else {
    await enqueuePartialRefundNotice(tx, refund);
    // Issue #38: a partial refund is told to the charity's other systems at its settlement, in its transaction.
    await recordDonationEvent(tx, 'donation.refunded', refund.donationId, { refund: refundOfEvent(refund, false) });
  }
}

/**
 * Records `refund`, settled already (a refund the gateway reported), in `tx`, the caller's transaction, which holds the
 * donation's row locked (FOR UPDATE): writes its `succeeded` donation_refunds row and counts it (refunded_cents, the
 * status, the receipt, the donor's notice). Resolves with the row. Throws (rolling the transaction back) when the
 * amount is more than what is left (donations_refunded_cents_check) or the gateway refund or idempotency key was
 * recorded before (unique constraints).
 */
export async function recordRefund(tx: Database, refund: RefundToRecord): Promise<DonationRefundRow> {
  const [row] = await tx
    .insert(donationRefunds)
    .values({ ...refund, status: 'succeeded', settledAt: sql`now()` })
    .returning();
  if (!row) throw new Error(`The refund ${refund.gatewayRefundId} was not recorded`);
  await countRefund(tx, row);
  return row;
}

/** A refund about to be asked of the gateway: of which donation, how much (cents), under which keys, audited as whom. */
export interface RefundToOpen {
  donationId: string;
  amountCents: number;
  gateway: string;
  /** The caller's Idempotency-Key (one refund per key). */
  idempotencyKey: string;
  /** The key the gateway is asked under (admin/refund.ts gatewayRefundKey), by which the reconciler finds the refund. */
  gatewayIdempotencyKey: string;
  /** The staff member's audit entry, written at settlement; undefined for the operator's refunds (audited by the admin hook). */
  auditEntry?: RefundAuditEntry;
}

/**
 * Writes `refund` as a `pending` donation_refunds row in `tx` (the caller's transaction, which holds the donation's
 * row locked and must commit before the gateway is asked: decision 0095). Resolves with the row. Throws when the
 * Idempotency-Key or the gateway key was used before (unique constraints) or the database fails.
 */
export async function openPendingRefund(tx: Database, refund: RefundToOpen): Promise<DonationRefundRow> {
  const [row] = await tx
    .insert(donationRefunds)
    .values({ ...refund, status: 'pending' })
    .returning();
  if (!row) throw new Error(`The refund of donation ${refund.donationId} was not opened`);
  return row;
}

/**
 * Cents of `donationId`'s refunds still `pending` (asked of the gateway, not settled): they count against what is left
 * to refund, never as refunded money. Read in the caller's transaction, which holds the donation's row locked.
 */
export async function pendingRefundCents(tx: Database, donationId: string): Promise<number> {
  const [row] = await tx
    .select({ cents: sql<number>`coalesce(sum(${donationRefunds.amountCents}), 0)`.mapWith(Number) })
    .from(donationRefunds)
    .where(and(eq(donationRefunds.donationId, donationId), eq(donationRefunds.status, 'pending')));
  return row?.cents ?? 0;
}

/**
 * What the gateway said of a pending refund: it made it (`succeeded`, with its refund id and amount in cents), or
 * refused it, made one that failed, or has none under its key (`failed`, with its code and message; the refund id when
 * it made one that failed).
 */
export type RefundSettlement =
  | { status: 'succeeded'; gatewayRefundId: string; amountCents: number }
  | { status: 'failed'; failureCode: string; failureMessage: string; gatewayRefundId?: string };

/**
 * What a refund the gateway made (payments/gateway.ts Refund: its id, amount in cents and Stripe's status) settles its
 * pending row with: `failed` when its status is `failed` or `canceled` (it gave nothing back), else `succeeded`.
 */
export function settlementOf(refund: { refundId: string; amountCents: number; status: string }): RefundSettlement {
  if (refund.status === 'failed' || refund.status === 'canceled') {
    return { status: 'failed', failureCode: `refund_${refund.status}`, failureMessage: `The refund ${refund.refundId} ${refund.status}.`, gatewayRefundId: refund.refundId };
  }
  return { status: 'succeeded', gatewayRefundId: refund.refundId, amountCents: refund.amountCents };
}

/** A settled refund: its row, the donation after it, and whether this call settled it (false: settled before). */
export interface SettledRefund {
  refund: DonationRefundRow;
  donation: RefundedDonation;
  settledNow: boolean;
}

/**
 * Settles the refund row `refund` (pending, or settled before) with `settlement` in `tx`, the caller's transaction,
 * which holds the donation's row locked (FOR UPDATE): once only, since the row is locked and re-read here (a row settled
 * before is left as it is: `settledNow` false). `succeeded` moves the row, counts it (countRefund) unless the gateway's
 * full refund (Stripe's `charge.refunded`) moved the gift to `refunded` already, and writes its staff audit entry;
 * `failed` moves the row only. Resolves with the row, the donation after it and `settledNow`.
 */
async function settleLocked(tx: Database, refundId: string, settlement: RefundSettlement): Promise<SettledRefund> {
  const [row] = await tx.select().from(donationRefunds).where(eq(donationRefunds.id, refundId)).for('update');
  if (!row) throw new Error(`Refund ${refundId} does not exist`);
  let settled = row;
  if (row.status === 'pending') {
    const [moved] = await tx
      .update(donationRefunds)
      .set(
        settlement.status === 'succeeded'
          ? { status: 'succeeded', gatewayRefundId: settlement.gatewayRefundId, amountCents: settlement.amountCents, settledAt: sql`now()` }
          : { status: 'failed', failureCode: settlement.failureCode, failureMessage: settlement.failureMessage, gatewayRefundId: settlement.gatewayRefundId ?? null, settledAt: sql`now()` },
      )
      .where(eq(donationRefunds.id, refundId))
      .returning();
    if (!moved) throw new Error(`Refund ${refundId} was not settled`);
    settled = moved;
    if (moved.status === 'succeeded') {
      const [donation] = await tx.select({ status: donations.status }).from(donations).where(eq(donations.id, moved.donationId));
      // NOTE: the full refund's charge.refunded came first and moved the gift to refunded (refunded_cents, receipt, notice):
      // the refund's row is settled without counting it twice, as recordReportedRefund does.
      if (donation?.status !== 'refunded') await countRefund(tx, moved);
      if (moved.auditEntry) {
        const { details, ...entry } = moved.auditEntry;
        await tx.insert(adminAuditLog).values({
          ...entry,
          actorType: 'staff',
          details: { ...details, amountCents: moved.amountCents, refundId: moved.id, gatewayRefundId: moved.gatewayRefundId },
        });
      }
    }
  }
  const [donation] = await tx
    .select({ id: donations.id, status: donations.status, amountCents: donations.amountCents, refundedCents: donations.refundedCents })
    .from(donations)
    .where(eq(donations.id, settled.donationId));
  if (!donation) throw new Error(`Donation ${settled.donationId} does not exist`);
  return { refund: settled, donation, settledNow: row.status === 'pending' };
}

/**
 * Settles the pending refund `refundId` with what the gateway said of it (decision 0095), in its own transaction:
 * locks its donation's row (FOR UPDATE, as every move of the donation), then settles it once (settleLocked). Called by
 * the request once the gateway answered, and by the reconciler for a refund left pending; whichever comes second (or
 * the gateway's webhook, recordReportedRefund) finds it settled and changes nothing. Resolves with the settled refund.
 * Rejects when the database fails: the refund stays pending, for the reconciler.
 */
export async function settleRefund(db: Database, refundId: string, settlement: RefundSettlement): Promise<SettledRefund> {
  return db.transaction(async (tx) => {
    const donationOfRefund = tx.select({ id: donationRefunds.donationId }).from(donationRefunds).where(eq(donationRefunds.id, refundId));
    await tx.select({ id: donations.id }).from(donations).where(sql`${donations.id} = (${donationOfRefund})`).for('update');
    return settleLocked(tx, refundId, settlement);
  });
}

/** A refund left pending: its row and the charge it refunds (the donation's gateway transaction id). */
export interface StalePendingRefund {
  refund: DonationRefundRow;
  transactionId: string | null;
}

/**
 * The refunds `pending` for more than `olderThanMs` (database clock), oldest first, at most `limit`, with their
 * donation's charge: their request died or lost the gateway's answer or could not record it, and no request is still
 * asking the gateway about them (PENDING_TIMEOUT_MS exceeds GATEWAY_TIMEOUT_MS).
 */
export async function listStalePendingRefunds(db: Database, olderThanMs: number, limit: number): Promise<StalePendingRefund[]> {
  return db
    .select({ refund: donationRefunds, transactionId: donations.gatewayTransactionId })
    .from(donationRefunds)
    .innerJoin(donations, eq(donations.id, donationRefunds.donationId))
    .where(and(eq(donationRefunds.status, 'pending'), lt(donationRefunds.createdAt, sql`now() - make_interval(secs => ${olderThanMs / 1000})`)))
    .orderBy(asc(donationRefunds.createdAt))
    .limit(limit);
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
 * What became of a reported refund: `recorded` now (a new row, or our pending refund settled by it); `known` (recorded
 * before, by the refund route, the reconciler or an earlier delivery); or `not_applicable`, because the donation is not
 * a succeeded gift (disputed, never charged) or the amount is more than what is left of it. A gift already refunded in
 * full by its `charge.refunded` gets the refund's row only (nothing else changes).
 */
export type ReportedRefundOutcome = 'recorded' | 'known' | 'not_applicable';

/**
 * Records a refund the gateway reported (decision 0058, addendum: a refund made in Stripe's Dashboard, all or part of
 * a gift), in `tx`, the caller's transaction: locks the donation's row first (FOR UPDATE), so a settlement of it under
 * way finishes first and this finds it `known`. A refund made through our routes (the operator's key kept at the
 * gateway) whose row is still `pending` (its request has not settled it yet, or died) is settled by this report, once
 * (decision 0095). Any other is recorded as the route does (recordRefund: refunded_cents, the status, the receipt, the
 * donor's notice) under the operator's key when the gateway kept one that no other refund holds, else under
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
  // NOTE: under the operator's key when the refund was made through our route: its pending row is settled by this report
  // (the request or the reconciler then finds it settled); a row of that key already settled leaves this one its own key.
  const [keyTaken] = operatorKey
    ? await tx
        .select({ id: donationRefunds.id, status: donationRefunds.status, donationId: donationRefunds.donationId })
        .from(donationRefunds)
        .where(eq(donationRefunds.idempotencyKey, operatorKey))
    : [];
  if (keyTaken?.status === 'pending' && keyTaken.donationId === refund.donationId) {
    await settleLocked(tx, keyTaken.id, { status: 'succeeded', gatewayRefundId: refund.gatewayRefundId, amountCents: refund.amountCents });
    return 'recorded';
  }
  const row = { ...reported, idempotencyKey: operatorKey && !keyTaken ? operatorKey : reportedRefundKey(refund.gateway, refund.gatewayRefundId) };
  if (donation.status === 'refunded') {
    // NOTE: the full refund's charge.refunded came first and moved the gift to refunded (refunded_cents, receipt, notice):
    // the refund itself is still written, without counting it twice, so the gift's refunds add up to what it says.
    const [recorded] = await tx
      .select({ cents: sql<number>`coalesce(sum(${donationRefunds.amountCents}), 0)`.mapWith(Number) })
      .from(donationRefunds)
      .where(and(eq(donationRefunds.donationId, refund.donationId), eq(donationRefunds.status, 'succeeded')));
    if ((recorded?.cents ?? 0) + refund.amountCents > donation.amountCents) return 'not_applicable';
    await tx.insert(donationRefunds).values({ ...row, status: 'succeeded', settledAt: sql`now()` });
    return 'recorded';
  }
  if (donation.status !== 'succeeded' || refund.amountCents > keptAmountCents(donation)) return 'not_applicable';
  await recordRefund(tx, row);
  return 'recorded';
}
