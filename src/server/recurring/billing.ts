import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { CAUSE_DETAILS } from '../../shared/causes';
import type { Database } from '../db/client';
import { donations, recurringPlans, type RecurringPlanRow } from '../db/schema';
import { declinedAnswer, succeededAnswer } from '../ledger/answers';
import { markDonationFailed, markDonationSucceeded } from '../ledger/repository';
import { enqueueMail } from '../mail/outbox';
import type { PaymentGateway, SavedPaymentMethodChargeResult } from '../payments/gateway';
import { nextDunningStep } from './dunning';
import { BILLING_PLAN_CHANGES, recordPlanChange } from './plan-history';
import { remindExpiringCards, resumeEndedPauses } from './manage';
import { keepIntentAwaitingDonor, settleAwaitingPayment } from './awaiting-payment';
import { BILLING_LEASE_MS, claimDuePlans, nextAttemptOf, paidPeriodChanges, planDonorEmail, settlePlanPeriod, startRenewalTry, type RenewalDonation } from './plans';

/**
 * The billing run (issue #13): claims the plans due, charges each one's saved card off-session, and records the
 * renewal as a donation of the ledger (with its receipt) and the plan's next period, or the decline and the dunning
 * step, in one transaction per plan. A (plan, period, attempt) has one gateway idempotency key and one donation row,
 * and a period at most one donation that is not failed (a unique index), so two runs, a crash or a retry can never
 * charge a period twice; a retry first settles the payment a try left waiting for the donor (decision 0046).
 */

/** What a billing run needs: the database, the gateway, a logger, and DUNNING_RETRY_DAYS. */
export interface BillingDeps {
  db: Database;
  gateway: PaymentGateway;
  log: FastifyBaseLogger;
  /** Days after a period's first decline when it is retried (DUNNING_RETRY_DAYS, default 1, 3, 7). */
  retryDays: readonly number[];
}

/** What one run did: renewals charged, tries declined (or waiting for the donor to authenticate), plans left for later. */
export interface BillingReport {
  /** Renewals charged, or paid by their donor on the manage page and recorded by this run (decision 0046). */
  charged: number;
  failed: number;
  /** Claimed but not charged now: the gateway could not be asked (the lease expires, the next run tries again), another try of the period is under way, or the donor paid it (recorded before, or being paid). */
  skipped: number;
}

/** Plans claimed per query. */
const BATCH_SIZE = 20;

/** The gateway idempotency key of try `attempt` of `period` of a plan: the same for every run that makes that try (issue #13). */
export function renewalIdempotencyKey(planId: string, period: number, attempt: number): string {
  return `renewal-${planId}-period-${period}-attempt-${attempt}`;
}

/**
 * Records a renewal the gateway charged: the donation succeeded (its receipt issued), with the gateway's payment intent
 * when it has one (so a refund or dispute of it made in Stripe's Dashboard finds it), and the plan on its next period
 * (a past-due plan's history row `recovered`: issue #22), in one transaction.
 */
async function recordCharged(db: Database, plan: RecurringPlanRow, donation: RenewalDonation, result: Extract<SavedPaymentMethodChargeResult, { status: 'succeeded' }>) {
  const donor = { amountCents: donation.amountCents, donorName: '', transactionId: result.transactionId, isTestPayment: result.isTestPayment };
  await db.transaction(async (tx) => {
    await markDonationSucceeded(tx, donation.id, result, succeededAnswer(donor));
    if (result.paymentIntentId) await tx.update(donations).set({ paymentIntentId: result.paymentIntentId }).where(eq(donations.id, donation.id));
    // NOTE: the plan as it is now (locked): a card the donor changed during the charge stays the one shown.
    const [current] = await tx.select({ paymentMethodId: recurringPlans.paymentMethodId }).from(recurringPlans).where(eq(recurringPlans.id, plan.id)).for('update');
    const planCard = (donation.paymentMethodId ?? plan.paymentMethodId) === current?.paymentMethodId;
    const settled = await settlePlanPeriod(tx, plan.id, plan.period, paidPeriodChanges(plan, planCard ? result : undefined));
    if (settled && plan.status === 'past_due') {
      await recordPlanChange(tx, { planId: plan.id, actor: { type: 'billing' }, action: BILLING_PLAN_CHANGES.recovered, details: { period: plan.period, donationId: donation.id } });
    }
  });
}

/**
 * Records a declined try: the donation failed, and the plan past due until its next retry or paused after the last
 * one, with the donor's e-mail at the period's first decline and at the pause, and the plan's history row (issue #22:
 * past due, retry scheduled, paused after failures), in one transaction. A try the bank
 * wants the donor to authenticate keeps its payment intent (the manage page offers it; decision 0046), and its e-mail
 * (`renewal_needs_authentication`, once per period) asks the donor to confirm on that page instead of `renewal_failed`.
 */
async function recordDeclined(
  deps: BillingDeps,
  plan: RecurringPlanRow,
  donationId: string,
  result: Exclude<SavedPaymentMethodChargeResult, { status: 'succeeded' }>,
  now: Date,
): Promise<'past_due' | 'paused'> {
  const step = nextDunningStep({ retriesMade: plan.retryCount, pastDueSince: plan.pastDueSince ?? undefined, now }, deps.retryDays);
  return deps.db.transaction(async (tx) => {
    await markDonationFailed(tx, donationId, { declineCode: result.declineCode }, declinedAnswer(result.message, result.declineCode));
    const mail = (kind: 'renewal_failed' | 'plan_paused' | 'renewal_needs_authentication') =>
      planDonorEmail(tx, plan).then((recipient) =>
        enqueueMail(tx, { kind, dedupeKey: `${kind}:${plan.id}:${plan.period}`, recipient, recurringPlanId: plan.id }),
      );
    const needsDonor = result.status === 'requires_authentication';
    if (needsDonor) {
      await keepIntentAwaitingDonor(tx, donationId, result.paymentIntentId);
      await mail('renewal_needs_authentication');
    }
    const history = (action: string, details: Record<string, unknown>) =>
      recordPlanChange(tx, { planId: plan.id, actor: { type: 'billing' }, action, details: { period: plan.period, donationId, declineCode: result.declineCode, ...details } });
    if (step.action === 'pause') {
      if (await settlePlanPeriod(tx, plan.id, plan.period, { status: 'paused', retryCount: 0, pastDueSince: null, pausedUntil: null })) {
        await mail('plan_paused');
        await history(BILLING_PLAN_CHANGES.pausedAfterFailures, {});
      }
      return 'paused';
    }
    const settled = await settlePlanPeriod(tx, plan.id, plan.period, {
      status: 'past_due',
      retryCount: step.retryCount,
      pastDueSince: plan.pastDueSince ?? now,
      nextAttemptAt: step.retryAt,
    });
    if (settled && step.firstFailure && !needsDonor) await mail('renewal_failed');
    if (settled) {
      const action = step.firstFailure ? BILLING_PLAN_CHANGES.pastDue : BILLING_PLAN_CHANGES.retryScheduled;
      await history(action, { retry: step.retryCount, retryAt: step.retryAt.toISOString() });
    }
    return 'past_due';
  });
}

/**
 * Before a retry of `plan`'s period, settles the payment its last try left waiting for the donor (settleAwaitingPayment):
 * `charge` when nothing can pay the period but this retry; otherwise what the run reports (`charged`: the donor paid
 * it, recorded now; `skipped`: recorded before, being paid, or the gateway could not be asked, tried again later).
 */
async function beforeRetry(deps: BillingDeps, plan: RecurringPlanRow, attempt: number): Promise<keyof BillingReport | 'charge'> {
  try {
    const settled = await settleAwaitingPayment(deps, plan.id, plan.period, attempt);
    if (settled === 'none' || settled === 'released') return 'charge';
    return settled === 'recorded' ? 'charged' : 'skipped';
  } catch (error) {
    deps.log.error({ err: error, renewal: { planId: plan.id, period: plan.period, attempt } }, 'Renewal not retried: its payment awaiting the donor could not be settled');
    return 'skipped';
  }
}

/**
 * Charges one claimed plan (the next try of its period: nextAttemptOf) and records the outcome. The try is started
 * on the plan as it stands now (startRenewalTry), not as the run claimed it: a plan cancelled or paused since is not
 * charged, and a new amount, cause or card counts from this try on.
 */
async function billPlan(deps: BillingDeps, claimed: RecurringPlanRow, now: Date): Promise<keyof BillingReport> {
  const { db, gateway, log } = deps;
  const attempt = await nextAttemptOf(db, claimed);
  const about = { planId: claimed.id, period: claimed.period, attempt, currency: claimed.currency, gateway: claimed.gateway };
  if (attempt > 1) {
    const settled = await beforeRetry(deps, claimed, attempt);
    if (settled !== 'charge') return settled;
  }
  const started = await startRenewalTry(db, claimed, attempt);
  if (started.kind !== 'try') {
    const reason = started.kind === 'held' ? 'another try of the period holds it' : `the plan is ${started.status ?? 'gone'} now`;
    log.warn({ renewal: { ...about, reason } }, `Renewal not charged: ${reason}`);
    return 'skipped';
  }
  const { plan, donation } = started;
  const charging = { ...about, donationId: donation.id, amountCents: donation.amountCents };
  let result: SavedPaymentMethodChargeResult;
  try {
    result = await gateway.chargeSavedPaymentMethod({
      paymentMethod: { paymentMethodId: donation.paymentMethodId ?? plan.paymentMethodId, customerId: plan.customerId ?? undefined },
      amountCents: donation.amountCents,
      currency: plan.currency,
      idempotencyKey: renewalIdempotencyKey(plan.id, plan.period, attempt),
      description: `Donation (${plan.frequency} renewal): ${CAUSE_DETAILS[donation.cause].displayName}`,
    });
  } catch (error) {
    log.error({ err: error, renewal: charging }, 'Renewal charge failed; outcome unknown, tried again when the lease expires');
    return 'skipped';
  }
  if (result.status === 'succeeded') {
    await recordCharged(db, plan, donation, result);
    log.info({ renewal: { ...charging, status: 'succeeded', transactionId: result.transactionId } }, 'Renewal charged');
    return 'charged';
  }
  const planStatus = await recordDeclined(deps, plan, donation.id, result, now);
  log.info({ renewal: { ...charging, status: result.status, declineCode: result.declineCode, planStatus } }, 'Renewal declined');
  return 'failed';
}

/**
 * One billing run at `now` (the injected clock's, or an operator's `asOf`): resumes the plans whose pause until a
 * date has come (resumeEndedPauses), reminds the donors whose card expires within 30 days (remindExpiringCards), then claims the plans due in batches and
 * bills each once per run (a plan behind by several periods catches up one period per run). Once `signal` is aborted
 * (the runner stops: graceful shutdown, issue #14) it returns after the plan at hand; the other claimed plans wait for
 * their lease to expire (BILLING_LEASE_MS) and a later run bills them. Resolves with what it did; rejects when the
 * database fails (the next run starts over; leases expire).
 */
export async function runBilling(deps: BillingDeps, now: Date, signal?: AbortSignal): Promise<BillingReport> {
  const report: BillingReport = { charged: 0, failed: 0, skipped: 0 };
  await resumeEndedPauses(deps.db, now);
  await remindExpiringCards(deps.db, now);
  const seen: string[] = [];
  for (;;) {
    const batch = await claimDuePlans(deps.db, { now, leaseMs: BILLING_LEASE_MS, limit: BATCH_SIZE, exclude: seen });
    for (const plan of batch) {
      if (signal?.aborted) return report;
      seen.push(plan.id);
      report[await billPlan(deps, plan, now)] += 1;
    }
    if (batch.length < BATCH_SIZE || signal?.aborted) return report;
  }
}
