import { describe, expect, it } from 'vitest';
import { centsToDollars, dollarsToCents, formatDollars, hasWholeCents } from './money';

describe('formatDollars', () => {
  it.each([
    [25, '$25'],
    [1000, '$1,000'],
    [12.5, '$12.50'],
    [0.99, '$0.99'],
    [999999.99, '$999,999.99'],
  ])('%d is shown as %s', (dollars, text) => {
    expect(formatDollars(dollars)).toBe(text);
  });
});

describe('dollars and cents', () => {
  it('converts dollars to integer cents without floating-point drift', () => {
    expect(dollarsToCents(25)).toBe(2500);
    expect(dollarsToCents(12.34)).toBe(1234);
    expect(dollarsToCents(0.29)).toBe(29);
    expect(dollarsToCents(999999.99)).toBe(99999999);
    expect(centsToDollars(1234)).toBe(12.34);
  });

  it('refuses fractional cents and non-finite amounts', () => {
    expect(hasWholeCents(12.345)).toBe(false);
    expect(hasWholeCents(Number.NaN)).toBe(false);
    expect(() => dollarsToCents(12.345)).toThrow(RangeError);
    expect(() => dollarsToCents(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });
});
