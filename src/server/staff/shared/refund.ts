import { refundDonation, type RefundDeps, type RefundOutcome } from '../../admin/refund';
import type { StaffActor } from '../identity/audit-record';
import { DONATION_AUDIT_ACTIONS, DONATION_SUBJECT } from './donation-audit';

/**
 * Refunds a donation for staff through the operator's refund (admin/refund.ts refundDonation: the same gateway call
 * under the same idempotency rules, never more than what is left, the donor's notice, the receipt voided or
 * corrected), with `reason` and the amount in the audit entry. The entry is kept with the pending refund and written in
 * the transaction that settles it (decision 0095), whoever settles it: the request, or the reconciler after a failure.
 * `amountCents` undefined refunds all that is left. Resolves with refundDonation's outcome (a replay writes no second
 * entry); rejects as it does (outcome unknown).
 */
export function refundForStaff(
  deps: RefundDeps,
  asked: { donationId: string; amountCents: number | undefined; reason: string; idempotencyKey: string },
  actor: StaffActor,
): Promise<RefundOutcome> {
  return refundDonation(deps, {
    donationId: asked.donationId,
    amountCents: asked.amountCents,
    idempotencyKey: asked.idempotencyKey,
    auditEntry: {
      actorStaffId: actor.staffMember.id,
      actorEmail: actor.staffMember.email,
      requestId: actor.requestId,
      action: DONATION_AUDIT_ACTIONS.refund,
      subjectType: DONATION_SUBJECT,
      subjectId: asked.donationId,
      details: { reason: asked.reason },
    },
  });
}
