import { useEffect } from 'react';
import { SITE_NAME } from '../content/site-copy';

/**
 * Sets the document title for the current screen: 'Complete Your Donation | Belize Barrier Reef
 * Donations', or the site name alone when `screenTitle` is omitted, so each screen of the
 * single-page app has its own title (WCAG 2.4.2, Page Titled).
 */
export function usePageTitle(screenTitle?: string): void {
  useEffect(() => {
    document.title = screenTitle ? `${screenTitle} | ${SITE_NAME}` : SITE_NAME;
  }, [screenTitle]);
}
