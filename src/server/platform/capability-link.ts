import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signed capability links (decision 0042): whoever holds the link may do the one thing it names, with no account.
 * A token names a subject (a receipt's transaction id, a recurring plan's id...) and an expiry day, and carries an
 * HMAC-SHA256 of the purpose, the subject and the expiry, truncated to 192 bits, under a key derived from
 * COOKIE_SECRET: unguessable (well over the 128 bits issues #12 and #13 ask for), unforgeable, nothing to store,
 * and a token of one purpose is worthless for another.
 */

/** Bytes of HMAC kept in a token: 24 (192 bits). */
const MAC_BYTES = 24;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Signs and checks the links of one purpose with one key. */
export interface CapabilitySigner {
  /** A token for `subject`, valid the signer's number of days after `now`. */
  sign(subject: string, now: Date): string;
  /** The subject a token names, or undefined when it is malformed, forged, of another purpose or expired at `now`. */
  verify(token: string, now: Date): string | undefined;
}

/**
 * A signer over `key` for `purpose` (e.g. `receipt-pdf`), whose tokens are valid `validDays` days. Tokens are
 * `<subject, base64url>.<expiry, days since 1970-01-01 UTC>.<mac, base64url>`, URL-safe as they are.
 */
export function createCapabilitySigner(key: Buffer, { purpose, validDays }: { purpose: string; validDays: number }): CapabilitySigner {
  const mac = (subject: string, expiresDay: number) =>
    createHmac('sha256', key).update(`${purpose}\n${subject}\n${expiresDay}`).digest().subarray(0, MAC_BYTES);
  return {
    sign(subject, now) {
      const expiresDay = Math.floor(now.getTime() / DAY_MS) + validDays;
      const id = Buffer.from(subject, 'utf8').toString('base64url');
      return `${id}.${expiresDay}.${mac(subject, expiresDay).toString('base64url')}`;
    },
    verify(token, now) {
      const match = /^([A-Za-z0-9_-]{1,200})\.(\d{1,7})\.([A-Za-z0-9_-]{32})$/.exec(token);
      if (!match) return undefined;
      const [, id = '', day = '', signature = ''] = match;
      const subject = Buffer.from(id, 'base64url').toString('utf8');
      const expiresDay = Number(day);
      const expected = mac(subject, expiresDay);
      const given = Buffer.from(signature, 'base64url');
      // NOTE: constant-time comparison, so the time taken tells nothing about how much of a forged MAC was right.
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
      return now.getTime() < (expiresDay + 1) * DAY_MS ? subject : undefined;
    },
  };
}
