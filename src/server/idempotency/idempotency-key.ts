import { createHmac } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { IDEMPOTENCY_KEY_HEADER } from '../../shared/api';
import { IDEMPOTENCY_KEY_MAX_LENGTH } from '../db/schema';
import { deriveKey } from '../platform/derived-key';

/**
 * The `Idempotency-Key` request header (issue #3, after Stripe's idempotent requests and the IETF draft
 * "The Idempotency-Key HTTP Header Field"): reading it, and fingerprinting the request it came with.
 */

/** Request header carrying the client's key, lower case as Node exposes it. */
const IDEMPOTENCY_KEY_HEADER_LOWER = IDEMPOTENCY_KEY_HEADER.toLowerCase();
/** Response header set on a replayed answer (Stripe's `Idempotent-Replayed: true`). */
export const IDEMPOTENT_REPLAYED_HEADER = 'idempotent-replayed';
/** How long a key is kept, in hours (issue #3: "Keys are kept at least 24 hours"; Stripe's 24 hours). */
export const IDEMPOTENCY_KEY_TTL_HOURS = 24;

// Printable ASCII, space included (what an HTTP header value may hold without obs-text), 1-255 characters.
const KEY_PATTERN = new RegExp(`^[\\x20-\\x7E]{1,${IDEMPOTENCY_KEY_MAX_LENGTH}}$`);

/**
 * The request's Idempotency-Key: `{key: undefined}` when there is none (the request is then processed
 * once, as it comes), `{key}` when it is 1-255 printable ASCII characters, `{invalid: true}` otherwise
 * (empty, too long, other characters, or the header sent twice). The value is taken as is: a key in the
 * IETF draft's quoted sf-string form works too, its quotes being part of it.
 */
export function readIdempotencyKey(headers: IncomingHttpHeaders): { key: string | undefined } | { invalid: true } {
  const value = headers[IDEMPOTENCY_KEY_HEADER_LOWER];
  if (value === undefined) return { key: undefined };
  return typeof value === 'string' && KEY_PATTERN.test(value) ? { key: value } : { invalid: true };
}

/** JSON with object keys sorted at every level, so two equal bodies give the same text whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * Fingerprints a validated request body: HMAC-SHA256 of its canonical JSON under `secret`, hex. Used to
 * tell a retry (same body) from a misuse of the key (different body: 422). NOTE: keyed, not a bare hash:
 * the body holds the card number, and a bare SHA-256 of a body whose other fields are known could be
 * brute-forced over the few billion valid PANs of a BIN; without the server secret it cannot.
 * See docs/decisions/0012-idempotency-keys-and-fingerprints.md.
 */
export function fingerprintBody(secret: Buffer, body: unknown): string {
  return createHmac('sha256', secret).update(canonicalJson(body)).digest('hex');
}

/**
 * The fingerprint secret, derived from COOKIE_SECRET (already a required production secret, at least 32
 * characters) with a label, so the two uses never share a key: HMAC-SHA256(cookieSecret, label).
 * NOTE: rotating COOKIE_SECRET changes fingerprints, so a retry across the rotation gets 422 instead of a
 * replay for the keys' 24 hours; nothing is charged twice either way.
 */
export function fingerprintSecret(cookieSecret: string): Buffer {
  return deriveKey(cookieSecret, 'idempotency-key-fingerprint/v1');
}
