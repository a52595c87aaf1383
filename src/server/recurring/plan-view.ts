import { CARD_BRAND_NAMES } from '../../shared/card';
import { CAUSE_DETAILS } from '../../shared/causes';
import { FREQUENCY_ADJECTIVES } from '../../shared/frequencies';
import type { RecurringPlanRow } from '../db/schema';
import { formatAmountCents, formatReceiptDate } from '../receipts/receipt-view';
import { startOfDay } from './calendar';

/** What the e-mails of a plan say of it, in one place (issue #13). Amounts come in as integer cents. */

/** Words of a plan status for the donor. */
export const PLAN_STATUS_LABELS: Record<RecurringPlanRow['status'], string> = {
  active: 'Active',
  past_due: 'Payment failed: we will try again',
  paused: 'Paused',
  cancelled: 'Cancelled',
};

/** `$30.00 USD monthly`: a plan's amount and frequency. */
export function planAmountLine(plan: Pick<RecurringPlanRow, 'amountCents' | 'currency' | 'frequency'>): string {
  return `${formatAmountCents(plan.amountCents, plan.currency)} ${FREQUENCY_ADJECTIVES[plan.frequency]}`;
}

/** The labelled lines of a plan: gift, cause, status, next charge (when one is planned), card. */
export function planLines(plan: RecurringPlanRow): Array<{ label: string; value: string }> {
  const charging = plan.status === 'active' || plan.status === 'past_due';
  return [
    { label: 'Your gift', value: planAmountLine(plan) },
    { label: 'Cause', value: CAUSE_DETAILS[plan.cause].displayName },
    { label: 'Status', value: PLAN_STATUS_LABELS[plan.status] },
    ...(charging ? [{ label: 'Next charge', value: formatReceiptDate(plan.status === 'past_due' ? plan.nextAttemptAt : startOfDay(plan.nextChargeOn)) }] : []),
    { label: 'Card', value: `${CARD_BRAND_NAMES[plan.cardBrand]} ending in ${plan.cardLast4}` },
  ];
}
