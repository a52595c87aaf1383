import { CARD_BRAND_NAMES } from '../../../shared/card';
import { CAUSE_DETAILS } from '../../../shared/causes';
import { FREQUENCY_ADJECTIVES } from '../../../shared/frequencies';
import { formatDollars } from '../../../shared/money';
import type { ManagedPlan } from '../../../shared/recurring-api';

/** How the manage page words a plan (issue #13); dates are UTC calendar dates, as the server sends them. */

const dateFormat = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

/** `February 28, 2027` for `2027-02-28` (UTC). */
export function formatPlanDate(date: string): string {
  return dateFormat.format(new Date(`${date}T00:00:00Z`));
}

/** `$30 monthly`. */
export function planAmountLabel(plan: Pick<ManagedPlan, 'amount' | 'frequency'>): string {
  return `${formatDollars(plan.amount)} ${FREQUENCY_ADJECTIVES[plan.frequency]}`;
}

/** The status as the donor reads it. */
export const PLAN_STATUS_TEXT: Record<ManagedPlan['status'], string> = {
  active: 'Active',
  past_due: 'Payment failed: we will try again',
  paused: 'Paused',
  cancelled: 'Cancelled',
};

/** The status of a plan whose renewal waits for the donor to confirm it with their bank (Stripe's authentication_required). */
export const PAYMENT_TO_CONFIRM_STATUS = 'Payment waiting for your confirmation';

/** The labelled lines of the plan's summary. */
export function planSummaryLines(plan: ManagedPlan): Array<{ label: string; value: string }> {
  return [
    { label: 'Gift', value: planAmountLabel(plan) },
    { label: 'Cause', value: CAUSE_DETAILS[plan.cause].displayName },
    { label: 'Status', value: plan.pausedUntil ? `Paused until ${formatPlanDate(plan.pausedUntil)}` : plan.paymentToConfirm ? PAYMENT_TO_CONFIRM_STATUS : PLAN_STATUS_TEXT[plan.status] },
    { label: 'Next charge', value: plan.nextChargeOn ? formatPlanDate(plan.nextChargeOn) : 'None' },
    { label: 'Card', value: `${CARD_BRAND_NAMES[plan.card.brand]} ending in ${plan.card.last4}` },
  ];
}
