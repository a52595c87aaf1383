/**
 * The shape of a receipt's capability link as the page receives it in a donation result (issue #12): a path
 * on this site, `/api/receipts/pdf/<token>`, the token being base64url parts joined by dots. No zod here, so
 * the page's stored-state checks can use it (decision 0020).
 */

/**
 * API path of a receipt's PDF, `:token` being a token of the server's receipt links (server/receipts/receipt-link.ts);
 * here so the server's logger can mask the token without importing receipts.
 */
export const RECEIPT_PDF_PATH = '/api/receipts/pdf/:token';

/** A receipt link: a same-site path, never an absolute or `javascript:` URL (it becomes an `href`). */
export const RECEIPT_URL_PATTERN = /^\/api\/receipts\/pdf\/[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*$/;

/** True when `value` is a receipt link of {@link RECEIPT_URL_PATTERN}. */
export function isReceiptUrl(value: unknown): value is string {
  return typeof value === 'string' && value.length <= 512 && RECEIPT_URL_PATTERN.test(value);
}
