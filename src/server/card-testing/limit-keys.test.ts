import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fingerprintSecret } from '../idempotency/idempotency-key';
import { cardFingerprint, emailDigest, limitKeySecret, loggedPrefix } from './limit-keys';
import { randomDelayMs } from './velocity-delay';

/** The keyed hashes the card-testing counters count by (issue #4), and the velocity rule's delay. */

const secret = limitKeySecret('a'.repeat(32));

describe('cardFingerprint', () => {
  it('is a stable 64-character hex HMAC that does not hold the card number', () => {
    const fingerprint = cardFingerprint(secret, '4242424242424242');
    expect(fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(cardFingerprint(secret, '4242424242424242')).toBe(fingerprint);
    expect(fingerprint).not.toContain('4242');
    expect(cardFingerprint(secret, '4000056655665556')).not.toBe(fingerprint);
  });

  it('depends on the server secret, and differs from the Idempotency-Key key derived from the same secret', () => {
    expect(cardFingerprint(limitKeySecret('b'.repeat(32)), '4242424242424242')).not.toBe(cardFingerprint(secret, '4242424242424242'));
    expect(limitKeySecret('a'.repeat(32)).equals(fingerprintSecret('a'.repeat(32)))).toBe(false);
  });
});

describe('fingerprintSecret (Idempotency-Key bodies), now through deriveKey', () => {
  it('is unchanged: HMAC-SHA256(COOKIE_SECRET, its label)', () => {
    const expected = createHmac('sha256', 'a'.repeat(32)).update('idempotency-key-fingerprint/v1').digest();
    expect(fingerprintSecret('a'.repeat(32)).equals(expected)).toBe(true);
  });
});

describe('emailDigest', () => {
  it('counts an address whatever its case and surrounding spaces, and never holds it', () => {
    const digest = emailDigest(secret, 'ana@example.org');
    expect(emailDigest(secret, ' Ana@Example.ORG ')).toBe(digest);
    expect(digest).not.toContain('example');
    expect(emailDigest(secret, 'bob@example.org')).not.toBe(digest);
  });
});

describe('loggedPrefix', () => {
  it('keeps 8 characters', () => {
    expect(loggedPrefix('0123456789abcdef')).toBe('01234567');
  });
});

describe('randomDelayMs', () => {
  it('stays within its bounds, both included, and is the bound when both are equal', () => {
    const delays = Array.from({ length: 200 }, () => randomDelayMs(250, 260));
    expect(Math.min(...delays)).toBeGreaterThanOrEqual(250);
    expect(Math.max(...delays)).toBeLessThanOrEqual(260);
    expect(delays.every(Number.isInteger)).toBe(true);
    expect(randomDelayMs(0, 0)).toBe(0);
  });

  it('throws on a minimum above the maximum', () => {
    expect(() => randomDelayMs(10, 5)).toThrow(RangeError);
  });
});
