import { createHmac } from 'node:crypto';
import { deriveKey } from '../platform/derived-key';

/**
 * The identities the card-testing counters count by (OWASP OAT-001; issue #4), as keyed hashes: a counter
 * key, whether in memory or in Redis, never holds a card number or an e-mail address.
 */

/** Label of the key derived from COOKIE_SECRET for the counters' hashes (see deriveKey). */
const LIMIT_KEY_LABEL = 'card-testing-limit-keys/v1';

/** Characters of a fingerprint that may appear in a log line: enough to follow one card through an attack, too few to test a guess. */
export const LOGGED_PREFIX_LENGTH = 8;

/**
 * The secret of the counters' hashes, derived from COOKIE_SECRET (at least 32 characters; required in
 * production) with a label of its own, as the Idempotency-Key fingerprints are (idempotency-key.ts).
 */
export function limitKeySecret(cookieSecret: string): Buffer {
  return deriveKey(cookieSecret, LIMIT_KEY_LABEL);
}

/**
 * The card fingerprint: HMAC-SHA256 of the card number (digits only, as the validated body holds it) under
 * `secret`, hex (64 characters). NOTE: keyed, not a bare hash: there are only a few billion valid numbers
 * per BIN, so a bare SHA-256 could be reversed by brute force; without the server secret it cannot.
 */
export function cardFingerprint(secret: Buffer, cardNumber: string): string {
  return createHmac('sha256', secret).update(`card:${cardNumber}`).digest('hex');
}

/**
 * The e-mail address's counter key: HMAC-SHA256 of the address, trimmed and lower-cased (so `Ana@Example.org`
 * and `ana@example.org` count as one donor), under `secret`, hex.
 */
export function emailDigest(secret: Buffer, email: string): string {
  return createHmac('sha256', secret).update(`email:${email.trim().toLowerCase()}`).digest('hex');
}

/** The first {@link LOGGED_PREFIX_LENGTH} characters of a digest: what a log line may show of it. */
export function loggedPrefix(digest: string): string {
  return digest.slice(0, LOGGED_PREFIX_LENGTH);
}
