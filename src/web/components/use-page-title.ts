import { useEffect } from 'react';
import { useTranslation } from '../i18n/use-translation';

/**
 * Sets the document title for the current screen, in the page's language (issue #24): 'Complete Your Donation |
 * Belize Barrier Reef Donations', or the site name alone (`site.name`) when `screenTitle` (already translated) is
 * omitted, so each screen of the single-page app has its own title (WCAG 2.4.2, Page Titled).
 */
export function usePageTitle(screenTitle?: string): void {
  const { i18n } = useTranslation();
  const site = i18n._('site.name');
  const title = screenTitle ? `${screenTitle} | ${site}` : site;
  useEffect(() => {
    document.title = title;
  }, [title]);
}
