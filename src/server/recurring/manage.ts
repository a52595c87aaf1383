import { and, eq, inArray, isNotNull, lte, sql } from 'drizzle-orm';
import { amountError } from '../../shared/amounts';
import { centsToDollars, dollarsToCents } from '../../shared/money';
import { MAX_PAUSE_DAYS, PAUSE_DATE_IN_PAST_MESSAGE, PAUSE_DATE_TOO_FAR_MESSAGE, SETUP_INTENT_NOT_SAVED_MESSAGE, type ManagedPlan, type PaymentToConfirm, type PlanChange } from '../../shared/recurring-api';
import type { Database } from '../db/client';
import { donations, recurringPlans, type RecurringPlanRow, type RecurringPlanStatus } from '../db/schema';
import { enqueueMail } from '../mail/outbox';
import type { PaymentGateway, SavedPaymentMethod } from '../payments/gateway';
import { addDays, chargeDate, startOfDay, toIsoDate } from './calendar';
import { BILLING_LEASE_MS, cardColumnsOf, planDonorEmail, resumeScheduleOf } from './plans';
import { BILLING_PLAN_CHANGES, recordPlanChange, type PlanChangeActor } from './plan-history';
import type { FeeCoverageSettings } from '../../shared/fee-coverage';
import { planAmountChange } from './plan-fee';
import { planChangeDedupeKey, planChangeEventOf } from './plan-change-mail';

/**
 * The donor's changes of a plan (issue #13, "The donor's link"), each in one transaction with its confirmation
 * e-mail (`plan_changed`: a change, a pause, a resume or a cancellation, each its own message; decision 0097b), each allowed only from the statuses listed below (and the database's trigger): they take
 * effect from the next charge. Money is integer cents here; the API's dollars are converted at the edge.
 */

/** Statuses a change may start from. NOTE: nothing changes a cancelled plan (it is never charged again). */
const ALLOWED_FROM: Record<PlanChange['action'], readonly RecurringPlanStatus[]> = {
  change_amount: ['active', 'past_due', 'paused'],
  change_cause: ['active', 'past_due', 'paused'],
  update_card: ['active', 'past_due', 'paused'],
  use_setup_intent: ['active', 'past_due', 'paused'],
  pause: ['active', 'past_due', 'paused'],
  resume: ['paused'],
  cancel: ['active', 'past_due', 'paused'],
  stop_covering_fee: ['active', 'past_due', 'paused'],
};

/**
 * What became of a change: done (the plan as changed), not allowed now, not now because a charge of the plan is under
 * way (a cancel or a pause), refused input, or a card the gateway refused.
 */
export type PlanChangeOutcome =
  | { status: 'changed'; plan: RecurringPlanRow }
  | { status: 'not_allowed' }
  | { status: 'charge_under_way' }
  | { status: 'invalid'; field: string; message: string }
  | { status: 'card_declined'; message: string; declineCode: string };

/** What a change needs: the database, the gateway (a new card), the smallest amount (MIN_DONATION_AMOUNT, cents). */
export interface PlanChangeDeps {
  db: Database;
  gateway: PaymentGateway;
  minAmountCents: number;
  /** The card fee the site offers to cover (issue #23): a plan that covers it covers it on its new amount too; null: FEE_COVERAGE=off. */
  feeCoverage?: FeeCoverageSettings | null;
}

/** The columns a change writes, given the plan as it stands and the UTC date of `now`. */
function changesOf(change: PlanChange, plan: RecurringPlanRow, today: string, saved: SavedPaymentMethod | undefined, feeCoverage: FeeCoverageSettings | null) {
  switch (change.action) {
    case 'change_amount':
      return planAmountChange(dollarsToCents(change.amount), plan.feeCoveredCents > 0, feeCoverage);
    case 'stop_covering_fee':
      return { feeCoveredCents: 0 };
    case 'change_cause':
      return { cause: change.cause };
    case 'update_card':
    case 'use_setup_intent':
      return saved ? cardColumnsOf(saved) : {};
    case 'pause':
      return { status: 'paused' as const, pastDueSince: null, retryCount: 0, pausedUntil: change.until ?? null };
    case 'resume':
      return { status: 'active' as const, pausedUntil: null, retryCount: 0, ...resumeScheduleOf(plan, today) };
    case 'cancel':
      return { status: 'cancelled' as const, pastDueSince: null, pausedUntil: null };
  }
}

/**
 * Refused input of a change, checked before anything is written: the amount's rules; a pause date after today and
 * at most MAX_PAUSE_DAYS days after it.
 */
function inputError(change: PlanChange, minAmountCents: number, today: string): { field: string; message: string } | undefined {
  if (change.action === 'change_amount') {
    const message = amountError(change.amount, centsToDollars(minAmountCents));
    if (message) return { field: 'amount', message };
  }
  if (change.action === 'pause' && change.until !== undefined) {
    if (change.until <= today) return { field: 'until', message: PAUSE_DATE_IN_PAST_MESSAGE };
    if (change.until > toIsoDate(addDays(startOfDay(today), MAX_PAUSE_DAYS))) return { field: 'until', message: PAUSE_DATE_TOO_FAR_MESSAGE };
  }
  return undefined;
}

/** The refusal of a SetupIntent that saved no card on the plan's Customer (`fieldErrors.setupIntentId`). */
const SETUP_INTENT_NOT_SAVED = { status: 'invalid', field: 'setupIntentId', message: SETUP_INTENT_NOT_SAVED_MESSAGE } as const;

/**
 * The new card of a card change, saved before the transaction: test mode vaults the card data (a refused card is
 * `card_declined`); Stripe mode retrieves the SetupIntent the page confirmed from Stripe itself (one that has not
 * succeeded is `invalid`). Resolves `{}` for other changes; rejects when the gateway fails.
 */
async function newCardOf(gateway: PaymentGateway, change: PlanChange): Promise<{ saved?: SavedPaymentMethod; refused?: PlanChangeOutcome }> {
  if (change.action === 'use_setup_intent') {
    const intent = await gateway.retrieveSetupIntent(change.setupIntentId);
    return intent?.savedPaymentMethod ? { saved: intent.savedPaymentMethod } : { refused: SETUP_INTENT_NOT_SAVED };
  }
  if (change.action !== 'update_card') return {};
  const { creditCard } = change;
  const result = await gateway.savePaymentMethod({
    number: creditCard.number,
    expiryMonth: Number(creditCard.expiryMonth),
    expiryYear: Number(creditCard.expiryYear),
    cvc: creditCard.cvv,
  });
  return result.status === 'declined' ? { refused: { status: 'card_declined', message: result.message, declineCode: result.declineCode } } : { saved: result.paymentMethod };
}

/**
 * How long a pending try holds off a cancel or a pause, in ms: two billing leases, time for the run that made it to end
 * and for the next one to send it again once its lease expired (BILLING_LEASE_MS).
 */
export const CHARGE_UNDER_WAY_MAX_MS = 2 * BILLING_LEASE_MS;

/**
 * True while a try of `plan`'s current period is `pending` and was started less than CHARGE_UNDER_WAY_MAX_MS ago (by
 * the database's clock, which wrote it): the billing run is charging it, or its answer was lost and the next run sends
 * it again. NOTE: a cancel or a pause then waits (409): the try's outcome is not known yet, and only a billable plan is
 * charged, so a plan stopped now could leave a charge the gateway made unrecorded, or be charged after the donor
 * stopped it. A try older than that (the gateway failing every time) no longer holds the donor back.
 */
async function hasChargeUnderWay(db: Database, plan: RecurringPlanRow): Promise<boolean> {
  const [pending] = await db
    .select({ id: donations.id })
    .from(donations)
    .where(
      and(
        eq(donations.recurringPlanId, plan.id),
        eq(donations.recurringPeriod, plan.period),
        eq(donations.status, 'pending'),
        sql`${donations.createdAt} > now() - make_interval(secs => ${CHARGE_UNDER_WAY_MAX_MS / 1000})`,
      ),
    )
    .limit(1);
  return pending !== undefined;
}

/**
 * Who makes a change (issue #22: "every change with who made it"): the actor of its history row (the donor by
 * default), and what else to write in the change's own transaction once the plan is changed (the staff member's audit
 * entry: recordStaffAction); a rejection of `alongside` rolls the change back.
 */
export interface PlanChangeBy {
  actor: PlanChangeActor;
  alongside?: (tx: Database, changed: RecurringPlanRow, before: RecurringPlanRow) => Promise<void>;
  /** When the change's e-mail is due: at once unless said (a staff cancel with refund holds it for its refund; decision 0097b). */
  mailDueAt?: Date;
}

/** What the history row of a change says changed (cents, dates, the card's brand and last4 only). */
function historyDetailsOf(change: PlanChange, before: RecurringPlanRow, after: RecurringPlanRow): Record<string, unknown> {
  switch (change.action) {
    case 'change_amount':
      return { fromAmountCents: before.amountCents, toAmountCents: after.amountCents };
    case 'change_cause':
      return { fromCause: before.cause, toCause: after.cause };
    case 'update_card':
    case 'use_setup_intent':
      return { cardBrand: after.cardBrand, cardLast4: after.cardLast4 };
    case 'pause':
      return { until: after.pausedUntil };
    case 'resume':
      return { nextChargeOn: after.nextChargeOn };
    default:
      return {};
  }
}

/**
 * Applies `change` to plan `planId` at `now`: checks the input, saves a new card with the gateway first (newCardOf;
 * a refused card changes nothing), then, in ONE transaction, locks the plan, checks that its status allows the change
 * (that a SetupIntent's card is on the plan's own Customer, and, for a cancel or a pause, that no charge of the plan
 * is under way: hasChargeUnderWay), writes it, enqueues the `plan_changed` e-mail (naming its event: plan-change-mail.ts;
 * due at `by.mailDueAt` when given) and writes the change's history row
 * (recordPlanChange, by `by.actor`: the donor unless said) and `by.alongside`. A staff member's change goes through
 * here too (issue #22: "each e-mailed to the donor as the donor's own change would be"). A past-due plan keeps its
 * retry date: a new card is charged at the next retry. Rejects when the database or the gateway fails.
 */
export async function applyPlanChange(
  deps: PlanChangeDeps,
  planId: string,
  change: PlanChange,
  now: Date,
  by: PlanChangeBy = { actor: { type: 'donor' } },
): Promise<PlanChangeOutcome> {
  const today = toIsoDate(now);
  const invalid = inputError(change, deps.minAmountCents, today);
  if (invalid) return { status: 'invalid', ...invalid };
  const { saved, refused } = await newCardOf(deps.gateway, change);
  if (refused) return refused;
  return deps.db.transaction(async (tx): Promise<PlanChangeOutcome> => {
    const [plan] = await tx.select().from(recurringPlans).where(eq(recurringPlans.id, planId)).for('update');
    if (!plan || !ALLOWED_FROM[change.action].includes(plan.status)) return { status: 'not_allowed' };
    if ((change.action === 'cancel' || change.action === 'pause') && (await hasChargeUnderWay(tx, plan))) return { status: 'charge_under_way' };
    if (change.action === 'use_setup_intent' && saved?.customerId !== plan.customerId) return SETUP_INTENT_NOT_SAVED;
    const [changed] = await tx
      .update(recurringPlans)
      .set({ ...changesOf(change, plan, today, saved, deps.feeCoverage ?? null), updatedAt: sql`now()` })
      .where(eq(recurringPlans.id, planId))
      .returning();
    if (!changed) return { status: 'not_allowed' };
    const recipient = await planDonorEmail(tx, plan);
    const dedupeKey = planChangeDedupeKey(planId, planChangeEventOf(change.action));
    await enqueueMail(tx, { kind: 'plan_changed', dedupeKey, recipient, recurringPlanId: planId, dueAt: by.mailDueAt });
    await recordPlanChange(tx, { planId, actor: by.actor, action: change.action, details: historyDetailsOf(change, plan, changed) });
    await by.alongside?.(tx, changed, plan);
    return { status: 'changed', plan: changed };
  });
}

/**
 * Resumes the plans whose pause until a date has come at `now` (issue #13: "pause until a date"): each becomes
 * active on its first period on or after that day, with its history row (the billing runner's), one transaction each.
 * Run by the billing run before it claims. Resolves with how many.
 */
export async function resumeEndedPauses(db: Database, now: Date): Promise<number> {
  const today = toIsoDate(now);
  const ended = await db
    .select()
    .from(recurringPlans)
    .where(and(eq(recurringPlans.status, 'paused'), isNotNull(recurringPlans.pausedUntil), lte(recurringPlans.pausedUntil, today)));
  for (const plan of ended) {
    await db.transaction(async (tx) => {
      const [resumed] = await tx
        .update(recurringPlans)
        .set({ status: 'active', pausedUntil: null, retryCount: 0, ...resumeScheduleOf(plan, today), updatedAt: sql`now()` })
        // NOTE: only while still paused until that day: a donor who paused again meanwhile, to a later date, stays paused.
        .where(and(eq(recurringPlans.id, plan.id), eq(recurringPlans.status, 'paused'), eq(recurringPlans.pausedUntil, plan.pausedUntil ?? today)))
        .returning({ nextChargeOn: recurringPlans.nextChargeOn });
      if (resumed) {
        await recordPlanChange(tx, { planId: plan.id, actor: { type: 'billing' }, action: BILLING_PLAN_CHANGES.resumedAfterPause, details: { pausedUntil: plan.pausedUntil, nextChargeOn: resumed.nextChargeOn } });
      }
    });
  }
  return ended.length;
}

/** How long before a saved card expires its donor is reminded, in days (issue #13: "30 days before a saved card expires"). */
export const CARD_EXPIRY_REMINDER_DAYS = 30;

/**
 * Enqueues the `card_expiring` reminder (with the manage link) of every active or past-due plan whose saved card
 * expires (at the end of its expiry month, UTC) within {@link CARD_EXPIRY_REMINDER_DAYS} days of `now` and has not
 * expired yet; once per saved card (the dedupe key names the card's reference). Run by each billing run. Resolves with
 * how many were enqueued.
 */
export async function remindExpiringCards(db: Database, now: Date): Promise<number> {
  const expiresAt = sql`(make_date(${recurringPlans.cardExpiryYear}, ${recurringPlans.cardExpiryMonth}, 1) + interval '1 month')::timestamptz`;
  const due = await db
    .select({ plan: recurringPlans, recipient: donations.donorEmail })
    .from(recurringPlans)
    .innerJoin(donations, eq(donations.id, recurringPlans.firstDonationId))
    .where(
      and(
        inArray(recurringPlans.status, ['active', 'past_due']),
        sql`${expiresAt} - make_interval(days => ${CARD_EXPIRY_REMINDER_DAYS}) <= ${now.toISOString()}::timestamptz`,
        sql`${expiresAt} > ${now.toISOString()}::timestamptz`,
      ),
    );
  let queued = 0;
  for (const { plan, recipient } of due) {
    const dedupeKey = `card_expiring:${plan.id}:${plan.paymentMethodId}`;
    if (await enqueueMail(db, { kind: 'card_expiring', dedupeKey, recipient, recurringPlanId: plan.id })) queued += 1;
  }
  return queued;
}

/**
 * A plan as the manage page shows it (amounts in dollars), with its charges, newest first (each on its period's date),
 * and `paymentToConfirm`, the renewal awaiting the donor's confirmation (paymentToConfirmOf) or null.
 */
export async function managedPlanView(db: Database, plan: RecurringPlanRow, paymentToConfirm: PaymentToConfirm | null): Promise<ManagedPlan> {
  const charges = await db
    .select({ period: donations.recurringPeriod, amountCents: donations.amountCents, status: donations.status })
    .from(donations)
    .where(eq(donations.recurringPlanId, plan.id))
    .orderBy(sql`${donations.recurringPeriod} DESC, ${donations.recurringAttempt} DESC`)
    .limit(100);
  const charging = plan.status === 'active' || plan.status === 'past_due';
  return {
    amount: centsToDollars(plan.amountCents),
    feeCovered: centsToDollars(plan.feeCoveredCents),
    currency: 'USD',
    frequency: plan.frequency,
    cause: plan.cause,
    status: plan.status,
    nextChargeOn: charging ? (plan.status === 'past_due' ? toIsoDate(plan.nextAttemptAt) : plan.nextChargeOn) : null,
    pausedUntil: plan.pausedUntil,
    anchorDate: plan.anchorDate,
    card: { brand: plan.cardBrand, last4: plan.cardLast4, expiryMonth: plan.cardExpiryMonth, expiryYear: plan.cardExpiryYear },
    charges: charges.map((charge) => ({
      date: chargeDate(plan.anchorDate, plan.frequency, charge.period ?? 0),
      amount: centsToDollars(charge.amountCents),
      status: charge.status,
    })),
    paymentToConfirm,
  };
}
