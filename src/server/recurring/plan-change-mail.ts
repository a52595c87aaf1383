import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { PlanChange } from '../../shared/recurring-api';
import type { Database } from '../db/client';
import { donations, mailOutbox, type RecurringPlanRow } from '../db/schema';
import { keptCentsSql } from '../ledger/kept-amount';

/**
 * What the `plan_changed` e-mail of a change tells its donor (issue #32, part 5; decision 0097b): a change of amount,
 * cause or card, a pause, a resume, or a cancellation, each its own message. The event is written into the message's
 * dedupe key when the change enqueues it (the outbox has no column for it, and the plan as it is when the message is
 * sent may have changed again since), and read back by the composer.
 */

/** The events of a plan a `plan_changed` message reports. */
export const PLAN_CHANGE_EVENTS = ['changed', 'paused', 'resumed', 'cancelled'] as const;
/** One of {@link PLAN_CHANGE_EVENTS}. */
export type PlanChangeEvent = (typeof PLAN_CHANGE_EVENTS)[number];

/** The event a change of the donor's (or staff's) makes: a pause, a resume, a cancellation, or any other change. */
export function planChangeEventOf(action: PlanChange['action']): PlanChangeEvent {
  switch (action) {
    case 'pause':
      return 'paused';
    case 'resume':
      return 'resumed';
    case 'cancel':
      return 'cancelled';
    default:
      return 'changed';
  }
}

/**
 * The dedupe key of the `plan_changed` message of plan `planId`'s `event`: `plan_changed:<plan id>:<event>:<uuid>`, one
 * message per change; a cancellation's is `plan_changed:<plan id>:cancelled`, the plan's only one (nothing changes a
 * cancelled plan), which the refund of a staff cancel finds (attachRefundToCancellationMail).
 */
export function planChangeDedupeKey(planId: string, event: PlanChangeEvent): string {
  return event === 'cancelled' ? `plan_changed:${planId}:cancelled` : `plan_changed:${planId}:${event}:${randomUUID()}`;
}

/**
 * The event a `plan_changed` message reports, from its dedupe key (planChangeDedupeKey); for a message enqueued before
 * its key named one (`plan_changed:<plan id>:<uuid>`), from the plan as it is now: `cancelled` or `changed`.
 */
export function planChangeEventOfMessage(dedupeKey: string, plan: Pick<RecurringPlanRow, 'status'>): PlanChangeEvent {
  const named = PLAN_CHANGE_EVENTS.find((event) => event === dedupeKey.split(':')[2]);
  return named ?? (plan.status === 'cancelled' ? 'cancelled' : 'changed');
}

/**
 * How long the cancellation e-mail of a staff cancel with refund waits for its refund, in ms: the refund is asked for
 * right after the cancel, in the same request, and its gateway call takes GATEWAY_TIMEOUT_MS (20 s by default) at most;
 * the request then releases the message at once (attachRefundToCancellationMail). Only a process that dies in between
 * leaves the message to go out after this, without the refund (whose own notice the donor gets anyway).
 */
export const CANCELLATION_MAIL_HOLD_MS = 5 * 60_000;

/**
 * Releases the held cancellation e-mail of plan `planId` (due at `now`), naming refund `refundId` when the refund was
 * made, so the message says the last gift was refunded; nothing when it was sent already. Rejects when the database fails.
 */
export async function attachRefundToCancellationMail(db: Database, planId: string, refundId: string | undefined, now: Date): Promise<void> {
  await db
    .update(mailOutbox)
    .set({ nextAttemptAt: now, ...(refundId === undefined ? {} : { refundId }) })
    .where(and(eq(mailOutbox.dedupeKey, planChangeDedupeKey(planId, 'cancelled')), eq(mailOutbox.status, 'pending')));
}

/** What a plan's donor gave through it: the gifts kept (succeeded, less what was refunded of them) and their total, in cents. */
export interface GivenThroughPlan {
  giftCount: number;
  totalCents: number;
}

/**
 * What plan `planId`'s donor gave through it so far (GivenThroughPlan): its succeeded charges, each for what was kept of
 * it (keptCentsSql); a charge refunded in full or disputed is not counted.
 */
export async function givenThroughPlan(db: Database, planId: string): Promise<GivenThroughPlan> {
  const [row] = await db
    .select({
      giftCount: sql<number>`count(*) FILTER (WHERE ${keptCentsSql} > 0)`.mapWith(Number),
      totalCents: sql<number>`coalesce(sum(${keptCentsSql}), 0)`.mapWith(Number),
    })
    .from(donations)
    .where(and(eq(donations.recurringPlanId, planId), eq(donations.status, 'succeeded')));
  return { giftCount: row?.giftCount ?? 0, totalCents: row?.totalCents ?? 0 };
}
