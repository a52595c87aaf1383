import { EMBED_PATH_PREFIX } from '../../../shared/embed-path-prefix';

/**
 * Whether the page is one of the framed donation pages (issue #35; decision 0104), apart from the frame's own code: the
 * landing stage reads it before it loads that code, only on a framed page (issue #5's budget: /donate carries none).
 */

/** True when this page is a framed page (its path starts with `/embed/`). */
export function isEmbeddedPage(pathname: string = window.location.pathname): boolean {
  return pathname.startsWith(`${EMBED_PATH_PREFIX}/`);
}

/** `pathname` without the framed pages' prefix (`/embed/es/donate` → `/es/donate`), as the app's routes see it. */
export function appPathname(pathname: string = window.location.pathname): string {
  return isEmbeddedPage(pathname) ? pathname.slice(EMBED_PATH_PREFIX.length) : pathname;
}
