import { STAFF_PAGES } from '../../staff-paths';

/** Query parameter of the sign-in page: the staff page to return to after signing in. */
export const NEXT_PARAM = 'next';

/** The sign-in page's path that returns to `next` (a staff page's path and query) afterwards. */
export function signInPathFor(next: string): string {
  return `${STAFF_PAGES.signIn}?${new URLSearchParams({ [NEXT_PARAM]: next }).toString()}`;
}

/**
 * Where to go after signing in: the `next` of the sign-in page's `search` when it is a staff page of this site (a path
 * under /staff, never another origin: OWASP Unvalidated Redirects), else the dashboard (issue #22: the page staff land on).
 */
export function pageAfterSignIn(search: string): string {
  const next = new URLSearchParams(search).get(NEXT_PARAM) ?? '';
  return next.startsWith(`${STAFF_PAGES.root}/`) && !next.startsWith('//') && !next.startsWith(STAFF_PAGES.signIn) ? next : STAFF_PAGES.root;
}
