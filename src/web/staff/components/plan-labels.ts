import type { StaffPlanStatus } from '../../../shared/staff/plans-api';

/**
 * The words of the plans pages (issue #22): a plan's status, and each change's action and who made it, as staff read
 * them in the history of a plan.
 */

/** A plan's status in words. */
export const PLAN_STATUS_LABELS: Record<StaffPlanStatus, string> = {
  active: 'Active',
  past_due: 'Past due',
  paused: 'Paused',
  cancelled: 'Cancelled',
};

/** Each recorded change's action in words (the donor's and staff's changes, the billing runner's); others as written. */
const ACTION_LABELS: Record<string, string> = {
  change_amount: 'Amount changed',
  change_cause: 'Cause changed',
  update_card: 'Card replaced',
  use_setup_intent: 'Card replaced',
  pause: 'Paused',
  resume: 'Resumed',
  cancel: 'Cancelled',
  past_due: 'Renewal declined: past due',
  retry_scheduled: 'Retry declined: next retry scheduled',
  paused_after_failures: 'Paused after the last retry was declined',
  resumed_after_pause: 'Resumed at the end of its pause',
  recovered: 'Renewal paid: active again',
};

/** A change's action in words. */
export function planActionLabel(action: string): string {
  return ACTION_LABELS[action] ?? action.replaceAll('_', ' ');
}

/** Who made a change, in words: the donor, a staff member (their address), or the billing runner. */
export function planActorLabel(actorType: 'donor' | 'staff' | 'billing', staffEmail: string | null): string {
  if (actorType === 'staff') return `Staff: ${staffEmail ?? 'unknown'}`;
  return actorType === 'donor' ? 'Donor (manage link)' : 'Billing runner';
}
