import type { I18n } from '@lingui/core';
import { amountError } from '../../../shared/amounts';
import { SOURCE_LOCALE } from '../../../shared/i18n/locales';
import { formatDollars, MAX_AMOUNT_DOLLARS, MIN_AMOUNT_DOLLARS } from '../../../shared/money';

/**
 * The custom amount field's message in the language of `i18n` (issue #24). `message` is one of the shared English
 * messages `parseCustomAmount` (src/shared/amounts.ts) gives with `minDollars` as the smallest amount: one of
 * `amountError`'s, or else NOT_AN_AMOUNT_MESSAGE. Returns its catalogue text (`amountError.*` ids, in the `screens`
 * part of the catalogue), the smallest and largest amounts written as the language writes dollars; or `message`
 * itself, the spec's English verbatim, in the source language and while the language's `screens` part is not loaded
 * yet (never an id).
 * NOTE: a chunk of its own, which the amount picker loads when the field opens on a page in another language, so the
 * landing screen carries neither these texts nor this code (issue #5, #24: /donate's JavaScript budget).
 * `amountError`'s messages are found by asking it for them, so they cannot drift apart; NOT_AN_AMOUNT_MESSAGE is the
 * one left (not imported: a constant the landing chunk would have to export, bytes on /donate). The unit test checks
 * every message the field can give.
 */
export function amountErrorText(i18n: I18n, message: string, minDollars: number): string {
  const locale = i18n.locale;
  if (locale === SOURCE_LOCALE || i18n.messages['amountError.notAnAmount'] === undefined) return message;
  switch (message) {
    case amountError(Number.NaN):
      return i18n._('amountError.notANumber');
    case amountError(0, minDollars):
      return i18n._('amountError.minimum', { amount: formatDollars(Math.max(minDollars, MIN_AMOUNT_DOLLARS), locale) });
    case amountError(Number.POSITIVE_INFINITY):
      return i18n._('amountError.maximum', { amount: formatDollars(MAX_AMOUNT_DOLLARS, locale) });
    case amountError(MIN_AMOUNT_DOLLARS + 0.001):
      return i18n._('amountError.decimals');
    default:
      return i18n._('amountError.notAnAmount');
  }
}
