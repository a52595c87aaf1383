/**
 * Every route path of the site, defined once (spec section 2, "Screens and routes").
 * Screens, links and redirects import these rather than spelling a path themselves.
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
} as const;

/** One of the site's route paths. */
export type AppPath = (typeof PATHS)[keyof typeof PATHS];
