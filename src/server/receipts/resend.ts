import type { Database } from '../db/client';
import { enqueueMail } from '../mail/outbox';
import { findDonorAddress } from './repository';
import type { Locale } from '../../shared/i18n/locales';

/**
 * Receipt links asked for again on /donate/receipts (issue #12, "Resend"; decision 0044): one message listing
 * each donation's receipt link, to an address that has donations, at most one per address per hour however
 * many times it is asked for.
 */

/** The window of the resend dedupe, in ms: one `receipt_links` message per address per clock hour (UTC). */
export const RESEND_WINDOW_MS = 60 * 60 * 1000;

/**
 * The outbox dedupe key of a resend to `address` asked at `now`: `receipt_links:<address, lower case>:<hour
 * number since 1970, UTC>`. Requests in the same clock hour share the key, so the outbox's unique `dedupe_key`
 * keeps one message of them, across processes too; the next hour gets a new one.
 */
export function receiptLinksDedupeKey(address: string, now: Date): string {
  return `receipt_links:${address.toLowerCase()}:${Math.floor(now.getTime() / RESEND_WINDOW_MS)}`;
}

/**
 * Enqueues a `receipt_links` message for `email` when that address (case-insensitive) has a donation with a
 * receipt, addressed as the donor typed it with their latest donation; the relay renders the list when it
 * sends, in `locale` (the page's language the donor asked from; issue #24) when given, else their latest gift's.
 * Resolves with true when a message was queued now, false when the address has no donations or one was
 * queued this hour already. NOTE: the caller answers the same either way (no one can learn who gave).
 */
export async function requestReceiptLinks(db: Database, email: string, now: Date, locale?: Locale): Promise<boolean> {
  const address = await findDonorAddress(db, email);
  if (address === undefined) return false;
  const id = await enqueueMail(db, { kind: 'receipt_links', dedupeKey: receiptLinksDedupeKey(address, now), recipient: address, locale });
  return id !== undefined;
}
