import type { I18n } from '@lingui/core';
import { CARD_BRAND_NAMES } from '../../../shared/card';
import { causeName } from '../../../shared/causes';
import { amountWithFrequency } from '../../../shared/frequencies';
import type { Locale } from '../../../shared/i18n/locales';
import { formatDollars } from '../../../shared/money';
import type { ManagedPlan } from '../../../shared/recurring-api';

/**
 * How the manage page words a plan (issue #13), in the page's language (issue #24); dates are UTC calendar dates,
 * as the server sends them.
 */

/** `February 28, 2027` / `28 de febrero de 2027` for `2027-02-28` (UTC), as `locale` writes dates (Intl). */
export function formatPlanDate(date: string, locale: Locale): string {
  return new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' }).format(new Date(date));
}

/** `$30 monthly` / `30 US$ al mes`. */
export function planAmountLabel(i18n: I18n, locale: Locale, plan: Pick<ManagedPlan, 'amount' | 'frequency'>): string {
  return amountWithFrequency(i18n, formatDollars(plan.amount, locale), plan.frequency);
}

/** The catalogue id of each status as the donor reads it. */
const PLAN_STATUS_IDS: Record<ManagedPlan['status'], string> = {
  active: /*i18n*/ 'manage.status.active',
  past_due: /*i18n*/ 'manage.status.pastDue',
  paused: /*i18n*/ 'manage.status.paused',
  cancelled: /*i18n*/ 'manage.status.cancelled',
};

/** The plan's status line: paused until a date, a renewal waiting for the bank's confirmation, or its status. */
function statusText(i18n: I18n, locale: Locale, plan: ManagedPlan): string {
  if (plan.pausedUntil) return i18n._('manage.status.pausedUntil', { date: formatPlanDate(plan.pausedUntil, locale) });
  if (plan.paymentToConfirm) return i18n._('manage.status.paymentToConfirm');
  return i18n._(PLAN_STATUS_IDS[plan.status]);
}

/**
 * When the plan charges (issue #13's calendar, recurring/calendar.ts), as `locale` says it (issue #24: ordinal days of
 * the month with ICU's selectordinal, `The 26th of each month` / `El día 26 de cada mes`; a yearly plan's day and month
 * with Intl, `Every year on November 26` / `Cada año el 26 de noviembre`). A monthly plan anchored after the 28th says
 * that a shorter month is charged on its last day.
 */
export function chargeDayText(i18n: I18n, locale: Locale, plan: Pick<ManagedPlan, 'anchorDate' | 'frequency'>): string {
  const anchor = new Date(plan.anchorDate);
  const day = anchor.getUTCDate();
  if (plan.frequency === 'yearly') {
    const date = new Intl.DateTimeFormat(locale, { month: 'long', day: 'numeric', timeZone: 'UTC' }).format(anchor);
    return i18n._('manage.chargeDay.yearly', { date });
  }
  return day > 28 ? i18n._('manage.chargeDay.monthlyOrLastDay', { day }) : i18n._('manage.chargeDay.monthly', { day });
}

/** The labelled lines of the plan's summary, in `i18n`'s language. Card brands are proper names (issue #24). */
export function planSummaryLines(i18n: I18n, locale: Locale, plan: ManagedPlan): Array<{ label: string; value: string }> {
  const brand = plan.card.brand === 'unknown' ? i18n._('card.brandUnknown') : CARD_BRAND_NAMES[plan.card.brand];
  return [
    { label: i18n._('manage.summary.gift'), value: planAmountLabel(i18n, locale, plan) },
    { label: i18n._('manage.summary.cause'), value: causeName(i18n, plan.cause) },
    { label: i18n._('manage.summary.status'), value: statusText(i18n, locale, plan) },
    { label: i18n._('manage.summary.nextCharge'), value: plan.nextChargeOn ? formatPlanDate(plan.nextChargeOn, locale) : i18n._('manage.summary.none') },
    ...(plan.status === 'cancelled' ? [] : [{ label: i18n._('manage.summary.chargeDay'), value: chargeDayText(i18n, locale, plan) }]),
    { label: i18n._('manage.summary.card'), value: i18n._('manage.summary.cardEnding', { brand, last4: plan.card.last4 }) },
  ];
}
