import { memoryLedger, type ChargeLedger, type GatewayLedger } from './charge-ledger';
import { RefundRefusedError, type Refund, type RefundLookup, type RefundRequest } from './gateway';
import { newTestId } from './test-ids';

/**
 * The test gateway's refunds (issues #11 and #14), after Stripe's Refunds API in test mode: a refund of a charge the
 * gateway made (found in its charge ledger by its `ch_test_...` id, whichever way it was paid), all that is left of
 * it or part, once per idempotency key. Since issue #32 the refunds are kept in a ledger of their own, a file in
 * DATA_DIR as the charges are (create-gateway.ts), so a refund made outlives the API process and the reconciler can
 * ask for it after a crash (retrieveRefund; decision 0095).
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
  retrieveRefund(lookup: RefundLookup): Promise<Refund | undefined>;
  /** Every refund made so far, oldest first, one per idempotency key. */
  refunds(): TestRefundRecord[];
}

/**
 * Creates the test gateway's refunds over its charge `ledger`, kept in `refundLedger` (memory by default). `refund`
 * answers the first refund for a repeated idempotency key (and refunds nothing more); it rejects with
 * RefundRefusedError, as Stripe answers 400, when the charge is unknown or was declined (`resource_missing`), is
 * refunded already (`charge_already_refunded`), or the amount is not a whole number of cents between 1 and what is
 * left (`amount_too_large`, `parameter_invalid_integer`); it rejects with the write's error when the refund could not
 * be recorded (nothing refunded). A refund counts as made once its record is durable. `retrieveRefund` answers the
 * refund made of the charge under the key, or undefined.
 */
export function createTestRefunds(ledger: ChargeLedger, refundLedger: GatewayLedger<TestRefundRecord> = memoryLedger()): TestRefunds {
  // Refunds whose record is being written, by key: a concurrent call with the same key waits for that one.
  const underway = new Map<string, Promise<TestRefundRecord>>();
  const refundedCents = new Map<string, number>();
  for (const record of refundLedger.list()) {
    refundedCents.set(record.transactionId, (refundedCents.get(record.transactionId) ?? 0) + record.refund.amountCents);
  }

  /** The succeeded charge `transactionId` in the ledger: its amount in cents, or undefined. */
  const chargeAmountCents = (transactionId: string) =>
    ledger.list().find((record) => record.result.status === 'succeeded' && record.result.transactionId === transactionId)?.amountCents;

  return {
    async refund(request: RefundRequest) {
      // NOTE: no await before the key is looked up and, if new, registered: concurrent calls cannot both refund.
      const earlier = refundLedger.get(request.idempotencyKey);
      if (earlier) return earlier.refund;
      const underwayRefund = underway.get(request.idempotencyKey);
      if (underwayRefund) return (await underwayRefund).refund;
      const chargedCents = chargeAmountCents(request.transactionId);
      if (chargedCents === undefined) throw new RefundRefusedError(`No such charge: '${request.transactionId}'`, 'resource_missing');
      const refundedBefore = refundedCents.get(request.transactionId) ?? 0;
      const left = chargedCents - refundedBefore;
      if (left === 0) throw new RefundRefusedError(`Charge ${request.transactionId} has already been refunded.`, 'charge_already_refunded');
      const amountCents = request.amountCents ?? left;
      if (!Number.isSafeInteger(amountCents) || amountCents <= 0) throw new RefundRefusedError('Invalid positive integer', 'parameter_invalid_integer');
      if (amountCents > left) throw new RefundRefusedError(`Refund amount must be at most ${left} cents, what is left of the charge`, 'amount_too_large');
      refundedCents.set(request.transactionId, refundedBefore + amountCents);
      const record: TestRefundRecord = {
        transactionId: request.transactionId,
        idempotencyKey: request.idempotencyKey,
        refund: { refundId: newTestId('re_test_'), amountCents, status: 'succeeded' },
      };
      const made = refundLedger
        .append(record)
        .then(() => record)
        .catch((error: unknown) => {
          refundedCents.set(request.transactionId, (refundedCents.get(request.transactionId) ?? 0) - amountCents);
          throw error;
        })
        .finally(() => underway.delete(request.idempotencyKey));
      underway.set(request.idempotencyKey, made);
      return (await made).refund;
    },
    async retrieveRefund({ transactionId, idempotencyKey }: RefundLookup) {
      const found = refundLedger.get(idempotencyKey) ?? (await underway.get(idempotencyKey)?.catch(() => undefined));
      return found?.transactionId === transactionId ? found.refund : undefined;
    },
    refunds: () => refundLedger.list(),
  };
}
