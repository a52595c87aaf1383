import { describe, expect, it } from 'vitest';
import { parseRefundAmount } from './refund-amount';

describe('the partial refund amount (issue #21)', () => {
  it('reads dollars as integer cents', () => {
    expect(parseRefundAmount(' 12.5 ', 5000)).toEqual({ amountCents: 1250 });
    expect(parseRefundAmount('50', 5000)).toEqual({ amountCents: 5000 });
    expect(parseRefundAmount('0.01', 5000)).toEqual({ amountCents: 1 });
  });

  it('refuses more than what is left, nothing, and anything that is not dollars and cents', () => {
    expect(parseRefundAmount('50.01', 5000).error).toBe('At most $50.00 is left to refund');
    expect(parseRefundAmount('0', 5000).error).toBe('Enter an amount of at least $0.01');
    for (const text of ['', 'abc', '-5', '1e3', '12.345', '$12']) expect(parseRefundAmount(text, 5000).error).toBe('Enter an amount in dollars, like 12.50');
  });
});
