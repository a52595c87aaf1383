import { createHmac } from 'node:crypto';

/**
 * Derives a key for one purpose from a server secret: HMAC-SHA256(secret, label), 32 bytes. Each use
 * (Idempotency-Key body fingerprints, card-testing counter keys, ...) takes its own label, so no two
 * uses ever share a key and COOKIE_SECRET stays the one secret an operator has to set.
 * NOTE: changing a label or the secret changes every key derived from it.
 */
export function deriveKey(secret: string, label: string): Buffer {
  return createHmac('sha256', secret).update(label).digest();
}
