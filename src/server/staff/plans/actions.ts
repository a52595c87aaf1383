import { eq } from 'drizzle-orm';
import type { PlanChange } from '../../../shared/recurring-api';
import { PLAN_AUDIT_ACTIONS, PLAN_CHANGE_AUDIT_ACTIONS, PLAN_SUBJECT } from '../../../shared/staff/audit-actions';
import { centsToDollars } from '../../../shared/money';
import type { StaffPlanChangeRequest } from '../../../shared/staff/plans-api';
import type { Database } from '../../db/client';
import { donations, recurringPlans } from '../../db/schema';
import { applyPlanChange, type PlanChangeDeps, type PlanChangeOutcome } from '../../recurring/manage';
import { CANCELLATION_MAIL_HOLD_MS } from '../../recurring/plan-change-mail';
import { requestManageLinks } from '../../recurring/manage-routes';
import { recordStaffAction } from '../identity/audit-record';
import type { StaffActor } from '../identity/audit-record';

/**
 * The staff's actions on a recurring plan (issue #22, "Actions"): each change goes through the donor's own code
 * (recurring/manage.ts applyPlanChange: from the next charge, the donor e-mailed, 409 while a charge is under way,
 * nothing changes a cancelled plan), with the staff member as the actor of its history row and its audit entry written
 * in the change's transaction; the manage link e-mailed to the donor through the donor's own request
 * (requestManageLinks), audited in its transaction. The refund of a cancel is part 1's (staff/shared/refund.ts refundForStaff).
 */

/** Audit subject type of a plan and the actions of this part (the manage link sent): shared/staff/audit-actions.ts. */
export { PLAN_AUDIT_ACTIONS, PLAN_SUBJECT };

/** The audit action of a staff change (`plan.change_amount`, `plan.cancel`...: PLAN_CHANGE_AUDIT_ACTIONS). */
export function planAuditAction(action: StaffPlanChangeRequest['action']): string {
  return PLAN_CHANGE_AUDIT_ACTIONS[action];
}

/** The donor's change a staff request makes (the amount in cents becomes the donor API's dollars, exactly). */
export function planChangeOf(request: StaffPlanChangeRequest): PlanChange {
  switch (request.action) {
    case 'change_amount':
      return { action: 'change_amount', amount: centsToDollars(request.amountCents) };
    case 'cancel':
      return { action: 'cancel' };
    default:
      return request;
  }
}

/**
 * Applies a staff member's `request` to plan `planId` at `now` through applyPlanChange (the donor's code), with the
 * change's history row naming the member and the audit entry (`plan.<action>`: the plan before and after, in cents;
 * `refundLastCharge` and the `reason` for a cancel) written in its transaction, a cancel's reason stored on the plan
 * there too (issue #36); the e-mail of a cancel with refund held
 * CANCELLATION_MAIL_HOLD_MS for its refund. Resolves with applyPlanChange's outcome.
 */
export function changePlanForStaff(deps: PlanChangeDeps, planId: string, request: StaffPlanChangeRequest, actor: StaffActor, now: Date): Promise<PlanChangeOutcome> {
  return applyPlanChange(deps, planId, planChangeOf(request), now, {
    actor: { type: 'staff', staffMemberId: actor.staffMember.id },
    // Decision 0097b: the cancellation e-mail of a cancel with refund waits for its refund (attachRefundToCancellationMail).
    ...(request.action === 'cancel' && request.refundLastCharge ? { mailDueAt: new Date(now.getTime() + CANCELLATION_MAIL_HOLD_MS) } : {}),
    alongside: async (tx, changed, before) => {
      // Issue #36: the reason staff gave is kept on the plan (its page shows it) and in the audit entry.
      const cancelReason = request.action === 'cancel' ? (request.cancelReason ?? null) : null;
      if (cancelReason !== null) await tx.update(recurringPlans).set({ cancelReason }).where(eq(recurringPlans.id, planId));
      await recordStaffAction(tx, {
        ...actor,
        action: planAuditAction(request.action),
        subjectType: PLAN_SUBJECT,
        subjectId: planId,
        details: {
          before: { status: before.status, amountCents: before.amountCents, cause: before.cause, pausedUntil: before.pausedUntil },
          after: { status: changed.status, amountCents: changed.amountCents, cause: changed.cause, pausedUntil: changed.pausedUntil },
          ...(request.action === 'cancel' ? { refundLastCharge: request.refundLastCharge, ...(cancelReason === null ? {} : { reason: cancelReason }) } : {}),
        },
      });
    },
  });
}

/** What became of a manage link e-mail: `sent` (`queued` false when one went to the address within the hour), `not_found`, `cancelled`. */
export type ManageLinkOutcome = { kind: 'sent'; queued: boolean } | { kind: 'not_found' } | { kind: 'cancelled' };

/**
 * E-mails the donor of plan `planId` their manage links (issue #22: "e-mail the donor their manage link (staff never
 * see the link itself)") through the donor's own request (recurring/manage-routes.ts requestManageLinks: the same
 * `manage_links` message, at most one per address per hour), with the audit entry (the recipient, whether one was
 * queued now) in the same transaction. A cancelled plan has nothing to manage: `cancelled`, nothing written.
 */
export async function sendManageLinkForStaff(db: Database, planId: string, actor: StaffActor, now: Date): Promise<ManageLinkOutcome> {
  return db.transaction(async (tx): Promise<ManageLinkOutcome> => {
    const [plan] = await tx
      .select({ status: recurringPlans.status, email: donations.donorEmail })
      .from(recurringPlans)
      .innerJoin(donations, eq(donations.id, recurringPlans.firstDonationId))
      .where(eq(recurringPlans.id, planId));
    if (!plan) return { kind: 'not_found' };
    if (plan.status === 'cancelled') return { kind: 'cancelled' };
    const queued = await requestManageLinks(tx, plan.email, now);
    await recordStaffAction(tx, { ...actor, action: PLAN_AUDIT_ACTIONS.manageLinkSent, subjectType: PLAN_SUBJECT, subjectId: planId, details: { recipient: plan.email, queued } });
    return { kind: 'sent', queued };
  });
}
