import { useEffect } from 'react';
import type { Locale } from '../../shared/i18n/locales';

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
    // NOTE: `alternates.setDocumentAlternates`, not a destructured parameter, which Vite's preload rewrite would
    // expand into a longer wrapper (bytes on /donate, issue #5).
    void import('./document-alternates').then((alternates) => alternates.setDocumentAlternates(pathname));
  }, [pathname]);
}
