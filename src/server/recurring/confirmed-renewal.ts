import { and, eq, ne } from 'drizzle-orm';
import type { Database } from '../db/client';
import { donations, recurringPlans } from '../db/schema';
import { succeededAnswer } from '../ledger/answers';
import { markDonationSucceeded } from '../ledger/repository';
import type { PaymentIntent } from '../payments/gateway';
import { paidPeriodChanges, settlePlanPeriod } from './plans';

/**
 * A renewal paid by its donor on our page (issue #13: in Stripe mode an off-session renewal declined
 * `authentication_required` is confirmed on-session by the donor, https://docs.stripe.com/payments/save-and-reuse).
 * Whoever learns of the payment first (Stripe's webhook, the page's POST, the billing runner before a retry)
 * records it here, and it is recorded once: the failed try moves to succeeded (migration 0005 allows failed ->
 * succeeded) with its receipt, and the plan goes on to its next period. Decision 0046.
 */

/**
 * What became of a confirmed renewal: recorded now; recorded before (a second delivery, or the other of webhook and
 * page); or not recorded, because the intent has no successful charge or the try is not a failed renewal
 * (`not_recorded`), or another try of the same period was charged (`period_charged`: two charges of one period, for an
 * operator to refund; the unique index donations_recurring_period_charged_unique allows only one).
 */
export type ConfirmedRenewalOutcome = 'recorded' | 'already_recorded' | 'not_recorded' | 'period_charged';

/** Statuses of a donation whose money was taken (a renewal already recorded). */
const RECORDED_STATUSES = new Set(['succeeded', 'refunded', 'disputed']);
/** Statuses of a plan that a renewal confirmed by the donor moves on: the period still being collected. */
const COLLECTING_STATUSES = ['active', 'past_due', 'paused'] as const;

/** True for PostgreSQL's unique_violation (23505), as node-postgres raises it, or wrapped by Drizzle. */
function isUniqueViolation(error: unknown): boolean {
  const codeOf = (value: unknown) => (typeof value === 'object' && value !== null && 'code' in value ? value.code : undefined);
  return codeOf(error) === '23505' || codeOf((error as { cause?: unknown } | null)?.cause) === '23505';
}

/**
 * Records that `intent` (retrieved from the gateway by the caller, never taken from a browser) paid the renewal try
 * `donationId`, in ONE transaction of `db` (a savepoint when `db` is the caller's, e.g. the webhook's): locks the plan
 * row first (so the webhook and the page's POST, arriving together, record it one after the other), then moves the
 * try failed -> succeeded with its receipt (markDonationSucceeded) and, while the plan is still at that period and
 * not cancelled, makes it active on its next period (paidPeriodChanges; a plan its donor paused until a date stays
 * paused until then, on its next period). Resolves with the outcome; never rejects for
 * a period charged by another try (checked first, and the unique index's violation caught): that is
 * `period_charged`. Rejects when the database fails.
 */
export async function recordConfirmedRenewal(db: Database, donationId: string, intent: PaymentIntent): Promise<ConfirmedRenewalOutcome> {
  const charge = intent.status === 'succeeded' ? intent.charge : undefined;
  if (!charge) return 'not_recorded';
  return db.transaction(async (tx): Promise<ConfirmedRenewalOutcome> => {
    const [ofTry] = await tx.select({ planId: donations.recurringPlanId }).from(donations).where(eq(donations.id, donationId));
    if (!ofTry?.planId) return 'not_recorded';
    const [plan] = await tx.select().from(recurringPlans).where(eq(recurringPlans.id, ofTry.planId)).for('update');
    const [renewal] = await tx.select().from(donations).where(eq(donations.id, donationId));
    if (!plan || !renewal || renewal.recurringPeriod === null || renewal.recurringPeriod < 1) return 'not_recorded';
    if (RECORDED_STATUSES.has(renewal.status)) return 'already_recorded';
    if (renewal.status !== 'failed') return 'not_recorded';
    const period = renewal.recurringPeriod;
    const [charged] = await tx
      .select({ id: donations.id })
      .from(donations)
      .where(and(eq(donations.recurringPlanId, plan.id), eq(donations.recurringPeriod, period), ne(donations.status, 'failed')));
    if (charged) return 'period_charged';
    const outcome = { ...charge, isTestPayment: intent.isTestPayment };
    try {
      await markDonationSucceeded(tx, donationId, outcome, succeededAnswer({ ...renewal, ...outcome }), ['failed']);
    } catch (error) {
      // NOTE: the safety net of a try inserted for the period meanwhile: the savepoint is rolled back, the rest goes on.
      if (isUniqueViolation(error)) return 'period_charged';
      throw error;
    }
    if (plan.period === period) {
      // NOTE: a donor who paused the gift until a date keeps that pause: paying the period left behind does not resume it.
      const pausedUntil = plan.status === 'paused' && plan.pausedUntil !== null ? { status: 'paused' as const, pausedUntil: plan.pausedUntil } : {};
      await settlePlanPeriod(tx, plan.id, period, { ...paidPeriodChanges(plan, charge), ...pausedUntil }, COLLECTING_STATUSES);
    }
    return 'recorded';
  });
}
