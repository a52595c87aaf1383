import { describe, expect, it } from 'vitest';
import {
  cardLast4,
  detectCardBrand,
  expiryMonthOptions,
  expiryYearOptions,
  formatCardNumber,
  isCardExpired,
  isValidCvv,
  passesLuhn,
  stripCardNumber,
} from './card';

describe('passesLuhn', () => {
  it.each([
    '4242424242424242',
    '4000056655665556',
    '5555555555554444',
    '2223003122003222',
    '378282246310005',
    '6011111111111117',
    '30569309020004',
    '3566002020360505',
    '6200000000000005',
    '4000000000000002',
  ])('accepts the test card %s', (pan) => {
    expect(passesLuhn(pan)).toBe(true);
  });

  it.each(['4242424242424241', '1234567812345678', '', '4242 4242 4242 4242', '42424242424242a2'])(
    'rejects %j',
    (text) => {
      expect(passesLuhn(text)).toBe(false);
    },
  );
});

describe('detectCardBrand', () => {
  it.each([
    ['4242424242424242', 'visa'],
    ['4', 'visa'],
    ['5105105105105100', 'mastercard'],
    ['5555555555554444', 'mastercard'],
    ['2221000000000009', 'mastercard'],
    ['2720990000000007', 'mastercard'],
    ['2223 0031 2200 3222', 'mastercard'],
    ['378282246310005', 'amex'],
    ['371449635398431', 'amex'],
    ['6011111111111117', 'discover'],
    ['6200000000000005', 'discover'],
    ['5000000000000000', 'unknown'],
    ['5600000000000000', 'unknown'],
    ['2220990000000000', 'unknown'],
    ['2721000000000000', 'unknown'],
    ['222', 'unknown'],
    ['30569309020004', 'unknown'],
    ['3566002020360505', 'unknown'],
    ['', 'unknown'],
  ])('%j is %s', (pan, brand) => {
    expect(detectCardBrand(pan)).toBe(brand);
  });
});

describe('formatCardNumber', () => {
  it('groups digits in fours', () => {
    expect(formatCardNumber('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(formatCardNumber('378282246310005')).toBe('3782 8224 6310 005');
  });

  it('drops anything but digits and stops at 19 characters', () => {
    expect(formatCardNumber('4242-4242 4242a4242')).toBe('4242 4242 4242 4242');
    expect(formatCardNumber('42424242424242424242')).toBe('4242 4242 4242 4242');
    expect(formatCardNumber('4242 ')).toBe('4242');
    expect(formatCardNumber('')).toBe('');
  });

  it('is idempotent', () => {
    expect(formatCardNumber(formatCardNumber('42424242'))).toBe('4242 4242');
  });
});

describe('card helpers', () => {
  it('strips spaces and keeps only the last four digits', () => {
    expect(stripCardNumber(' 4242 4242\t4242 4242 ')).toBe('4242424242424242');
    expect(cardLast4('4242 4242 4242 4242')).toBe('4242');
  });

  it('takes a CVV of 3 or 4 digits only', () => {
    expect(isValidCvv('123')).toBe(true);
    expect(isValidCvv('1234')).toBe(true);
    expect(isValidCvv('12')).toBe(false);
    expect(isValidCvv('12345')).toBe(false);
    expect(isValidCvv('12a')).toBe(false);
  });
});

describe('expiry options', () => {
  it('lists months 01-12 labelled with their names', () => {
    expect(expiryMonthOptions('en')).toHaveLength(12);
    expect(expiryMonthOptions('en')[0]).toEqual({ value: '01', label: '01 - January' });
    expect(expiryMonthOptions('en')[11]).toEqual({ value: '12', label: '12 - December' });
    expect(expiryMonthOptions('es')[0]).toEqual({ value: '01', label: '01 - enero' });
  });

  it('lists the current year and the next 20', () => {
    const years = expiryYearOptions(new Date(2026, 10, 22));
    expect(years).toHaveLength(21);
    expect(years[0]).toEqual({ value: '2026', label: '2026' });
    expect(years[20]).toEqual({ value: '2046', label: '2046' });
  });

  it('treats a card as good through the end of its expiry month', () => {
    const now = new Date(2026, 10, 22);
    expect(isCardExpired('11', '2026', now)).toBe(false);
    expect(isCardExpired('12', '2026', now)).toBe(false);
    expect(isCardExpired('10', '2026', now)).toBe(true);
    expect(isCardExpired('12', '2025', now)).toBe(true);
    expect(isCardExpired('01', '2027', now)).toBe(false);
  });
});
