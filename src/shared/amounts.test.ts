import { describe, expect, it } from 'vitest';
import { DEFAULT_AMOUNT_DOLLARS, parseCustomAmount, PRESET_AMOUNTS_DOLLARS } from './amounts';
import { AmountDollarsSchema } from './field-rules';

describe('presets', () => {
  it('are the spec constants with $25 as the default', () => {
    expect(PRESET_AMOUNTS_DOLLARS).toEqual([5, 10, 25, 50, 100, 500, 1000]);
    expect(DEFAULT_AMOUNT_DOLLARS).toBe(25);
  });
});

describe('parseCustomAmount', () => {
  it.each([
    ['1', 1],
    ['30', 30],
    ['12.50', 12.5],
    [' 12.5 ', 12.5],
    ['999999.99', 999999.99],
  ])('%j selects $%d', (text, amount) => {
    expect(parseCustomAmount(text)).toEqual({ amountDollars: amount });
  });

  it('selects nothing and says nothing for an empty field', () => {
    expect(parseCustomAmount('')).toEqual({});
    expect(parseCustomAmount('   ')).toEqual({});
  });

  it.each([
    ['0', 'The minimum donation is $1'],
    ['0.99', 'The minimum donation is $1'],
    ['1000000', 'The maximum donation is $999,999.99'],
    ['12.345', 'Use at most 2 decimal places'],
    ['-5', 'Enter an amount in dollars, like 30 or 12.50'],
    ['1e3', 'Enter an amount in dollars, like 30 or 12.50'],
    ['abc', 'Enter an amount in dollars, like 30 or 12.50'],
  ])('%j selects no amount because: %s', (text, error) => {
    expect(parseCustomAmount(text)).toEqual({ error });
  });
});

describe('AmountDollarsSchema', () => {
  it('never coerces a string', () => {
    expect(AmountDollarsSchema.safeParse('25').success).toBe(false);
    expect(AmountDollarsSchema.safeParse(25).success).toBe(true);
    expect(AmountDollarsSchema.safeParse(Number.NaN).success).toBe(false);
  });
});
