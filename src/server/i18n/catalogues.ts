import { readFileSync } from 'node:fs';
import type { I18n } from '@lingui/core';
import { i18nWithCatalogue } from '../../shared/i18n/compile-catalogue';
import { type Locale, LOCALES } from '../../shared/i18n/locales';

/**
 * The server's catalogues (issue #24): every language's whole catalogue (src/locales/<locale>.json, every part:
 * e-mails, the PDF receipt, and the texts they share with the pages), compiled once at start. Read from the folder
 * next to this module's source, so the server needs no build for its texts, and a new language no line here.
 */
const instances = new Map<Locale, I18n>(
  LOCALES.map((locale) => {
    const raw = JSON.parse(readFileSync(new URL(`../../locales/${locale}.json`, import.meta.url), 'utf8')) as Record<string, string>;
    return [locale, i18nWithCatalogue(locale, raw)];
  }),
);

/**
 * The Lingui instance of `locale`: `serverI18n('es')._('email.receipt.subject', { receiptNumber })` is the Spanish
 * text. Every instance is active in its own language, so concurrent requests in different languages never mix.
 */
export function serverI18n(locale: Locale): I18n {
  const i18n = instances.get(locale);
  if (!i18n) throw new Error(`No catalogue for ${locale}`);
  return i18n;
}
