import { describe, expect, it } from 'vitest';
import { createDonationAttempt } from './donation-attempt';

describe('createDonationAttempt (issue #3: one key per attempt)', () => {
  it('keeps the key while the same payload is retried', () => {
    const attempt = createDonationAttempt();
    const key = attempt.keyFor({ amount: 25 });
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    expect(attempt.keyFor({ amount: 25 })).toBe(key);
  });

  it('starts a new attempt when the payload changes or the attempt is finished', () => {
    const attempt = createDonationAttempt();
    const first = attempt.keyFor({ amount: 25 });
    const changed = attempt.keyFor({ amount: 30 });
    expect(changed).not.toBe(first);
    attempt.finish();
    expect(attempt.keyFor({ amount: 30 })).not.toBe(changed);
  });
});
