import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/**
 * Signing with the Standard Webhooks library (issue #38; the specification's "Signature scheme": HMAC-SHA256 over
 * `msg_id.timestamp.body`, base64, `v1,` prefixed, secrets `whsec_` + base64), so any Standard Webhooks or Svix library
 * verifies our webhooks. Several signatures are sent space-separated (the specification's rotation: the new secret's and
 * the old one's during the 24 hours after a rotation); a receiver accepts the message when one matches.
 */

/** Bytes of a new secret (the specification asks 24 to 64). */
const SECRET_BYTES = 32;

/** A new signing secret: `whsec_` and 32 random bytes in base64. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(SECRET_BYTES).toString('base64')}`;
}

/** The secrets that sign now: the current one, and the previous one until its expiry (24 hours after a rotation). */
export function signingSecrets(endpoint: { secret: string; previousSecret: string | null; previousSecretExpiresAt: Date | null }, now: Date): string[] {
  const previousValid = endpoint.previousSecret !== null && endpoint.previousSecretExpiresAt !== null && endpoint.previousSecretExpiresAt > now;
  return previousValid && endpoint.previousSecret !== null ? [endpoint.secret, endpoint.previousSecret] : [endpoint.secret];
}

/**
 * The three Standard Webhooks headers of message `messageId` with `body`, signed at `at` (the wall clock: receivers
 * refuse a timestamp far from their own time) with each of `secrets`. Throws when a secret is not a `whsec_` base64 key.
 */
export function webhookHeaders(messageId: string, at: Date, body: string, secrets: readonly string[]): Record<string, string> {
  const signatures = secrets.map((secret) => new Webhook(secret).sign(messageId, at, body));
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signatures.join(' '),
  };
}
