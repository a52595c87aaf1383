import type { I18n } from '@lingui/core';
import { SOURCE_LOCALE } from '../../shared/i18n/locales';

/**
 * The catalogue id of each stable API error code (ApiErrorSchema.code, src/shared/api.ts; issue #24): `error.<code>`.
 * The `/*i18n*\/` marks let `lingui extract` find them.
 */
const ERROR_MESSAGE_IDS: Readonly<Record<string, string>> = {
  card_declined: /*i18n*/ 'error.card_declined',
  insufficient_funds: /*i18n*/ 'error.insufficient_funds',
  expired_card: /*i18n*/ 'error.expired_card',
  incorrect_cvc: /*i18n*/ 'error.incorrect_cvc',
  processing_error: /*i18n*/ 'error.processing_error',
  incorrect_number: /*i18n*/ 'error.incorrect_number',
  too_many_attempts: /*i18n*/ 'error.too_many_attempts',
  invalid_input: /*i18n*/ 'error.invalid_input',
  csrf_failed: /*i18n*/ 'error.csrf_failed',
  foreign_origin: /*i18n*/ 'error.foreign_origin',
  internal_error: /*i18n*/ 'error.internal_error',
  service_unavailable: /*i18n*/ 'error.service_unavailable',
  idempotency_in_flight: /*i18n*/ 'error.idempotency_in_flight',
  payment_being_confirmed: /*i18n*/ 'error.payment_being_confirmed',
  payment_not_found: /*i18n*/ 'error.payment_not_found',
  amount_mismatch: /*i18n*/ 'error.amount_mismatch',
  payment_not_completed: /*i18n*/ 'error.payment_not_completed',
  plan_charge_under_way: /*i18n*/ 'error.plan_charge_under_way',
  plan_change_not_allowed: /*i18n*/ 'error.plan_change_not_allowed',
  pause_date_in_past: /*i18n*/ 'error.pause_date_in_past',
  pause_date_too_far: /*i18n*/ 'error.pause_date_too_far',
  payment_not_confirmed: /*i18n*/ 'error.payment_not_confirmed',
  setup_intent_not_saved: /*i18n*/ 'error.setup_intent_not_saved',
  not_found: /*i18n*/ 'error.not_found',
};

/** A failed call as the page knows it: the server's English `error` sentence and its stable `code`, if any. */
export interface ApiFailure {
  message: string;
  code?: string;
}

/**
 * The text the page shows for a failed API call (issue #24, decision 0093): on English pages the server's own
 * sentence (the spec's texts, unchanged); on other pages the catalogue's `error.<code>`, or `error.generic` when
 * the code is missing or unknown, so a Spanish page never shows an English server sentence.
 */
export function apiErrorMessage(i18n: I18n, failure: ApiFailure): string {
  if (i18n.locale === SOURCE_LOCALE) return failure.message;
  const id = failure.code === undefined ? undefined : ERROR_MESSAGE_IDS[failure.code];
  return id === undefined ? i18n._('error.generic') : i18n._(id);
}
