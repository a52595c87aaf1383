import { sql } from 'drizzle-orm';
import { donations } from '../db/schema';

/**
 * What a gift counts for once part of it was refunded (issue #14; decision 0058), in JS and in SQL, side by side so the
 * two cannot drift: receipts, statements, exports, the digest and the totals all count this amount. Integer cents.
 */

/**
 * What a gift stands for, in cents: its amount less what was refunded of it. A charity may not leave a receipt for more
 * than it kept: after a partial refund the receipt states both, and year-end statements count this amount.
 */
export function keptAmountCents(gift: { amountCents: number; refundedCents: number }): number {
  return gift.amountCents - gift.refundedCents;
}

/** {@link keptAmountCents} in SQL, over the donations table's columns. */
export const keptCentsSql = sql`${donations.amountCents} - ${donations.refundedCents}`;
