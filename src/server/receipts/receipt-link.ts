import { createHmac, timingSafeEqual } from 'node:crypto';
import { deriveKey } from '../derived-key';

/**
 * Capability links to a receipt's PDF (issue #12, decision 0042): whoever holds the link may download that one
 * receipt, with no account. A link names the donation's transaction id and an expiry day and carries an
 * HMAC-SHA256 of both, truncated to 192 bits, under a key derived from COOKIE_SECRET: unguessable (well over the
 * 128 bits the issue asks for), unforgeable, and nothing to store.
 */

/** API path of a receipt's PDF, `:token` being a {@link signReceiptToken} token. */
export const RECEIPT_PDF_PATH = '/api/receipts/pdf/:token';
/** How long a link is valid, in days: 3 years (issue #12 asks for at least 2; a tax year and its filing fit). */
export const RECEIPT_LINK_VALID_DAYS = 3 * 366;
/** Bytes of HMAC kept in a token: 24 (192 bits). */
const MAC_BYTES = 24;
const DAY_MS = 24 * 60 * 60 * 1000;

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

const mac = (key: Buffer, transactionId: string, expiresDay: number) =>
  createHmac('sha256', key).update(`receipt-pdf\n${transactionId}\n${expiresDay}`).digest().subarray(0, MAC_BYTES);

/**
 * A signer over `key`. Tokens are `<transaction id, base64url>.<expiry, days since 1970-01-01 UTC>.<mac, base64url>`,
 * URL-safe as they are.
 */
export function createReceiptLinkSigner(key: Buffer): ReceiptLinkSigner {
  return {
    sign(transactionId, now) {
      const expiresDay = Math.floor(now.getTime() / DAY_MS) + RECEIPT_LINK_VALID_DAYS;
      const id = Buffer.from(transactionId, 'utf8').toString('base64url');
      return `${id}.${expiresDay}.${mac(key, transactionId, expiresDay).toString('base64url')}`;
    },
    verify(token, now) {
      const match = /^([A-Za-z0-9_-]{1,200})\.(\d{1,7})\.([A-Za-z0-9_-]{32})$/.exec(token);
      if (!match) return undefined;
      const [, id = '', day = '', signature = ''] = match;
      const transactionId = Buffer.from(id, 'base64url').toString('utf8');
      const expiresDay = Number(day);
      const expected = mac(key, transactionId, expiresDay);
      const given = Buffer.from(signature, 'base64url');
      // NOTE: constant-time comparison, so the time taken tells nothing about how much of a forged MAC was right.
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
      return now.getTime() < (expiresDay + 1) * DAY_MS ? transactionId : undefined;
    },
  };
}

/** The absolute URL of a receipt's PDF on the site at `publicUrl` (PUBLIC_URL). */
export function receiptPdfUrl(publicUrl: string, token: string): string {
  return new URL(RECEIPT_PDF_PATH.replace(':token', token), publicUrl).toString();
}
