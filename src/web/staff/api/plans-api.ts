import type { z } from 'zod';
import { IDEMPOTENCY_KEY_HEADER } from '../../../shared/api';
import { STAFF_API, staffApiPath } from '../../../shared/staff/paths';
import type { StaffManageLinkAnswerSchema, StaffPlanChangeAnswer, StaffPlanDetail, StaffPlanListAnswer } from '../../../shared/staff/plans-api';
import { staffFetch } from './staff-fetch';

/** One page of plans, with the totals of the whole filtered set, for `query` (the page's own query string). */
export function fetchPlans(query: string): Promise<StaffPlanListAnswer> {
  return staffFetch(query ? `${STAFF_API.plans}?${query}` : STAFF_API.plans);
}

/** One plan's page: donor, card, next charge, dunning state, charges and changes. */
export function fetchPlan(id: string): Promise<StaffPlanDetail> {
  return staffFetch(staffApiPath(STAFF_API.plan, id));
}

/** A change of a plan as the staff API takes it (amount in cents; a cancel may refund the last charge). */
export type PlanChangeBody =
  | { action: 'change_amount'; amountCents: number }
  | { action: 'change_cause'; cause: string }
  | { action: 'pause'; until?: string }
  | { action: 'resume' }
  | { action: 'cancel'; cancelReason?: string; refundLastCharge?: boolean; reason?: string };

/**
 * Changes plan `id` (POST its changes), under `idempotencyKey` when given (a cancel with refund: one key per dialog, so
 * a retry refunds once). Rejects with a StaffApiError: 409 while a charge is under way, 403 `staff_reauth_required`.
 */
export function changePlan(id: string, body: PlanChangeBody, idempotencyKey?: string): Promise<StaffPlanChangeAnswer> {
  return staffFetch(staffApiPath(STAFF_API.planChanges, id), {
    method: 'POST',
    json: body,
    ...(idempotencyKey ? { headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey } } : {}),
  });
}

/** E-mails the plan's donor their manage link (staff never see it); `queued` false when one went within the hour. */
export function sendManageLink(id: string): Promise<z.infer<typeof StaffManageLinkAnswerSchema>> {
  return staffFetch(staffApiPath(STAFF_API.planManageLink, id), { method: 'POST' });
}
