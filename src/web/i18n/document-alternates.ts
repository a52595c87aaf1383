import { pageAlternates } from '../../shared/i18n/page-head';
import { isStaffPagePath } from '../../shared/site-paths';

const ALTERNATE_SELECTOR = 'link[rel="alternate"][hreflang]';

/**
 * Replaces the document's `<link rel="alternate" hreflang>` tags with those of `pathname` (issue #24; none on staff
 * pages). Loaded on demand after the first render: the pre-rendered pages and the server's shell carry their own, so
 * /donate's start does not load this.
 */
export function setDocumentAlternates(pathname: string): void {
  const alternates = isStaffPagePath(pathname) ? [] : pageAlternates(pathname, window.location.origin);
  for (const link of document.head.querySelectorAll(ALTERNATE_SELECTOR)) link.remove();
  for (const { hrefLang, href } of alternates) {
    const link = document.createElement('link');
    link.rel = 'alternate';
    link.hreflang = hrefLang;
    link.href = href;
    document.head.append(link);
  }
}
