import type { Database } from '../db/client';
import { recurringPlanChanges, type PlanChangeActorType } from '../db/schema';

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
 * (amounts in cents, dates as YYYY-MM-DD; never card data beyond brand and last4). Rejects when the insert fails,
 * which rolls the change back.
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
}
