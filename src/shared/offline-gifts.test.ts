import { describe, expect, it } from 'vitest';
import { centsOfDollarText, receivedOnError } from './offline-gifts';

/**
 * The rules the page and the CSV import share for a gift received outside the site (issue #37; decisions 0112, 0114):
 * the dollars staff type, read as cents, a comma only ever a thousands separator; the days a gift may have been received.
 */

describe('centsOfDollarText', () => {
  it('reads the ways staff write dollars', () => {
    expect(['200', '200.5', '200.50', '$200', '1,200.00', '$1,000,000', ' 12.05 ', '0.99'].map(centsOfDollarText)).toEqual([
      20_000, 20_050, 20_050, 20_000, 120_000, 100_000_000, 1_205, 99,
    ]);
  });

  it('refuses a decimal comma, misplaced separators and anything else rather than guess', () => {
    for (const text of ['200,50', '1,2000', ',200', '200.', '200.505', '1e5', '-200', '$ 200', '200 USD', '', 'ten', '0x10', '1234567890']) {
      expect(centsOfDollarText(text), text).toBeNaN();
    }
  });
});

describe('receivedOnError', () => {
  it('takes today back to the first of last year, and nothing else', () => {
    expect(receivedOnError('2026-11-28', '2026-11-28')).toBeUndefined();
    expect(receivedOnError('2025-01-01', '2026-11-28')).toBeUndefined();
    expect(receivedOnError('2026-11-29', '2026-11-28')).toBe('The date received cannot be in the future');
    expect(receivedOnError('2024-12-31', '2026-11-28')).toMatch(/this year or the last/);
    expect(receivedOnError('2026-02-30', '2026-11-28')).toBe('Enter the date as YYYY-MM-DD');
  });
});
