import { centsToDollarString } from '../../shared/webhooks';

/**
 * The `refund` of a `donation.refunded` webhook event (issue #38): the refund's id (null for a full refund the gateway
 * reported without one of ours), its amount in cents and dollars, and whether the gift is now refunded in full.
 */
export function refundOfEvent(refund: { id: string | null; amountCents: number }, full: boolean) {
  return { id: refund.id, amountCents: refund.amountCents, amountDollars: centsToDollarString(refund.amountCents), full };
}
