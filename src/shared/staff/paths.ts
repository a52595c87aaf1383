/**
 * Every path of the staff API (issue #21), defined once for the server's routes, the pages and the tests (DESIGN.md,
 * example 3). Paths with a parameter are Fastify route patterns (`:id`); {@link staffApiPath} fills them in.
 */

/** The operator's invitation of a staff member (bearer ADMIN_TOKEN; issue #21, "The first staff member"). */
export const ADMIN_STAFF_PATH = '/api/admin/staff';

/** Prefix of every staff API route. */
export const STAFF_API_PREFIX = '/api/staff/';

/** The staff API's routes (issue #21, "API"). Identity (sessions, passkeys, team, audit) and donations. */
export const STAFF_API = {
  session: '/api/staff/session',
  enrollOptions: '/api/staff/enroll/options',
  enrollVerify: '/api/staff/enroll/verify',
  signInOptions: '/api/staff/sign-in/options',
  signInVerify: '/api/staff/sign-in/verify',
  signInEmail: '/api/staff/sign-in/email',
  signInLink: '/api/staff/sign-in/link',
  signOut: '/api/staff/sign-out',
  passkeys: '/api/staff/passkeys',
  passkeyOptions: '/api/staff/passkeys/options',
  passkeyVerify: '/api/staff/passkeys/verify',
  passkey: '/api/staff/passkeys/:id',
  team: '/api/staff/team',
  teamMember: '/api/staff/team/:id',
  audit: '/api/staff/audit',
  donations: '/api/staff/donations',
  donationsExport: '/api/staff/donations/export',
  donation: '/api/staff/donations/:id',
  donationReceiptPdf: '/api/staff/donations/:id/receipt.pdf',
  donationRefunds: '/api/staff/donations/:id/refunds',
  donationReceiptResend: '/api/staff/donations/:id/receipt/resend',
  donationEmail: '/api/staff/donations/:id/email',
  /** Issue #22: the figures at a glance. */
  dashboard: '/api/staff/dashboard',
  /** Issue #22: recurring plans, a plan, its changes (POST an action) and the e-mail of its manage link to the donor. */
  plans: '/api/staff/plans',
  plan: '/api/staff/plans/:id',
  planChanges: '/api/staff/plans/:id/changes',
  planManageLink: '/api/staff/plans/:id/manage-link',
  /** Issue #22: donors (one per e-mail address, case-insensitive), a donor by key, a year's statement sent again. */
  donors: '/api/staff/donors',
  donor: '/api/staff/donors/:id',
  donorStatementResend: '/api/staff/donors/:id/statements/resend',
  /** Issue #36: a donor's address corrected on every gift, receipt and plan; another donor merged in; a note; a merge undone. */
  donorEmail: '/api/staff/donors/:id/email',
  donorMerges: '/api/staff/donors/:id/merges',
  donorNotes: '/api/staff/donors/:id/notes',
  donorMergeUndo: '/api/staff/donor-merges/:id/undo',
  /** Issue #22: the mail outbox as staff need it, and a message sent again now. */
  mail: '/api/staff/mail',
  mailRetry: '/api/staff/mail/:id/retry',
  /** Issue #34: campaigns (list, create), a campaign (page, edit). */
  campaigns: '/api/staff/campaigns',
  campaign: '/api/staff/campaigns/:id',
  /** Issue #34: hide a supporter of a campaign's list (`:donationId` the gift's). */
  campaignSupporterHide: '/api/staff/campaigns/:id/supporters/:donationId/hide',
  /** Issue #38: outgoing webhook endpoints (list, add), and an endpoint's rotate, pause, resume, test and delivery log. */
  integrations: '/api/staff/integrations',
  integrationRotate: '/api/staff/integrations/:id/rotate',
  integrationPause: '/api/staff/integrations/:id/pause',
  integrationResume: '/api/staff/integrations/:id/resume',
  integrationTest: '/api/staff/integrations/:id/test',
  integrationDeliveries: '/api/staff/integrations/:id/deliveries',
  integrationResend: '/api/staff/integrations/:id/deliveries/:deliveryId/resend',
  /** Issue #37: gifts received outside the site: record one, void one, check or record a CSV, the CSV's template. */
  offlineGifts: '/api/staff/offline-gifts',
  offlineGiftVoid: '/api/staff/offline-gifts/:id/void',
  offlineGiftsImport: '/api/staff/offline-gifts/import',
  offlineGiftsTemplate: '/api/staff/offline-gifts/template.csv',
} as const;

/** The staff pages the e-mails link to and the server serves (issue #21, "Pages"). */
export const STAFF_PAGES = {
  root: '/staff',
  signIn: '/staff/sign-in',
  /** The page of an e-mailed sign-in link: `/staff/sign-in/<token>`. */
  signInLinkPrefix: '/staff/sign-in/',
  /** The page of an invitation: `/staff/enroll/<token>`. */
  enrollPrefix: '/staff/enroll/',
  donations: '/staff/donations',
  audit: '/staff/audit',
  team: '/staff/team',
  /** Issue #22: recurring plans, donors, the mail outbox; the dashboard is {@link STAFF_PAGES.root} itself. */
  plans: '/staff/plans',
  donors: '/staff/donors',
  mail: '/staff/mail',
  /** Issue #34: campaigns, and a campaign's page (`/staff/campaigns/<id>`). */
  campaigns: '/staff/campaigns',
  /** Issue #38: outgoing webhook endpoints (admin only). */
  integrations: '/staff/integrations',
  /** Issue #37: record a gift received outside the site, or import a CSV of them. */
  newDonation: '/staff/donations/new',
} as const;

/** `pattern` (a {@link STAFF_API} path) with its `:id` filled with `id` (URI-encoded). */
export function staffApiPath(pattern: string, id: string): string {
  return pattern.replace(':id', encodeURIComponent(id));
}
