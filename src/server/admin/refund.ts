import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { donationRefunds, donations, type DonationRefundRow, type DonationStatus, type RefundAuditEntry } from '../db/schema';
import { keptAmountCents } from '../ledger/kept-amount';
import {
  openPendingRefund,
  pendingRefundCents,
  settleRefund,
  settlementOf,
  type RefundedDonation,
  type RefundSettlement,
} from '../ledger/refund-ledger';
import { RefundRefusedError, type PaymentGateway } from '../payments/gateway';

/**
 * An operator's refund of a donation (issue #14; decision 0058), and the staff's (issue #21): all that is left of it or
 * part, through the gateway under an idempotency key. Since issue #32 (decision 0095) in three steps, so that a refund
 * the gateway made is never missing from the ledger: the refund is written `pending` and committed (the donation's row
 * locked meanwhile, so two refunds at once cannot refund more than it: a pending refund counts against what is left),
 * then the gateway is asked, then the refund is settled in a transaction of its own. A refund whose settlement fails
 * (the process dies, the database fails, the gateway's answer is lost) stays pending until the reconciler settles it
 * by asking the gateway. Amounts in integer cents.
 */

/** What the refund works with: the database and the gateway (within GATEWAY_TIMEOUT_MS). */
export interface RefundDeps {
  db: Database;
  gateway: PaymentGateway;
}

/** A refund asked for: the donation, how much (cents; all that is left when undefined), and the operator's Idempotency-Key. */
export interface RefundAsked {
  donationId: string;
  amountCents: number | undefined;
  idempotencyKey: string;
  /**
   * The staff member's audit entry of the refund (issue #21: "written to the audit log in the same transaction as its
   * effect"): kept with the pending refund and written in the transaction that settles it `succeeded`, whoever settles
   * it (ledger/refund-ledger.ts); the refund's amount and ids are added to its details.
   */
  auditEntry?: RefundAuditEntry;
}

/** Why a donation cannot be refunded (409): not charged, declined, refunded already, disputed, or another gateway's. */
export type NotRefundableReason = 'pending' | 'failed' | 'refunded' | 'disputed' | 'other_gateway';

/**
 * What became of a refund asked for. `refunded` (new, or `replayed` for a key seen before) with the refund's row and the
 * donation after it; `not_found`; `not_refundable` (nothing done); `amount_too_large` (more than the `remainingCents`
 * left, pending refunds deducted); `key_reused` (the key was used for another donation or amount); `refused` by the
 * gateway (its message and code; again for a key whose refund was refused); `settling`: the key's refund is pending
 * (its outcome was unknown; the reconciler settles it within PENDING_TIMEOUT_MS and the interval).
 */
export type RefundOutcome =
  | { kind: 'refunded'; refund: DonationRefundRow & { gatewayRefundId: string }; donation: RefundedDonation; replayed: boolean }
  | { kind: 'not_found' }
  | { kind: 'not_refundable'; reason: NotRefundableReason }
  | { kind: 'amount_too_large'; remainingCents: number }
  | { kind: 'key_reused' }
  | { kind: 'refused'; message: string; code: string }
  | { kind: 'settling' };

/**
 * The idempotency key the gateway gets for a refund: derived from the donation, the operator's key and the amount
 * (cents), so a retry of one request (the same key; after a crash, the same amount is still left) reaches the gateway
 * under the same key and refunds once, while the same key sent with another amount cannot replay a different refund.
 * SHA-256 keeps it well under Stripe's 255 characters whatever the operator's key.
 */
export function gatewayRefundKey(donationId: string, idempotencyKey: string, amountCents: number): string {
  const digest = createHash('sha256').update(`${idempotencyKey}\n${amountCents}`, 'utf8').digest('base64url');
  return `refund-${donationId}-${digest}`;
}

/** The status that makes a donation not refundable, or undefined when it is (succeeded, by this gateway, something left). */
function notRefundable(donation: { status: DonationStatus; gateway: string; amountCents: number; refundedCents: number }, gatewayName: string): NotRefundableReason | undefined {
  if (donation.status !== 'succeeded') return donation.status;
  if (donation.gateway !== gatewayName) return 'other_gateway';
  return donation.refundedCents >= donation.amountCents ? 'refunded' : undefined;
}

/** The outcome a settled (or pending) refund row answers: refunded, refused by the gateway, or still settling. */
function outcomeOf(refund: DonationRefundRow, donation: RefundedDonation, replayed: boolean): RefundOutcome {
  switch (refund.status) {
    case 'succeeded': {
      // NOTE: a succeeded refund always has its gateway refund id (donation_refunds_settlement_check); this is for the type.
      const { gatewayRefundId } = refund;
      if (gatewayRefundId === null) throw new Error(`Refund ${refund.id} succeeded without a gateway refund id`);
      return { kind: 'refunded', refund: { ...refund, gatewayRefundId }, donation, replayed };
    }
    case 'failed':
      return { kind: 'refused', message: refund.failureMessage ?? '', code: refund.failureCode ?? 'refund_failed' };
    case 'pending':
      return { kind: 'settling' };
  }
}

/** A refund written pending and committed, ready to be asked of the gateway: its row and the charge it refunds. */
type OpenedRefund = { kind: 'opened'; refund: DonationRefundRow & { gatewayIdempotencyKey: string }; transactionId: string };

/**
 * Step 1 (decision 0095), in ONE transaction that commits before the gateway is asked: takes the Idempotency-Key's
 * advisory lock, locks the donation's row (FOR UPDATE; a second refund of it waits here, then sees this one), answers
 * the key's refund again for an Idempotency-Key seen before (refunded `replayed`, refused, or still `settling`), checks
 * the donation is refundable and the amount at most what is left less the refunds still pending, and writes the refund
 * `pending` under {@link gatewayRefundKey}. Resolves with the opened refund or the outcome to answer at once.
 */
async function openRefund(deps: RefundDeps, asked: RefundAsked): Promise<OpenedRefund | RefundOutcome> {
  return deps.db.transaction(async (tx): Promise<OpenedRefund | RefundOutcome> => {
    // NOTE: one request per Idempotency-Key at a time, whatever donation it names: two requests with one key for two
    // donations would each lock their own row, and both open a refund.
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`refund:${asked.idempotencyKey}`}, 0))`);
    const [donation] = await tx
      .select({
        id: donations.id,
        status: donations.status,
        amountCents: donations.amountCents,
        refundedCents: donations.refundedCents,
        gateway: donations.gateway,
        transactionId: donations.gatewayTransactionId,
      })
      .from(donations)
      .where(eq(donations.id, asked.donationId))
      .for('update');
    if (!donation) return { kind: 'not_found' };
    const state = { id: donation.id, status: donation.status, amountCents: donation.amountCents, refundedCents: donation.refundedCents };

    // NOTE: looked up once the row is locked, so a concurrent request with the same key finds the first one's refund.
    const [earlier] = await tx.select().from(donationRefunds).where(eq(donationRefunds.idempotencyKey, asked.idempotencyKey));
    if (earlier) {
      const sameRequest = earlier.donationId === donation.id && (asked.amountCents === undefined || asked.amountCents === earlier.amountCents);
      return sameRequest ? outcomeOf(earlier, state, true) : { kind: 'key_reused' };
    }

    const reason = notRefundable(donation, deps.gateway.name);
    // NOTE: a succeeded donation always has its charge's id (donations_outcome_check); the second test is for the type.
    if (reason || donation.transactionId === null) return { kind: 'not_refundable', reason: reason ?? 'pending' };
    // What is left to refund is what the gift still counts for, less the refunds still being settled.
    const remainingCents = keptAmountCents(donation) - (await pendingRefundCents(tx, donation.id));
    const amountCents = asked.amountCents ?? remainingCents;
    if (amountCents > remainingCents || amountCents <= 0) return { kind: 'amount_too_large', remainingCents: Math.max(remainingCents, 0) };

    const gatewayIdempotencyKey = gatewayRefundKey(donation.id, asked.idempotencyKey, amountCents);
    const refund = await openPendingRefund(tx, {
      donationId: donation.id,
      amountCents,
      gateway: deps.gateway.name,
      idempotencyKey: asked.idempotencyKey,
      gatewayIdempotencyKey,
      auditEntry: asked.auditEntry,
    });
    return { kind: 'opened', refund: { ...refund, gatewayIdempotencyKey }, transactionId: donation.transactionId };
  });
}

/**
 * Refunds `asked` (issue #14; issue #32, decision 0095): opens the refund pending and commits it (openRefund), asks the
 * gateway for it under its gateway key with the operator's key kept at the gateway (so that its webhook, should it
 * report the refund first, settles this pending row), then settles it in a transaction of its own (settleRefund:
 * `succeeded` counts it, with the receipt, the donor's notice and the staff audit entry; `failed` when the gateway
 * refused it). Resolves with the outcome; nothing is written unless it is `refunded`, `refused` (a failed row) or the
 * refund is opened. Rejects when the gateway's answer is unknown (timeout, network, 5xx) or the database fails after
 * the refund was opened: the refund stays pending, and counts against what is left, until the reconciler settles it
 * by asking the gateway; a retry with the same Idempotency-Key answers `settling` until then, then its outcome.
 */
export async function refundDonation(deps: RefundDeps, asked: RefundAsked): Promise<RefundOutcome> {
  // NOTE: a request repeated while the first is at the gateway (a double click, a client's eager retry) waits for it in
  // this process, then answers its outcome, rather than `settling`; across processes the repeat answers `settling`.
  const before = refundsUnderway.get(asked.idempotencyKey);
  const mine = (async () => {
    await before?.catch(() => undefined);
    return refundOnce(deps, asked);
  })();
  refundsUnderway.set(asked.idempotencyKey, mine);
  try {
    return await mine;
  } finally {
    if (refundsUnderway.get(asked.idempotencyKey) === mine) refundsUnderway.delete(asked.idempotencyKey);
  }
}

/** The refunds this process is making, by Idempotency-Key: the last request of each key (refundDonation). */
const refundsUnderway = new Map<string, Promise<RefundOutcome>>();

/** refundDonation's three steps, for one request: open (commit pending), ask the gateway, settle. */
async function refundOnce(deps: RefundDeps, asked: RefundAsked): Promise<RefundOutcome> {
  const opened = await openRefund(deps, asked);
  if (opened.kind !== 'opened') return opened;
  const { refund: pending, transactionId } = opened;
  let settlement: RefundSettlement;
  try {
    settlement = settlementOf(
      await deps.gateway.refund({ transactionId, amountCents: pending.amountCents, idempotencyKey: pending.gatewayIdempotencyKey, operatorKey: asked.idempotencyKey }),
    );
  } catch (error) {
    if (!(error instanceof RefundRefusedError)) throw error;
    settlement = { status: 'failed', failureCode: error.code, failureMessage: error.message };
  }
  const settled = await settleRefund(deps.db, pending.id, settlement);
  return outcomeOf(settled.refund, settled.donation, false);
}
