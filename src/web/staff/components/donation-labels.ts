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

/**
 * How a gift or plan was paid, in one plain line (issue #36, part 3: "Gateway: test, Test" and "Mode: Test, test" made
 * one line): `Test payment through the test gateway`, `Live payment through Stripe`. A gateway this page does not
 * know is named as stored.
 */
export function describePayment(gateway: string, mode: (typeof STAFF_MODES)[number]): string {
  const through = gateway === 'test' ? 'the test gateway' : gateway === 'stripe' ? 'Stripe' : gateway;
  return `${MODE_LABELS[mode]} payment through ${through}`;
}

/**
 * A code of the gateway or of the database (`insufficient_funds`, `needs_response`) in words for a page: underscores
 * as spaces, the first letter capitalised (issue #36, part 3: no raw codes on screen).
 */
export function plainCode(code: string): string {
  const words = code.replaceAll('_', ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
