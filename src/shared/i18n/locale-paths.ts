import { isLocale, type Locale, LOCALES, SOURCE_LOCALE } from './locales';

/**
 * Paths per language (issue #24): the source language keeps the spec's paths (`/donate`), every other language has
 * them under its code (`/es/donate`).
 */

/** The path prefix of `locale`'s pages: '' for the source language, `/es` for Spanish. */
export function localePrefix(locale: Locale): string {
  return locale === SOURCE_LOCALE ? '' : `/${locale}`;
}

/** The prefixes of every language but the source language, as path sections (`es`): the server treats them as pages. */
export const LOCALE_SECTIONS: readonly string[] = /* @__PURE__ */ LOCALES.filter((locale) => locale !== SOURCE_LOCALE);

/** `path` (one of the spec's paths, such as `/donate/form?x=1`) in `locale`: `/es/donate/form?x=1` for Spanish. */
export function localizedPath(locale: Locale, path: string): string {
  return `${localePrefix(locale)}${path}`;
}

/** The language of a request path: Spanish for `/es` and below, the source language for any other path. */
export function localeOfPath(pathname: string): Locale {
  const [first] = pathname.split('/').filter(Boolean);
  return first !== undefined && first !== SOURCE_LOCALE && isLocale(first) ? first : SOURCE_LOCALE;
}

/** A request path without its language prefix: `/es/donate/form` → `/donate/form`; `/es` → `/`. */
export function unlocalizedPath(pathname: string): string {
  const locale = localeOfPath(pathname);
  if (locale === SOURCE_LOCALE) return pathname;
  return pathname.slice(localePrefix(locale).length) || '/';
}

/** The same screen in another language (the language switcher): `/es/donate/form` in English → `/donate/form`. */
export function switchLocaleOfPath(pathname: string, locale: Locale): string {
  return localizedPath(locale, unlocalizedPath(pathname));
}
