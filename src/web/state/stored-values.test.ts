import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DonationResultSchema, DonationSelectionSchema } from '../../shared/donation';
import { StoredResult, StoredSelection } from './stored-values';

const anything = fc.oneof(fc.anything(), fc.double(), fc.constantFrom(null, 1, 12.5, 12.345, 0.5, 1_000_000));

describe('stored values', () => {
  it('accept exactly the selections DonationSelectionSchema accepts', () => {
    const candidate = fc.record(
      {
        amount: fc.oneof(anything, fc.double({ min: 0, max: 1_100_000 }), fc.integer({ min: 1, max: 999_999 })),
        frequency: fc.oneof(anything, fc.constantFrom('one-time', 'monthly', 'yearly', 'weekly')),
        cause: fc.oneof(anything, fc.constantFrom('research-science', 'education-outreach', 'reef')),
        extra: anything,
      },
      { requiredKeys: ['amount'] },
    );
    fc.assert(
      fc.property(fc.oneof(candidate, anything), (value) => {
        expect(StoredSelection.safeParse(value).success).toBe(DonationSelectionSchema.safeParse(value).success);
      }),
    );
    expect(StoredSelection.safeParse({ amount: 12.5, frequency: 'monthly', cause: 'research-science' }).success).toBe(true);
  });

  it('accept exactly the results DonationResultSchema accepts', () => {
    const candidate = fc.record(
      {
        amount: fc.oneof(anything, fc.double()),
        donorName: fc.oneof(anything, fc.string()),
        transactionId: fc.oneof(anything, fc.string()),
        isTestPayment: fc.oneof(anything, fc.boolean()),
        receiptUrl: fc.oneof(
          anything,
          fc.string(),
          fc.constantFrom('/api/receipts/pdf/Y2hfdGVzdA.21878.Rpzxxb6b', 'javascript:alert(1)', 'https://evil.example/api/receipts/pdf/x', '/api/receipts/pdf/'),
        ),
        feeCovered: fc.oneof(anything, fc.double()),
        extra: anything,
      },
      { requiredKeys: ['amount', 'donorName', 'transactionId', 'isTestPayment'] },
    );
    fc.assert(
      fc.property(fc.oneof(candidate, anything), (value) => {
        expect(StoredResult.safeParse(value).success).toBe(DonationResultSchema.safeParse(value).success);
      }),
    );
  });
});
