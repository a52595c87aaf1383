import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client';
import type { PaymentEvent, PaymentEventSource } from '../payments/gateway-events';
import type { PaymentGateway, PaymentIntent } from '../payments/gateway';
import { ABANDONED_DECLINE_CODE, ABANDONED_MESSAGE, declinedAnswer, succeededAnswer } from '../ledger/answers';
import {
  claimWebhookEvent,
  closeDonationDispute,
  findDonationByPaymentIntent,
  markDonationDisputed,
  markDonationRefunded,
  type IntentDonation,
} from '../ledger/intent-ledger';
import { logConfirmedRenewal } from '../recurring/awaiting-payment';
import { recordConfirmedRenewal } from '../recurring/confirmed-renewal';
import { markSucceededAndStartPlan } from '../recurring/first-payment';
import { recordReportedRefund } from '../ledger/refund-ledger';
import { DonationTransitionError, markDonationFailed } from '../ledger/repository';

/** What became of an event: applied, a duplicate (processed before), about no donation we know, or nothing to do. */
export type PaymentEventOutcome = 'applied' | 'duplicate' | 'no_donation' | 'unchanged';

/** What {@link applyPaymentEvent} needs. */
export interface PaymentEventDeps {
  db: Database;
  gateway: PaymentGateway;
  log: FastifyBaseLogger;
}

/** Runs `move`; a donation that cannot make that move (an older event, arriving late) is left as it is. */
async function forwardOnly(move: () => Promise<unknown>): Promise<boolean> {
  try {
    return (await move()) !== false;
  } catch (error) {
    if (error instanceof DonationTransitionError) return false;
    throw error;
  }
}

/**
 * The effect of `event` on `donation`, in the caller's transaction (`gateway` names the gateway that sent it; `log`
 * the request's logger); true when the donation changed.
 */
async function effect(
  tx: Database,
  donation: IntentDonation,
  event: PaymentEvent,
  intent: PaymentIntent | undefined,
  gateway: string,
  log: FastifyBaseLogger,
): Promise<boolean> {
  switch (event.kind) {
    case 'payment_succeeded': {
      if (!intent?.charge) return false;
      // NOTE: a renewal its donor confirmed on the manage page (authentication_required; decision 0046) is recorded
      // once, with its plan's next period, whichever of this event and the page's POST comes first.
      if (donation.recurringPeriod !== null && donation.recurringPeriod > 0) {
        const recorded = await recordConfirmedRenewal(tx, donation.id, intent);
        logConfirmedRenewal(log, { donationId: donation.id, paymentIntentId: intent.id, outcome: recorded, by: 'webhook' });
        return recorded === 'recorded';
      }
      const outcome = { ...intent.charge, isTestPayment: intent.isTestPayment };
      const answer = succeededAnswer({ ...donation, ...outcome });
      // NOTE: a recurring gift whose browser never came back still gets its plan (issue #13), with the card the intent saved.
      const plan = { saved: intent.savedPaymentMethod, gateway, now: new Date() };
      return forwardOnly(() => markSucceededAndStartPlan(tx, donation.id, outcome, answer, plan, ['pending', 'failed']));
    }
    case 'payment_failed':
      return forwardOnly(() => markDonationFailed(tx, donation.id, event, declinedAnswer(event.message, event.declineCode)));
    case 'payment_canceled':
      return forwardOnly(() => markDonationFailed(tx, donation.id, { declineCode: ABANDONED_DECLINE_CODE }, declinedAnswer(ABANDONED_MESSAGE, ABANDONED_DECLINE_CODE)));
    case 'charge_refunded':
      // NOTE: a partial refund is recorded by its own event, refund_created (the operator's route records its own too).
      return event.fullyRefunded ? markDonationRefunded(tx, donation.id, event.transactionId) : false;
    case 'refund_created': {
      // NOTE: a refund that failed or was canceled gave nothing back (Stripe's refund statuses).
      if (event.refundStatus === 'failed' || event.refundStatus === 'canceled') return false;
      const refund = { donationId: donation.id, amountCents: event.amountCents, gateway, gatewayRefundId: event.gatewayRefundId, operatorKey: event.operatorKey };
      return (await recordReportedRefund(tx, refund)) === 'recorded';
    }
    case 'dispute_opened':
      return markDonationDisputed(tx, donation.id, event.transactionId, event.disputeStatus);
    case 'dispute_closed':
      return closeDonationDispute(tx, donation.id, event.disputeStatus);
    case 'payment_processing':
    case 'ignored':
      return false;
  }
}

/**
 * Applies one webhook event to the ledger (issue #11): in ONE transaction, the event id is claimed in
 * `webhook_events` (a second delivery is a `duplicate` and changes nothing) and its effect is written, so an
 * effect is never applied twice nor lost. Events may arrive out of order: every move is forward only
 * (a success after a refund leaves the donation refunded; a failure after a success is ignored).
 * `payment_succeeded` retrieves the intent from the gateway first (for the charge's id, card brand and last4).
 * An intent with no donation recorded (its browser sent no donor details) is logged and claimed.
 * Rejects when the gateway or the database fails: nothing is claimed, and the gateway delivers the event again.
 */
export async function applyPaymentEvent(deps: PaymentEventDeps, source: PaymentEventSource, event: PaymentEvent): Promise<PaymentEventOutcome> {
  const intent = event.kind === 'payment_succeeded' ? await deps.gateway.retrievePaymentIntent(event.paymentIntentId) : undefined;
  const outcome = await deps.db.transaction(async (tx): Promise<PaymentEventOutcome> => {
    if (!(await claimWebhookEvent(tx, { id: source.eventId, type: source.type, gateway: source.gateway }))) return 'duplicate';
    if (event.kind === 'ignored') return 'unchanged';
    const donation = await findDonationByPaymentIntent(tx, event.paymentIntentId);
    if (!donation) return 'no_donation';
    return (await effect(tx, donation, event, intent, deps.gateway.name, deps.log)) ? 'applied' : 'unchanged';
  });
  const paymentIntentId = event.kind === 'ignored' ? undefined : event.paymentIntentId;
  const level = outcome === 'no_donation' ? 'warn' : 'info';
  deps.log[level]({ webhook: { ...source, kind: event.kind, paymentIntentId, outcome } }, 'Payment event processed');
  return outcome;
}
