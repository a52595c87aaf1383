import type { FastifyBaseLogger } from 'fastify';
import { and, desc, eq, gt, isNotNull } from 'drizzle-orm';
import { centsToDollars } from '../../shared/money';
import type { PaymentToConfirm } from '../../shared/recurring-api';
import type { Database } from '../db/client';
import { donations, type RecurringPlanRow } from '../db/schema';
import type { PaymentGateway, PaymentIntentStatus } from '../payments/gateway';
import { recordConfirmedRenewal } from './confirmed-renewal';
import { latestTryOf } from './plans';

/**
 * The renewal a donor's bank wants authenticated (issue #13, Stripe mode): the off-session try declined
 * `authentication_required` keeps its payment intent (`donations.payment_intent_id` of that failed try), which the
 * donor confirms on the manage page (https://docs.stripe.com/payments/save-and-reuse: "bring the customer back
 * on-session"). Before anything else could pay the same period (the billing runner's retry) or once the plan leaves it
 * (the donor resumes or cancels), that intent is settled: recorded when it was paid, cancelled at the gateway when it
 * was not, so it and a new charge can never both take the period's money. Decision 0046.
 */

/** What {@link settleAwaitingPayment} and {@link paymentToConfirmOf} need. */
export interface AwaitingPaymentDeps {
  db: Database;
  gateway: PaymentGateway;
  log: FastifyBaseLogger;
}

/** Statuses of an intent that waits for the donor (Stripe's: a card to confirm, 3-D Secure, a confirmation). */
const AWAITING_DONOR: readonly PaymentIntentStatus[] = ['requires_payment_method', 'requires_action', 'requires_confirmation'];

/** Plan statuses whose manage page offers the confirmation: the period is still being collected (not cancelled). */
const CONFIRMABLE_PLAN_STATUSES: readonly RecurringPlanRow['status'][] = ['past_due', 'paused'];

/** A try of a renewal that holds a payment intent. */
interface IntentTry {
  donationId: string;
  paymentIntentId: string;
}

/**
 * Keeps, on the failed try `donationId` (in `db`, the transaction that records the decline), the payment intent its
 * donor's bank wants authenticated, so the manage page can offer it and the runner settle it before a retry.
 */
export async function keepIntentAwaitingDonor(db: Database, donationId: string, paymentIntentId: string): Promise<void> {
  await db.update(donations).set({ paymentIntentId }).where(eq(donations.id, donationId));
}

/**
 * The latest try of `planId`'s `period` (below attempt `beforeAttempt` when given) when it failed holding a payment
 * intent; undefined otherwise. NOTE: only the latest try counts: an earlier one's intent was settled before it.
 */
async function awaitingTryOf(db: Database, planId: string, period: number, beforeAttempt?: number): Promise<IntentTry | undefined> {
  const latest = await latestTryOf(db, planId, period, beforeAttempt);
  if (latest?.status !== 'failed' || !latest.paymentIntentId) return undefined;
  return { donationId: latest.donationId, paymentIntentId: latest.paymentIntentId };
}

/**
 * The renewal of `plan`'s current period that waits for its donor, as the manage page offers it (PaymentToConfirm:
 * the intent's client secret and amount in dollars, the plan's saved card, the period's date), asked of the gateway
 * while the plan is past due or paused; null otherwise, or when the gateway cannot be asked now (logged; the page
 * then shows the plan without the step). Changes nothing.
 */
export async function paymentToConfirmOf({ db, gateway, log }: AwaitingPaymentDeps, plan: RecurringPlanRow): Promise<PaymentToConfirm | null> {
  if (!CONFIRMABLE_PLAN_STATUSES.includes(plan.status)) return null;
  const awaiting = await awaitingTryOf(db, plan.id, plan.period);
  if (!awaiting) return null;
  try {
    const intent = await gateway.retrievePaymentIntent(awaiting.paymentIntentId);
    if (!intent || !AWAITING_DONOR.includes(intent.status)) return null;
    return { clientSecret: intent.clientSecret, amount: centsToDollars(intent.amountCents), paymentMethodId: plan.paymentMethodId, dueOn: plan.nextChargeOn };
  } catch (error) {
    log.warn({ err: error, renewal: { planId: plan.id, paymentIntentId: awaiting.paymentIntentId } }, 'Renewal awaiting the donor not shown: the gateway could not be asked');
    return null;
  }
}

/**
 * What became of the payment a period's try left waiting for the donor: there was none (or the gateway does not know
 * it), it is cancelled now (`released`), it was paid and is recorded now or was already (see recordConfirmedRenewal),
 * or it is being paid (`in_flight`: processing, or cancelled by nobody because the gateway answered otherwise).
 */
export type AwaitingPaymentOutcome = 'none' | 'released' | 'recorded' | 'already_recorded' | 'in_flight';

/**
 * Settles the payment the latest try of `planId`'s `period` (below attempt `beforeAttempt` when given) left waiting
 * for the donor: retrieves the intent from the gateway; paid -> recorded (recordConfirmedRenewal); waiting for the
 * donor -> cancelled at the gateway, and whatever the gateway then says of it is acted on (a donor who paid just
 * before the cancel is recorded); processing -> left alone. After `none` or `released`, nothing else can pay the
 * period through that intent. Rejects when the gateway or the database fails (the caller tries again later).
 */
export async function settleAwaitingPayment(
  { db, gateway, log }: AwaitingPaymentDeps,
  planId: string,
  period: number,
  beforeAttempt?: number,
): Promise<AwaitingPaymentOutcome> {
  const awaiting = await awaitingTryOf(db, planId, period, beforeAttempt);
  if (!awaiting) return 'none';
  let intent = await gateway.retrievePaymentIntent(awaiting.paymentIntentId);
  if (intent && AWAITING_DONOR.includes(intent.status)) intent = await gateway.cancelPaymentIntent(awaiting.paymentIntentId);
  const about = { planId, period, donationId: awaiting.donationId, paymentIntentId: awaiting.paymentIntentId, status: intent?.status };
  if (!intent || intent.status === 'canceled') {
    log.info({ renewal: about }, 'Renewal awaiting the donor released');
    return intent ? 'released' : 'none';
  }
  if (intent.status !== 'succeeded') return 'in_flight';
  const recorded = await recordConfirmedRenewal(db, awaiting.donationId, intent);
  logConfirmedRenewal(log, { ...about, outcome: recorded, by: 'settle' });
  if (recorded === 'recorded' || recorded === 'already_recorded') return recorded;
  return 'in_flight';
}

/**
 * Logs the outcome of a renewal confirmed by its donor: `period_charged` (two payments of one period: an operator
 * must refund one) at error level, the rest at info. Never logs the client secret.
 */
export function logConfirmedRenewal(log: FastifyBaseLogger, renewal: Record<string, unknown> & { outcome: string }): void {
  if (renewal.outcome === 'period_charged') log.error({ renewal }, 'Renewal confirmed by the donor for a period already charged: refund one of the two charges');
  else log.info({ renewal }, 'Renewal confirmed by the donor');
}

/**
 * The page's POST after Stripe.js confirmed the payment (never trusting the browser): the plan's latest try that kept
 * its payment intent for the donor is retrieved from the gateway, and recorded when it succeeded. Resolves `recorded` when that renewal
 * is recorded (now, or before by the webhook), `not_paid` when the gateway does not say it was paid. Rejects when the
 * gateway or the database fails.
 */
export async function confirmRenewalFromPage({ db, gateway, log }: AwaitingPaymentDeps, plan: RecurringPlanRow): Promise<'recorded' | 'not_paid'> {
  const [latest] = await db
    .select({ donationId: donations.id, paymentIntentId: donations.paymentIntentId, status: donations.status, period: donations.recurringPeriod })
    .from(donations)
    // NOTE: a try that kept its intent for the donor was declined first (its decline code stays once it is paid); a
    // renewal charged off-session keeps its intent too (for Stripe's later events), with no decline code.
    .where(
      and(
        eq(donations.recurringPlanId, plan.id),
        gt(donations.recurringPeriod, 0),
        isNotNull(donations.paymentIntentId),
        isNotNull(donations.declineCode),
      ),
    )
    .orderBy(desc(donations.recurringPeriod), desc(donations.recurringAttempt))
    .limit(1);
  if (!latest?.paymentIntentId) return 'not_paid';
  if (latest.status !== 'failed') return latest.status === 'pending' ? 'not_paid' : 'recorded';
  const intent = await gateway.retrievePaymentIntent(latest.paymentIntentId);
  if (intent?.status !== 'succeeded') return 'not_paid';
  const recorded = await recordConfirmedRenewal(db, latest.donationId, intent);
  logConfirmedRenewal(log, { planId: plan.id, period: latest.period, donationId: latest.donationId, paymentIntentId: intent.id, outcome: recorded, by: 'page' });
  return recorded === 'recorded' || recorded === 'already_recorded' ? 'recorded' : 'not_paid';
}
