import type { ChargeLedger } from './charge-ledger';
import { RefundRefusedError, type Refund, type RefundRequest } from './gateway';
import { newTestId } from './test-ids';

/**
 * The test gateway's refunds (issues #11 and #14), after Stripe's Refunds API in test mode: a refund of a charge the
 * gateway made (found in its charge ledger by its `ch_test_...` id, whichever way it was paid), all that is left of
 * it or part, once per idempotency key. Refunds are kept in memory only: a refund is forgotten with the process (no
 * money moves in test mode; the donations table keeps what was refunded).
 */

/** One refund the test gateway made: the charge, the idempotency key it was asked with, and the refund. */
export interface TestRefundRecord {
  transactionId: string;
  idempotencyKey: string;
  refund: Refund;
}

/** The refunds part of the test gateway, and the list of refunds it made (for tests). */
export interface TestRefunds {
  refund(request: RefundRequest): Promise<Refund>;
  /** Every refund made so far, oldest first, one per idempotency key. */
  refunds(): TestRefundRecord[];
}

/**
 * Creates the test gateway's refunds over its charge `ledger`. `refund` answers the first refund for a repeated
 * idempotency key (and refunds nothing more); it rejects with RefundRefusedError, as Stripe answers 400, when the
 * charge is unknown or was declined (`resource_missing`), is refunded already (`charge_already_refunded`), or the
 * amount is not a whole number of cents between 1 and what is left (`amount_too_large`, `parameter_invalid_integer`).
 */
export function createTestRefunds(ledger: ChargeLedger): TestRefunds {
  const byKey = new Map<string, TestRefundRecord>();
  const refundedCents = new Map<string, number>();

  /** The succeeded charge `transactionId` in the ledger: its amount in cents, or undefined. */
  const chargeAmountCents = (transactionId: string) =>
    ledger.list().find((record) => record.result.status === 'succeeded' && record.result.transactionId === transactionId)?.amountCents;

  return {
    async refund(request: RefundRequest) {
      const earlier = byKey.get(request.idempotencyKey);
      if (earlier) return earlier.refund;
      const chargedCents = chargeAmountCents(request.transactionId);
      if (chargedCents === undefined) throw new RefundRefusedError(`No such charge: '${request.transactionId}'`, 'resource_missing');
      const left = chargedCents - (refundedCents.get(request.transactionId) ?? 0);
      if (left === 0) throw new RefundRefusedError(`Charge ${request.transactionId} has already been refunded.`, 'charge_already_refunded');
      const amountCents = request.amountCents ?? left;
      if (!Number.isSafeInteger(amountCents) || amountCents <= 0) throw new RefundRefusedError('Invalid positive integer', 'parameter_invalid_integer');
      if (amountCents > left) throw new RefundRefusedError(`Refund amount must be at most ${left} cents, what is left of the charge`, 'amount_too_large');
      refundedCents.set(request.transactionId, chargedCents - left + amountCents);
      const record: TestRefundRecord = {
        transactionId: request.transactionId,
        idempotencyKey: request.idempotencyKey,
        refund: { refundId: newTestId('re_test_'), amountCents, status: 'succeeded' },
      };
      byKey.set(request.idempotencyKey, record);
      return record.refund;
    },
    refunds: () => [...byKey.values()],
  };
}
