import { and, asc, desc, eq, inArray, isNull, lt, lte, notInArray, or, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import type { CardBrand } from '../../shared/card';
import { donations, recurringPlans, type RecurringPlanRow, type RecurringPlanStatus } from '../db/schema';
import { liveCampaignSlugSql } from '../ledger/campaign-entries';
import type { SavedPaymentMethod } from '../payments/gateway';
import { chargeDate, firstPeriodOnOrAfter, isRecurringFrequency, startOfDay, type IsoDate } from './calendar';
import { recordPlanEvent } from '../webhooks/record';

/**
 * Reads and writes recurring plans (issue #13). Money is integer cents. The donor of a plan is the donor of its
 * first donation (`first_donation_id`): their details are never copied onto the plan.
 */

/** The schedule fields of a plan due for `period`: its date, and the instant it is due (that date at 00:00 UTC). */
export function scheduleOf(plan: Pick<RecurringPlanRow, 'anchorDate' | 'frequency'>, period: number) {
  const nextChargeOn = chargeDate(plan.anchorDate, plan.frequency, period);
  return { period, nextChargeOn, nextAttemptAt: startOfDay(nextChargeOn) };
}

/**
 * The schedule of a plan that resumes on `today` (UTC): the first period on or after today, never one before its
 * current period (a period charged today is not charged again), due at its date's start.
 */
export function resumeScheduleOf(plan: Pick<RecurringPlanRow, 'anchorDate' | 'frequency' | 'period'>, today: IsoDate) {
  return scheduleOf(plan, Math.max(plan.period, firstPeriodOnOrAfter(plan.anchorDate, plan.frequency, today)));
}

/** The saved card fields of a plan row. */
export function cardColumnsOf(paymentMethod: SavedPaymentMethod) {
  return {
    paymentMethodId: paymentMethod.paymentMethodId,
    customerId: paymentMethod.customerId ?? null,
    cardBrand: paymentMethod.cardBrand,
    cardLast4: paymentMethod.last4,
    cardExpiryMonth: paymentMethod.expiryMonth,
    cardExpiryYear: paymentMethod.expiryYear,
  };
}

/** What starts a plan: its first donation (just marked succeeded), the saved card, and the first charge's UTC date. */
export interface NewPlan {
  firstDonationId: string;
  paymentMethod: SavedPaymentMethod;
  /** The gateway that keeps the card (`test`, `stripe`). */
  gateway: string;
  /** The first charge's UTC date: every renewal falls on its day (calendar.ts). */
  anchorDate: IsoDate;
}

/**
 * Creates the plan of a monthly or yearly first donation, in `db` (the transaction that marks that donation
 * succeeded: issue #13, the plan exists exactly when its first gift does), `active`, its first renewal (period 1)
 * due on the calendar's date, and marks the donation as the plan's period 0. Amount, currency, frequency and cause
 * are the donation's. Returns the plan, or undefined when the donation is one-time (no plan) or has its plan already.
 */
export async function createPlanForFirstDonation(db: Database, plan: NewPlan): Promise<RecurringPlanRow | undefined> {
  const [donation] = await db.select().from(donations).where(eq(donations.id, plan.firstDonationId));
  if (!donation) throw new Error(`Donation ${plan.firstDonationId} does not exist`);
  const { frequency } = donation;
  if (!isRecurringFrequency(frequency)) return undefined;
  const [created] = await db
    .insert(recurringPlans)
    .values({
      // Issue #23: the plan keeps the gift and the fee its donor covered apart; each renewal charges both.
      amountCents: donation.amountCents - donation.feeCoveredCents,
      feeCoveredCents: donation.feeCoveredCents,
      // Issue #24: the plan speaks its first gift's language.
      locale: donation.locale,
      currency: donation.currency,
      frequency,
      cause: donation.cause,
      firstDonationId: donation.id,
      gateway: plan.gateway,
      ...cardColumnsOf(plan.paymentMethod),
      anchorDate: plan.anchorDate,
      ...scheduleOf({ anchorDate: plan.anchorDate, frequency }, 1),
      isTestPayment: donation.isTestPayment,
    })
    .onConflictDoNothing({ target: recurringPlans.firstDonationId })
    .returning();
  if (!created) return undefined;
  await db
    .update(donations)
    .set({ recurringPlanId: created.id, recurringPeriod: 0, recurringAttempt: 1 })
    .where(eq(donations.id, donation.id));
  // Issue #38: the new plan is told to the charity's other systems in the transaction that starts it.
  await recordPlanEvent(db, 'plan.created', created.id, {});
  return created;
}

/** A plan by id; undefined when there is none. */
export async function findPlan(db: Database, planId: string): Promise<RecurringPlanRow | undefined> {
  const [plan] = await db.select().from(recurringPlans).where(eq(recurringPlans.id, planId));
  return plan;
}

/** How long a billing run's claim of a plan lasts, in ms: far longer than a charge can take (GATEWAY_TIMEOUT_MS, 20 s by default). */
export const BILLING_LEASE_MS = 5 * 60 * 1000;

/** Statuses of a plan the billing run charges: active, or past due (being retried). */
const BILLABLE_STATUSES: readonly RecurringPlanStatus[] = ['active', 'past_due'];

/**
 * Claims up to `limit` plans due at `now` (active or past due, `next_attempt_at <= now`, no live lease), oldest due
 * first, leaving out `exclude` (the plans this run handled already), in ONE statement: chosen `FOR UPDATE SKIP LOCKED`
 * (so billing runs of several processes never claim one plan at once) and leased until `now + leaseMs`.
 * A run that dies leaves its lease to expire; the plan is then claimed again, and charged under the same key.
 */
export async function claimDuePlans(
  db: Database,
  { now, leaseMs, limit, exclude }: { now: Date; leaseMs: number; limit: number; exclude: readonly string[] },
): Promise<RecurringPlanRow[]> {
  const due = db
    .select({ id: recurringPlans.id })
    .from(recurringPlans)
    .where(
      and(
        inArray(recurringPlans.status, [...BILLABLE_STATUSES]),
        lte(recurringPlans.nextAttemptAt, now),
        or(isNull(recurringPlans.lockedUntil), lte(recurringPlans.lockedUntil, now)),
        exclude.length > 0 ? notInArray(recurringPlans.id, [...exclude]) : undefined,
      ),
    )
    .orderBy(asc(recurringPlans.nextAttemptAt))
    .limit(limit)
    .for('update', { skipLocked: true });
  return db
    .update(recurringPlans)
    .set({ lockedUntil: new Date(now.getTime() + leaseMs) })
    .where(inArray(recurringPlans.id, due))
    .returning();
}

/**
 * The renewal donation of one try of a plan's period: its id and status, and the amount (cents), cause and saved
 * payment method it charges (NULL on a try written before migration 0009: the plan's).
 */
export interface RenewalDonation {
  id: string;
  status: (typeof donations.$inferSelect)['status'];
  amountCents: number;
  cause: (typeof donations.$inferSelect)['cause'];
  paymentMethodId: string | null;
}

/** The columns of a {@link RenewalDonation}. */
const renewalDonationColumns = {
  id: donations.id,
  status: donations.status,
  amountCents: donations.amountCents,
  cause: donations.cause,
  paymentMethodId: donations.renewalPaymentMethodId,
};

/** A try of a renewal period: its donation, try number, status, and the payment intent it holds (decision 0046), if any. */
export interface RenewalTry {
  donationId: string;
  attempt: number | null;
  status: (typeof donations.$inferSelect)['status'];
  paymentIntentId: string | null;
}

/** The latest try of `planId`'s `period` (below try `beforeAttempt` when given), or undefined when it has none. */
export async function latestTryOf(db: Database, planId: string, period: number, beforeAttempt?: number): Promise<RenewalTry | undefined> {
  const [latest] = await db
    .select({ donationId: donations.id, attempt: donations.recurringAttempt, status: donations.status, paymentIntentId: donations.paymentIntentId })
    .from(donations)
    .where(
      and(
        eq(donations.recurringPlanId, planId),
        eq(donations.recurringPeriod, period),
        beforeAttempt === undefined ? undefined : lt(donations.recurringAttempt, beforeAttempt),
      ),
    )
    .orderBy(desc(donations.recurringAttempt))
    .limit(1);
  return latest;
}

/**
 * The try of `plan`'s current period to make now: 1 when the period has no try yet; the last try again when it is
 * still `pending` (a run that died: same row, same gateway idempotency key); the one after it when it failed. NOTE:
 * read from the period's donations, not from the plan's `retry_count` (the dunning step), which a pause and resume
 * resets to 0: a past-due plan resumed on its due day would otherwise make try 1 again, find it failed, and be skipped
 * by every later run.
 */
export async function nextAttemptOf(db: Database, plan: RecurringPlanRow): Promise<number> {
  const last = await latestTryOf(db, plan.id, plan.period);
  if (!last?.attempt) return 1;
  return last.status === 'failed' ? last.attempt + 1 : last.attempt;
}

/**
 * The donation of try `attempt` of `plan`'s current period: the one written by an earlier run that died, or a new
 * `pending` one written now, with the donor of the plan's first donation and the plan's amount, cause and card.
 * Resolves undefined when another try of that period is not failed (a unique index: the period is being charged,
 * or was charged, by another try), in which case nothing may be charged.
 */
async function findOrCreateRenewalDonation(db: Database, plan: RecurringPlanRow, attempt: number): Promise<RenewalDonation | undefined> {
  const thisTry = and(eq(donations.recurringPlanId, plan.id), eq(donations.recurringPeriod, plan.period), eq(donations.recurringAttempt, attempt));
  const [existing] = await db.select(renewalDonationColumns).from(donations).where(thisTry);
  if (existing) return existing;
  const [first] = await db.select().from(donations).where(eq(donations.id, plan.firstDonationId));
  if (!first) throw new Error(`The first donation of plan ${plan.id} does not exist`);
  const [created] = await db
    .insert(donations)
    .values({
      status: 'pending',
      amountCents: plan.amountCents + plan.feeCoveredCents,
      feeCoveredCents: plan.feeCoveredCents,
      locale: plan.locale,
      // Issue #34: a renewal counts for its plan's campaign only when charged while the campaign is live.
      campaign: liveCampaignSlugSql(first.campaign),
      currency: plan.currency,
      frequency: plan.frequency,
      cause: plan.cause,
      donorName: first.donorName,
      donorEmail: first.donorEmail,
      donorPhone: first.donorPhone,
      addressStreet: first.addressStreet,
      addressCity: first.addressCity,
      addressState: first.addressState,
      addressZipCode: first.addressZipCode,
      addressCountry: first.addressCountry,
      message: null,
      isAnonymous: first.isAnonymous,
      cardBrand: plan.cardBrand,
      cardLast4: plan.cardLast4,
      gateway: plan.gateway,
      isTestPayment: plan.isTestPayment,
      recurringPlanId: plan.id,
      recurringPeriod: plan.period,
      recurringAttempt: attempt,
      renewalPaymentMethodId: plan.paymentMethodId,
    })
    .onConflictDoNothing()
    .returning(renewalDonationColumns);
  if (created) return created;
  const [raced] = await db.select(renewalDonationColumns).from(donations).where(thisTry);
  return raced;
}

/**
 * What {@link startRenewalTry} found: the plan is no longer billable at the claimed period (`not_billable`), another
 * try of the period holds it (`held`), or the try to charge, with the plan as it stands now.
 */
export type RenewalTryStart =
  | { kind: 'not_billable'; status: RecurringPlanStatus | undefined }
  | { kind: 'held' }
  | { kind: 'try'; plan: RecurringPlanRow; donation: RenewalDonation };

/**
 * Starts try `attempt` of the period the run claimed `claimed` at, in ONE transaction that locks the plan's row, as a
 * donor's change does (applyPlanChange): only while the plan is still billable and at that period (a donor who
 * cancelled or paused it since the run claimed it is never charged; issue #13, "A cancelled plan is never charged
 * again"), finds or creates the try's donation (findOrCreateRenewalDonation) from the plan as it is now. A try written
 * before (a run that died, or whose charge timed out) keeps the amount, cause and card it was first charged with, so
 * its retry sends the gateway the same request under the same key. Rejects when the database fails.
 */
export async function startRenewalTry(db: Database, claimed: Pick<RecurringPlanRow, 'id' | 'period'>, attempt: number): Promise<RenewalTryStart> {
  return db.transaction(async (tx): Promise<RenewalTryStart> => {
    const [plan] = await tx.select().from(recurringPlans).where(eq(recurringPlans.id, claimed.id)).for('update');
    if (!plan || !BILLABLE_STATUSES.includes(plan.status) || plan.period !== claimed.period) return { kind: 'not_billable', status: plan?.status };
    const donation = await findOrCreateRenewalDonation(tx, plan, attempt);
    return donation?.status === 'pending' ? { kind: 'try', plan, donation } : { kind: 'held' };
  });
}

/** The address of a plan's donor (the first donation's), for the plan's e-mail. */
export async function planDonorEmail(db: Database, plan: Pick<RecurringPlanRow, 'firstDonationId'>): Promise<string> {
  const [row] = await db.select({ email: donations.donorEmail }).from(donations).where(eq(donations.id, plan.firstDonationId));
  if (!row) throw new Error('The first donation of the plan does not exist');
  return row.email;
}

/**
 * Updates a plan that `db` (the caller's transaction) charged or tried to charge for period `period`, only while it
 * still is at that period and in one of `from` (by default billable: active or past due): a donor's cancel or pause
 * that came in between stays. Releases the run's lease. Resolves with whether the plan changed.
 */
export async function settlePlanPeriod(
  db: Database,
  planId: string,
  period: number,
  changes: Partial<typeof recurringPlans.$inferInsert>,
  from: readonly RecurringPlanStatus[] = BILLABLE_STATUSES,
): Promise<boolean> {
  const updated = await db
    .update(recurringPlans)
    .set({ ...changes, lockedUntil: null, updatedAt: sql`now()` })
    .where(and(eq(recurringPlans.id, planId), eq(recurringPlans.period, period), inArray(recurringPlans.status, [...from])))
    .returning({ id: recurringPlans.id });
  return updated.length === 1;
}

/**
 * The columns of a plan whose current period was just paid with `card` (the charge's brand and last 4): active on
 * its next period, the dunning state cleared (issue #13: a renewal charged, or confirmed by the donor), and the card
 * shown as the one charged; without `card` (a retry charged the card the try was first sent with, which the donor has
 * replaced since), the plan keeps showing its own.
 */
export function paidPeriodChanges(plan: Pick<RecurringPlanRow, 'anchorDate' | 'frequency' | 'period'>, card: { cardBrand: CardBrand; last4: string } | undefined) {
  return {
    status: 'active' as const,
    ...scheduleOf(plan, plan.period + 1),
    retryCount: 0,
    pastDueSince: null,
    pausedUntil: null,
    ...(card ? { cardBrand: card.cardBrand, cardLast4: card.last4 } : {}),
  };
}
