import { useEffect } from 'react';
import { pageAlternates } from '../../shared/i18n/page-head';
import type { Locale } from '../../shared/i18n/locales';
import { isStaffPagePath } from '../../shared/site-paths';

/** The `<link rel="alternate" hreflang>` tags this module writes, told from others by this attribute. */
const ALTERNATE_SELECTOR = 'link[rel="alternate"][hreflang]';

/**
 * Keeps the document's language facts right as the donor navigates in the app (issue #24): `<html lang>` is
 * `locale`, and `<head>` has the `hreflang` alternates of `pathname` (absolute URLs on the page's origin), replacing
 * those of the page before (or those the server sent). The staff back office (English only) gets none.
 */
export function useDocumentLanguage(locale: Locale, pathname: string): void {
  useEffect(() => {
    document.documentElement.lang = locale;
  }, [locale]);
  useEffect(() => {
    const alternates = isStaffPagePath(pathname) ? [] : pageAlternates(pathname, window.location.origin);
    for (const link of document.head.querySelectorAll(ALTERNATE_SELECTOR)) link.remove();
    for (const { hrefLang, href } of alternates) {
      const link = document.createElement('link');
      link.rel = 'alternate';
      link.hreflang = hrefLang;
      link.href = href;
      document.head.append(link);
    }
  }, [pathname]);
}
