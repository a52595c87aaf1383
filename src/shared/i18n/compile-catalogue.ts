import { type I18n, setupI18n } from '@lingui/core';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import type { Locale } from './locales';

/**
 * A Lingui instance active in `locale` holding `raw`, one language's catalogue as stored (src/locales/<locale>.json:
 * id → ICU MessageFormat text), compiled with Lingui's own compiler (issue #24). For the server, which compiles its
 * catalogues once at start, and for tests; the browser gets catalogues compiled at build time instead
 * (scripts/vite-catalogues.ts), so it never loads the compiler.
 */
export function i18nWithCatalogue(locale: Locale, raw: Record<string, string>): I18n {
  const messages = Object.fromEntries(Object.entries(raw).map(([id, text]) => [id, compileMessage(text)]));
  return setupI18n({ locale, messages: { [locale]: messages } });
}
