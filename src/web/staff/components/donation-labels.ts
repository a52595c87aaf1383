import type { STAFF_GATEWAYS, STAFF_MODES, StaffDonationStatus } from '../../../shared/staff/donations-api';

/** A donation status in words, as the filter and the table show it (issue #21's list). */
export const DONATION_STATUS_LABELS: Record<StaffDonationStatus, string> = {
  succeeded: 'Succeeded',
  failed: 'Failed',
  pending: 'Pending',
  refunded: 'Refunded',
  partially_refunded: 'Partially refunded',
  disputed: 'Disputed',
};

/** The payment gateways, in words. */
export const GATEWAY_LABELS: Record<(typeof STAFF_GATEWAYS)[number], string> = { test: 'Test gateway', stripe: 'Stripe' };
/** Test or live money, in words. */
export const MODE_LABELS: Record<(typeof STAFF_MODES)[number], string> = { test: 'Test', live: 'Live' };
