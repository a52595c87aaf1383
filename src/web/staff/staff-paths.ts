import { STAFF_PAGES as SHARED_STAFF_PAGES } from '../../shared/staff/paths';

/**
 * Every page path of the staff back office (issue #21) as the router matches it: the shared STAFF_PAGES (which the
 * server's e-mails link to), with their parameters (`:token`, `:id`), and the pages only the web app links to.
 */
export const STAFF_PAGES = {
  /** The back office's start: the dashboard (issue #22). */
  root: SHARED_STAFF_PAGES.root,
  /** "Sign in with a passkey" and "Email me a sign-in link". */
  signIn: SHARED_STAFF_PAGES.signIn,
  /** The page an e-mailed sign-in link opens: a "Sign in" button that POSTs the token (a GET consumes nothing). */
  signInLink: `${SHARED_STAFF_PAGES.signInLinkPrefix}:token`,
  /** The page an invitation opens: "Create a passkey". */
  enroll: `${SHARED_STAFF_PAGES.enrollPrefix}:token`,
  donations: SHARED_STAFF_PAGES.donations,
  /** Issue #37: record a gift received outside the site, or import a CSV of them. */
  newDonation: SHARED_STAFF_PAGES.newDonation,
  donation: `${SHARED_STAFF_PAGES.donations}/:id`,
  audit: SHARED_STAFF_PAGES.audit,
  team: SHARED_STAFF_PAGES.team,
  plans: SHARED_STAFF_PAGES.plans,
  plan: `${SHARED_STAFF_PAGES.plans}/:id`,
  donors: SHARED_STAFF_PAGES.donors,
  donor: `${SHARED_STAFF_PAGES.donors}/:id`,
  mail: SHARED_STAFF_PAGES.mail,
  campaigns: SHARED_STAFF_PAGES.campaigns,
  campaign: `${SHARED_STAFF_PAGES.campaigns}/:id`,
  /** Issue #38: outgoing webhook endpoints (admin). */
  integrations: SHARED_STAFF_PAGES.integrations,
  /** The signed-in member's passkeys: list, add, remove. */
  passkeys: `${SHARED_STAFF_PAGES.root}/passkeys`,
} as const;

/** The page of one donation: `/staff/donations/<id>`. */
export function donationPagePath(id: string): string {
  return `${STAFF_PAGES.donations}/${encodeURIComponent(id)}`;
}

/** The page of one recurring plan: `/staff/plans/<id>` (issue #22). */
export function planPagePath(id: string): string {
  return `${STAFF_PAGES.plans}/${encodeURIComponent(id)}`;
}

/** The page of one donor: `/staff/donors/<donor key>` (issue #22; the key: server/staff/shared/donor-key.ts). */
export function donorPagePath(donorKey: string): string {
  return `${STAFF_PAGES.donors}/${encodeURIComponent(donorKey)}`;
}

/** The page of one campaign: `/staff/campaigns/<id>` (issue #34). */
export function campaignPagePath(id: string): string {
  return `${STAFF_PAGES.campaigns}/${encodeURIComponent(id)}`;
}
