import type { I18n } from '@lingui/core';
import { useLingui } from '@lingui/react';
import { localizedPath } from '../../shared/i18n/locale-paths';
import type { Locale } from '../../shared/i18n/locales';

/**
 * The page's Lingui instance and its language (issue #24), for a component's texts: `i18n._('selection.heading')`
 * (Lingui's extractor finds such calls: `npx lingui extract`), `formatDollars(amount, locale)`.
 * Re-renders when the language changes.
 */
export function useTranslation(): { i18n: I18n; locale: Locale } {
  const { i18n } = useLingui();
  return { i18n, locale: i18n.locale as Locale };
}

/**
 * `path` (one of the spec's paths, PATHS) in the page's language: `/donate/form` on English pages, `/es/donate/form`
 * on Spanish ones (issue #24). Every donor-facing link and navigation goes through it.
 */
export function useLocalizedPath(): (path: string) => string {
  const { locale } = useTranslation();
  return (path) => localizedPath(locale, path);
}
