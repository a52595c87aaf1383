import { I18nProvider } from '@lingui/react';
import { type ReactNode, use } from 'react';
import { Outlet, useLocation } from 'react-router';
import type { BrowserCataloguePart } from '../../shared/i18n/catalogue-parts';
import { localeOfPath } from '../../shared/i18n/locale-paths';
import type { Locale } from '../../shared/i18n/locales';
import { i18nFor, isCatalogueLoaded, loadCatalogue } from './catalogues';
import { useDocumentLanguage } from './document-language';

/** Suspends (React `use`) until `part` of `locale`'s catalogue is loaded; returns at once when it already is. */
export function useCataloguePart(locale: Locale, part: BrowserCataloguePart): void {
  if (!isCatalogueLoaded(locale, part)) use(loadCatalogue(locale, part));
}

/** The language of the current page, from its path (issue #24: `/es/...` is Spanish, every other path English). */
export function usePageLocale(): Locale {
  return localeOfPath(useLocation().pathname);
}

/**
 * Gives the tree below the Lingui instance of the page's language, with the landing part of its catalogue loaded
 * (suspending until it is; the source language's is bundled, so /donate never suspends). Lingui's `useLingui()`
 * then reads `i18n._('id')` in that language. Keeps `<html lang>` and the `hreflang` alternates of the page right
 * (useDocumentLanguage).
 */
export function LocaleProvider({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  const locale = localeOfPath(pathname);
  useCataloguePart(locale, 'landing');
  useDocumentLanguage(locale, pathname);
  return <I18nProvider i18n={i18nFor(locale)}>{children}</I18nProvider>;
}

/**
 * Layout route of the lazily loaded donor screens: suspends until the `screens` part of the page's language is
 * loaded, so a screen's texts are there when it renders, then renders the matched screen (`<Outlet />`).
 */
export function ScreensCatalogue() {
  useCataloguePart(usePageLocale(), 'screens');
  return <Outlet />;
}
