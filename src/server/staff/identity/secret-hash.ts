import { createHash, randomBytes } from 'node:crypto';

/**
 * Secrets the staff back office hands out (session ids, link tokens) are stored only as their SHA-256 (issue #21:
 * "only a hash of the session id is stored"; OWASP Session Management Cheat Sheet): a copy of the database signs no
 * one in. A plain hash is enough: the secrets are 256 random bits, not guessable passwords.
 */

/** Bytes of a new session id: 32 (256 bits, well over OWASP's 64 bits of entropy). */
const SECRET_BYTES = 32;

/** A new random secret, base64url (43 characters). */
export function newSecret(): string {
  return randomBytes(SECRET_BYTES).toString('base64url');
}

/** SHA-256 of `secret`, hex (64 characters): what the database keeps. */
export function secretHash(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}
