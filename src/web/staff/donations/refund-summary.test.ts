import { describe, expect, it } from 'vitest';
import { describeRefund } from './refund-summary';

const donation = { amountCents: 5000, refundedCents: 1000, cardBrand: 'Visa', last4: '4242', email: 'ana@example.org', receiptNumber: '2026-000123' };

describe('what a refund will do, in words (issue #21)', () => {
  it('a part: the money back to the card, the rest kept with its receipt, the donor e-mailed the corrected amount', () => {
    expect(describeRefund(donation, 1250)).toBe(
      '$12.50 goes back to their Visa ending 4242. $27.50 of the $50.00 donation is kept: receipt 2026-000123 stays valid for that amount and ana@example.org is e-mailed the corrected amount.',
    );
  });

  it('all that is left: the receipt voided and the donor told', () => {
    expect(describeRefund({ ...donation, last4: null }, 4000)).toBe(
      '$40.00 goes back to the payment method they gave with. Nothing of the $50.00 donation is kept: receipt 2026-000123 is voided and ana@example.org is e-mailed that it no longer counts.',
    );
  });
});
