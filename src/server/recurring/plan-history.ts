import type { Database } from '../db/client';
import { recurringPlanChanges, type PlanChangeActorType } from '../db/schema';
import { recordPlanEvent } from '../webhooks/record';

/**
 * The change history of a recurring plan (issue #22, "A plan's page": "every change with who made it (donor from the
 * manage link, staff member, billing runner)"): one row per change, written in the transaction of the change itself,
 * so a change and its history row are kept or neither.
 */

/** Who made a change: the plan's donor (manage link), a staff member (by id), or the billing runner. */
export type PlanChangeActor = { type: 'donor' } | { type: 'staff'; staffMemberId: string } | { type: 'billing' };

/** The billing runner's own changes of a plan (recurring_plan_changes.action), beside the donor's and staff's PlanChange actions. */
export const BILLING_PLAN_CHANGES = {
  /** A period's first try was declined: past due, its first retry scheduled (`details.retryAt`). */
  pastDue: 'past_due',
  /** A retry was declined: the next retry scheduled (`details.retryAt`, `details.retry`). */
  retryScheduled: 'retry_scheduled',
  /** The last retry was declined: the plan paused until its donor resumes it. */
  pausedAfterFailures: 'paused_after_failures',
  /** A pause until a date ended: the plan active again (`details.nextChargeOn`). */
  resumedAfterPause: 'resumed_after_pause',
  /** A past-due plan's period was paid at last: active again. */
  recovered: 'recovered',
} as const;

/**
 * Writes one history row of plan `planId` in `tx` (the transaction of the change): `action` and its `details`
 * (amounts in cents, dates as YYYY-MM-DD; never card data beyond brand and last4), and records the change's webhook
 * event (issue #38; {@link recordPlanWebhookEvent}): every change of a plan goes through here. Rejects when the insert
 * fails, which rolls the change back.
 */
export async function recordPlanChange(
  tx: Database,
  { planId, actor, action, details }: { planId: string; actor: PlanChangeActor; action: string; details?: Record<string, unknown> },
): Promise<void> {
  const actorType: PlanChangeActorType = actor.type;
  await tx.insert(recurringPlanChanges).values({
    planId,
    actorType,
    staffMemberId: actor.type === 'staff' ? actor.staffMemberId : null,
    action,
    details: details ?? null,
  });
  await recordPlanWebhookEvent(tx, planId, actor, action, details ?? {});
}

/**
 * The webhook event of a plan's change (issue #38, "Events"; decision 0106): a pause (by the donor, staff, or the
 * billing runner after the last retry) is `plan.paused`, a cancellation `plan.cancelled`, a declined renewal try (past
 * due, retry scheduled, paused after failures) `plan.renewal_failed` (and the pause after failures `plan.paused` too);
 * every other change (amount, cause, card, resume, recovered) `plan.changed`, naming the change.
 */
async function recordPlanWebhookEvent(tx: Database, planId: string, actor: PlanChangeActor, action: string, details: Record<string, unknown>): Promise<void> {
  const declined = [BILLING_PLAN_CHANGES.pastDue, BILLING_PLAN_CHANGES.retryScheduled, BILLING_PLAN_CHANGES.pausedAfterFailures] as string[];
  if (declined.includes(action)) {
    const text = (key: string) => (typeof details[key] === 'string' ? (details[key] as string) : null);
    await recordPlanEvent(tx, 'plan.renewal_failed', planId, { donationId: text('donationId'), declineCode: text('declineCode'), retryAt: text('retryAt') });
  }
  if (action === 'pause' || action === BILLING_PLAN_CHANGES.pausedAfterFailures) {
    await recordPlanEvent(tx, 'plan.paused', planId, { reason: action === 'pause' ? actor.type : 'failures' });
  } else if (action === 'cancel') {
    await recordPlanEvent(tx, 'plan.cancelled', planId, {});
  } else if (!declined.includes(action)) {
    await recordPlanEvent(tx, 'plan.changed', planId, { change: action });
  }
}
