import { LOCALE_SECTIONS } from './i18n/locale-paths';
/**
 * Every route path of the site, defined once (spec section 2, "Screens and routes").
 * Screens, links and redirects import these rather than spelling a path themselves; the server reads them to know
 * which request paths are pages (isPageSectionPath). Shared, as the server may not import src/web.
 */
export const PATHS = {
  /** The empty path: redirects to the selection screen. */
  root: '/',
  /** Selection screen: amount, frequency and cause. */
  donate: '/donate',
  /** Donation form: donor and card details. */
  donationForm: '/donate/form',
  /** Thank-you page after a successful donation. */
  thankYou: '/donate/thank-you',
  /** Where a donor asks for their receipts again (issue #12); the e-mails link to it (shared RECEIPTS_PAGE_PATH). */
  receipts: '/donate/receipts',
  /** Where a donor asks for the links to manage their recurring gifts (issue #13; shared MANAGE_PAGE_PATH). */
  manage: '/donate/manage',
  /** One recurring gift's manage page, reached from the signed link of its e-mails (shared MANAGE_PLAN_PAGE_PATH). */
  managePlan: '/donate/manage/:token',
  /**
   * The staff back office (issue #21): every path under it is a staff page (src/shared/staff-page-paths.ts), loaded
   * lazily, never with /donate; the server answers them `no-store` and `noindex` (isStaffPagePath).
   */
  staff: '/staff',
} as const;

/** One of the site's route paths. */
export type AppPath = (typeof PATHS)[keyof typeof PATHS];

/** Builds {@link PAGE_SECTIONS}. */
function pageSections(): readonly string[] {
  return [...new Set(Object.values(PATHS).flatMap((route) => route.split('/').filter(Boolean).slice(0, 1))), ...LOCALE_SECTIONS];
}

/**
 * The sections of the site's pages: the first segment of every route but the root (`donate`, and each section a
 * route of {@link PATHS} adds, such as `staff`), and each language's prefix (`es`; issue #24).
 */
// NOTE: pure: only the server reads it; the browser, which imports this module for PATHS, must not build it (issue #5 budget).
export const PAGE_SECTIONS: readonly string[] = /* @__PURE__ */ pageSections();

/**
 * True when the request path `pathname` (no query string) is in a section of {@link PAGE_SECTIONS}: `/donate`,
 * `/donate/manage/a.b.c`. Such a path is a page whatever its last segment looks like (issue #19: a manage token's dots
 * made it look like a file name).
 */
export function isPageSectionPath(pathname: string): boolean {
  const [section] = pathname.split('/').filter(Boolean);
  return section !== undefined && PAGE_SECTIONS.includes(section);
}

/**
 * True when the request path `pathname` (no query string) is the staff back office or a page under it (`/staff`,
 * `/staff/donations/abc`; issue #21): the server answers those `Cache-Control: no-store` and `X-Robots-Tag: noindex`.
 */
export function isStaffPagePath(pathname: string): boolean {
  return pathname === PATHS.staff || pathname.startsWith(`${PATHS.staff}/`);
}
