import { describe, expect, it } from 'vitest';
import { formatCardNumber } from '../../../shared/card';
import { caretAfterDigits, countDigitsBefore } from './digit-caret';

describe('digit caret', () => {
  it('counts digits before the caret, skipping spaces and other characters', () => {
    expect(countDigitsBefore('4242 42a4', 7)).toBe(6);
    expect(countDigitsBefore('4242', 0)).toBe(0);
  });

  it('puts the caret just after the n-th digit of the formatted text', () => {
    expect(caretAfterDigits('4242 4242', 4)).toBe(4);
    expect(caretAfterDigits('4242 4242', 5)).toBe(6);
    expect(caretAfterDigits('4242 4242', 0)).toBe(0);
    expect(caretAfterDigits('4242', 9)).toBe(4);
  });

  it('keeps the caret beside a digit inserted in the middle of a card number', () => {
    // The donor typed '9' after '42' in '4242 4242': the raw text is '42942 4242' with the caret at 3.
    const raw = '42942 4242';
    const formatted = formatCardNumber(raw);
    expect(formatted).toBe('4294 2424 2');
    expect(caretAfterDigits(formatted, countDigitsBefore(raw, 3))).toBe(3);
  });
});
