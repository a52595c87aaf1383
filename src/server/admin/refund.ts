import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { donationRefunds, donations, type DonationRefundRow, type DonationStatus } from '../db/schema';
import { keptAmountCents } from '../ledger/kept-amount';
import { recordRefund } from '../ledger/refund-ledger';
import { RefundRefusedError, type PaymentGateway } from '../payments/gateway';

/**
 * An operator's refund of a donation (issue #14; decision 0058): all that is left of it or part, through the gateway
 * under an idempotency key, recorded in the ledger in the same transaction that holds the donation's row locked, so
 * two refunds of one donation at once cannot refund more than it, and a repeated Idempotency-Key refunds once.
 * Amounts in integer cents.
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
   * What else to write in the refund's own transaction once a NEW refund is recorded (not for a replay), e.g. the staff
   * member's audit entry (issue #21: "written to the audit log in the same transaction as its effect"); a rejection
   * rolls the refund's records back, as a database failure does.
   */
  alongside?: (tx: Database, refund: DonationRefundRow) => Promise<void>;
}

/** A donation's refund state after a refund: its status, amount and what was refunded of it, in cents. */
export interface RefundedDonation {
  id: string;
  status: DonationStatus;
  amountCents: number;
  refundedCents: number;
}

/** Why a donation cannot be refunded (409): not charged, declined, refunded already, disputed, or another gateway's. */
export type NotRefundableReason = 'pending' | 'failed' | 'refunded' | 'disputed' | 'other_gateway';

/**
 * What became of a refund asked for. `refunded` (new, or `replayed` for a key seen before) with the refund's row and the
 * donation after it; `not_found`; `not_refundable` (nothing done); `amount_too_large` (more than the `remainingCents`
 * left); `key_reused` (the key was used for another donation or amount); `refused` by the gateway (its message and code).
 */
export type RefundOutcome =
  | { kind: 'refunded'; refund: DonationRefundRow; donation: RefundedDonation; replayed: boolean }
  | { kind: 'not_found' }
  | { kind: 'not_refundable'; reason: NotRefundableReason }
  | { kind: 'amount_too_large'; remainingCents: number }
  | { kind: 'key_reused' }
  | { kind: 'refused'; message: string; code: string };

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

/**
 * Refunds `asked` (issue #14). In ONE transaction: takes the Idempotency-Key's advisory lock, locks the donation's
 * row (FOR UPDATE; a second refund of it waits here, then sees this one), answers the recorded refund again for an Idempotency-Key seen before (`replayed`), checks
 * the donation is refundable and the amount is at most what is left, asks the gateway for the refund under
 * {@link gatewayRefundKey} with the operator's key kept at the gateway (so that its webhook, should it report the refund
 * before this request's retry, records it under that key and the retry answers it), and records it (recordRefund:
 * refunded_cents, the status, the receipt, the donor's notice).
 * NOTE: the row stays locked during the gateway call (GATEWAY_TIMEOUT_MS at most), and with it one pooled
 * connection (decision 0058). Resolves with the outcome; nothing is written unless it is `refunded`.
 * Rejects when the gateway's answer is unknown (timeout, network, 5xx) or the database fails: nothing is recorded, and
 * a retry with the same Idempotency-Key reaches the gateway under the same key, so it cannot refund twice.
 */
export async function refundDonation(deps: RefundDeps, asked: RefundAsked): Promise<RefundOutcome> {
  return deps.db.transaction(async (tx): Promise<RefundOutcome> => {
    // NOTE: one request per Idempotency-Key at a time, whatever donation it names: two requests with one key for two
    // donations would each lock their own row, both refund at the gateway, and only one could be recorded.
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
      return sameRequest ? { kind: 'refunded', refund: earlier, donation: state, replayed: true } : { kind: 'key_reused' };
    }

    const reason = notRefundable(donation, deps.gateway.name);
    // NOTE: a succeeded donation always has its charge's id (donations_outcome_check); the second test is for the type.
    if (reason || donation.transactionId === null) return { kind: 'not_refundable', reason: reason ?? 'pending' };
    // What is left to refund is what the gift still counts for.
    const remainingCents = keptAmountCents(donation);
    const amountCents = asked.amountCents ?? remainingCents;
    if (amountCents > remainingCents) return { kind: 'amount_too_large', remainingCents };

    let gatewayRefund;
    try {
      gatewayRefund = await deps.gateway.refund({
        transactionId: donation.transactionId,
        amountCents,
        idempotencyKey: gatewayRefundKey(donation.id, asked.idempotencyKey, amountCents),
        operatorKey: asked.idempotencyKey,
      });
    } catch (error) {
      if (error instanceof RefundRefusedError) return { kind: 'refused', message: error.message, code: error.code };
      throw error;
    }
    if (gatewayRefund.status === 'failed' || gatewayRefund.status === 'canceled') {
      return { kind: 'refused', message: `The refund ${gatewayRefund.refundId} ${gatewayRefund.status}.`, code: `refund_${gatewayRefund.status}` };
    }
    const refund = await recordRefund(tx, {
      donationId: donation.id,
      amountCents: gatewayRefund.amountCents,
      gateway: deps.gateway.name,
      gatewayRefundId: gatewayRefund.refundId,
      idempotencyKey: asked.idempotencyKey,
    });
    await asked.alongside?.(tx, refund);
    const refundedCents = donation.refundedCents + refund.amountCents;
    return {
      kind: 'refunded',
      refund,
      donation: { ...state, refundedCents, status: refundedCents === donation.amountCents ? 'refunded' : donation.status },
      replayed: false,
    };
  });
}
