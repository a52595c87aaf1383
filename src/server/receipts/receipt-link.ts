import { RECEIPT_PDF_PATH } from '../../shared/receipt-link';
import { RECEIPTS_PAGE_PATH } from '../../shared/receipts';
import { localizedPath } from '../../shared/i18n/locale-paths';
import type { Locale } from '../../shared/i18n/locales';
import { createCapabilitySigner } from '../platform/capability-link';
import { deriveKey } from '../platform/derived-key';

/**
 * Capability links to a receipt's PDF (issue #12, decision 0042): whoever holds the link may download that one
 * receipt, with no account. A link names the donation's transaction id and an expiry day and carries an
 * HMAC-SHA256 of both, truncated to 192 bits, under a key derived from COOKIE_SECRET: unguessable (well over the
 * 128 bits the issue asks for), unforgeable, and nothing to store.
 */

/** How long a link is valid, in days: 3 years (issue #12 asks for at least 2; a tax year and its filing fit). */
export const RECEIPT_LINK_VALID_DAYS = 3 * 366;

/** Signs and checks receipt links with one key. */
export interface ReceiptLinkSigner {
  /** A token for the receipt of `transactionId`, valid RECEIPT_LINK_VALID_DAYS days after `now`. */
  sign(transactionId: string, now: Date): string;
  /** The transaction id a token names, or undefined when it is malformed, forged or expired at `now`. */
  verify(token: string, now: Date): string | undefined;
}

/** The key of receipt links, derived from COOKIE_SECRET under its own label (see deriveKey). */
export function receiptLinkKey(cookieSecret: string): Buffer {
  return deriveKey(cookieSecret, 'receipt-pdf-links');
}

/**
 * A signer over `key` (a capability signer of purpose `receipt-pdf`; capability-link.ts). Tokens are
 * `<transaction id, base64url>.<expiry, days since 1970-01-01 UTC>.<mac, base64url>`, URL-safe as they are.
 */
export function createReceiptLinkSigner(key: Buffer): ReceiptLinkSigner {
  return createCapabilitySigner(key, { purpose: 'receipt-pdf', validDays: RECEIPT_LINK_VALID_DAYS });
}

/** The absolute URL of a receipt's PDF on the site at `publicUrl` (PUBLIC_URL). */
export function receiptPdfUrl(publicUrl: string, token: string): string {
  return new URL(RECEIPT_PDF_PATH.replace(':token', token), publicUrl).toString();
}

/**
 * The absolute URL of the page where a donor asks for their receipt links again (/donate/receipts; issue #12,
 * "Resend"), in `locale`'s pages (`<publicUrl>/es/donate/receipts`; issue #24), on the site at `publicUrl` (PUBLIC_URL).
 */
export function receiptsPageUrl(publicUrl: string, locale: Locale): string {
  return new URL(localizedPath(locale, RECEIPTS_PAGE_PATH), publicUrl).toString();
}
