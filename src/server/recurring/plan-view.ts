import type { I18n } from '@lingui/core';
import { CARD_BRAND_NAMES } from '../../shared/card';
import { causeName } from '../../shared/causes';
import { amountWithFrequency } from '../../shared/frequencies';
import type { Locale } from '../../shared/i18n/locales';
import type { RecurringPlanRow } from '../db/schema';
import { serverI18n } from '../i18n/catalogues';
import { formatAmountCents, formatReceiptDate } from '../receipts/receipt-view';
import { startOfDay } from './calendar';

/**
 * What the e-mails of a plan say of it, in one place (issue #13), in the plan's language or another one (issue #24).
 * Amounts come in as integer cents.
 */

/**
 * Catalogue ids of the words of a plan status for the donor: the manage page's own (`Active`, `Paused`, ...), so the
 * e-mail names a status as the page its link opens does (issue #24).
 */
export const PLAN_STATUS_LABEL_IDS: Record<RecurringPlanRow['status'], string> = {
  active: /*i18n*/ 'manage.status.active',
  past_due: /*i18n*/ 'manage.status.pastDue',
  paused: /*i18n*/ 'manage.status.paused',
  cancelled: /*i18n*/ 'manage.status.cancelled',
};

/** A plan status's words in `i18n`'s language: `Payment failed: we will try again`, `En pausa`. */
export function planStatusLabel(i18n: I18n, status: RecurringPlanRow['status']): string {
  return i18n._(PLAN_STATUS_LABEL_IDS[status]);
}

/**
 * A plan's amount and frequency in `locale` (the plan's own by default): `$30.00 USD monthly`, `30 US$ al mes`
 * (formatAmountCents in page.amountWithFrequency's pattern).
 */
export function planAmountLine(plan: Pick<RecurringPlanRow, 'amountCents' | 'currency' | 'frequency' | 'locale'>, locale: Locale = plan.locale): string {
  return amountWithFrequency(serverI18n(locale), formatAmountCents(plan.amountCents, plan.currency, locale), plan.frequency);
}

/**
 * The labelled lines of a plan, in `locale` (the plan's own by default; a manage-links e-mail lists every plan in its
 * own language): gift, cause, status, next charge (when one is planned), card.
 */
export function planLines(plan: RecurringPlanRow, locale: Locale = plan.locale): Array<{ label: string; value: string }> {
  const i18n = serverI18n(locale);
  const charging = plan.status === 'active' || plan.status === 'past_due';
  return [
    { label: i18n._('email.plan.line.gift'), value: planAmountLine(plan, locale) },
    { label: i18n._('email.plan.line.cause'), value: causeName(i18n, plan.cause) },
    { label: i18n._('email.plan.line.status'), value: planStatusLabel(i18n, plan.status) },
    ...(charging
      ? [{ label: i18n._('email.plan.line.nextCharge'), value: formatReceiptDate(plan.status === 'past_due' ? plan.nextAttemptAt : startOfDay(plan.nextChargeOn), locale) }]
      : []),
    { label: i18n._('email.plan.line.card'), value: i18n._('pdf.receipt.cardEnding', { brand: CARD_BRAND_NAMES[plan.cardBrand], last4: plan.cardLast4 }) },
  ];
}
