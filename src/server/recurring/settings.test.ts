import { describe, expect, it } from 'vitest';
import { loadConfig } from '../platform/config';

/** BILLING_INTERVAL_MS and DUNNING_RETRY_DAYS (issue #13), read once at start-up like every setting. */
describe('billing settings', () => {
  it('default to a run every minute and retries after 1, 3 and 7 days', () => {
    expect(loadConfig({}).billing).toEqual({ intervalMs: 60_000, retryDays: [1, 3, 7] });
    expect(loadConfig({ BILLING_INTERVAL_MS: '5000', DUNNING_RETRY_DAYS: '2,5' }).billing).toEqual({ intervalMs: 5000, retryDays: [2, 5] });
  });

  it('refuse retry days that are not increasing whole days from 1 to 60', () => {
    for (const days of ['3,1', '0,2', '1,1', '1;3', '61', 'a', '1,3,']) {
      expect(() => loadConfig({ DUNNING_RETRY_DAYS: days }), days).toThrow(/DUNNING_RETRY_DAYS/);
    }
    expect(() => loadConfig({ BILLING_INTERVAL_MS: '0' })).toThrow(/BILLING_INTERVAL_MS/);
  });
});
