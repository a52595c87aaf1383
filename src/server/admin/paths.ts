/** API paths of the operator actions (DESIGN.md, "Operator actions"), without dependencies, so scripts/admin.ts can import them cheaply. */

/** Where every operator route lives (DESIGN.md, "Operator actions"); each request under it is audited (admin/audit.ts). */
export const ADMIN_PATH_PREFIX = '/api/admin/';

/** POST: queue the year-end statements of `{year}` (see admin/plugin.ts). */
export const ADMIN_STATEMENTS_RUN_PATH = '/api/admin/statements/run';

/** POST: refund a donation, all that is left of it or `{amount}` dollars of it (issue #14; see admin/refund-route.ts). */
export const ADMIN_DONATION_REFUND_PATH = '/api/admin/donations/:id/refund';

/** The refund path of donation `donationId` (its id URL-encoded into {@link ADMIN_DONATION_REFUND_PATH}). */
export function adminDonationRefundPath(donationId: string): string {
  return ADMIN_DONATION_REFUND_PATH.replace(':id', encodeURIComponent(donationId));
}

/** GET: the gifts of `?from&to` (calendar days, UTC) as CSV in `?format` (see admin/export-routes.ts). */
export const ADMIN_DONATIONS_EXPORT_PATH = '/api/admin/donations.csv';

/** POST: record a gift received outside the site, with an Idempotency-Key (issue #37; see admin/offline-gift-route.ts). */
export const ADMIN_OFFLINE_GIFTS_PATH = '/api/admin/offline-gifts';
