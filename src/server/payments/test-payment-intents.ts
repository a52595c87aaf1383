import type { ChargeLedger } from './charge-ledger';
import type {
  ChargeCard,
  ChargeRequest,
  ChargeResult,
  CreatePaymentIntentRequest,
  PaymentGateway,
  PaymentIntent,
} from './gateway';
import { newTestId } from './test-ids';

/**
 * The test gateway's payment intents (spec section 7; issue #11), after Stripe's Payment Intents
 * API in test mode: an intent is created `requires_payment_method`, confirmed on the server with a test card
 * (the test gateway takes card data: PAYMENT_GATEWAY=test only), `succeeded` or back to
 * `requires_payment_method` with `lastDecline` after a decline, and can be confirmed again with another card,
 * as Stripe allows. Each confirmation is a charge of the test gateway under the key
 * `${intentId}:attempt-${n}`, so it is kept in the charge ledger: after a restart, an intent that was
 * confirmed is rebuilt from the ledger; one that never was is forgotten (no money moved).
 */


/** Prefix of the charge keys of one intent's confirmations. */
const attemptKeyPrefix = (intentId: string) => `${intentId}:attempt-`;

/** A new intent awaiting a card (`requires_payment_method`), with a client secret that cannot be guessed. */
function unpaidIntent(id: string, amountCents: number, currency: string): PaymentIntent {
  return {
    id,
    clientSecret: newTestId(`${id}_secret_`),
    amountCents,
    currency,
    status: 'requires_payment_method',
    charge: undefined,
    lastDecline: undefined,
    isTestPayment: true,
  };
}

/** An intent's state after a charge result. */
function settled(intent: PaymentIntent, result: ChargeResult): PaymentIntent {
  if (result.status === 'succeeded') {
    return {
      ...intent,
      status: 'succeeded',
      charge: { transactionId: result.transactionId, cardBrand: result.cardBrand, last4: result.last4 },
      lastDecline: undefined,
    };
  }
  return {
    ...intent,
    status: 'requires_payment_method',
    lastDecline: { declineCode: result.declineCode, message: result.message },
  };
}

/** The payment-intent part of the test gateway; `charge` is the test gateway's own (idempotent, ledgered). */
export type TestPaymentIntents = Pick<PaymentGateway, 'createPaymentIntent' | 'retrievePaymentIntent' | 'confirmPaymentIntent' | 'cancelPaymentIntent'>;

/**
 * Creates the payment intents of the test gateway over its `charge` and `ledger`. Intent ids are
 * `pi_test_` and 24 random base62 characters, client secrets `${id}_secret_` and 24 more.
 * `confirmPaymentIntent` rejects with a RangeError for an unknown id and answers a succeeded or canceled intent as it
 * is (charging nothing); `cancelPaymentIntent` cancels one that has not succeeded.
 * Their charges are refunded by the test gateway's refunds (test-refunds.ts), by charge id.
 */
export function createTestPaymentIntents(charge: (request: ChargeRequest) => Promise<ChargeResult>, ledger: ChargeLedger): TestPaymentIntents {
  const intents = new Map<string, PaymentIntent>();
  const byKey = new Map<string, string>();

  /** The charges of intent `id`'s confirmations, oldest first. */
  const attemptsOf = (id: string) => ledger.list().filter((record) => record.idempotencyKey.startsWith(attemptKeyPrefix(id)));
  /** An intent confirmed before a restart, rebuilt from the ledger's charges under its keys (the success, or the last attempt). */
  const fromLedger = (id: string): PaymentIntent | undefined => {
    const attempts = attemptsOf(id);
    const last = attempts.find((record) => record.result.status === 'succeeded') ?? attempts.at(-1);
    return last && settled(unpaidIntent(id, last.amountCents, last.currency), last.result);
  };
  const find = (id: string) => intents.get(id) ?? fromLedger(id);

  return {
    async createPaymentIntent(request: CreatePaymentIntentRequest) {
      const earlier = byKey.get(request.idempotencyKey);
      if (earlier) return intents.get(earlier) as PaymentIntent;
      if (!Number.isSafeInteger(request.amountCents) || request.amountCents <= 0) {
        throw new RangeError('amountCents must be a positive whole number of cents');
      }
      const intent = unpaidIntent(newTestId('pi_test_'), request.amountCents, request.currency);
      intents.set(intent.id, intent);
      byKey.set(request.idempotencyKey, intent.id);
      return intent;
    },

    async retrievePaymentIntent(id: string) {
      return find(id);
    },

    async cancelPaymentIntent(id: string) {
      const intent = find(id);
      // NOTE: as Stripe, a succeeded (or already canceled) intent stays as it is; the caller reads its status.
      if (!intent || intent.status === 'succeeded' || intent.status === 'canceled') return intent;
      const canceled: PaymentIntent = { ...intent, status: 'canceled' };
      intents.set(id, canceled);
      return canceled;
    },

    async confirmPaymentIntent(id: string, card: ChargeCard) {
      const intent = find(id);
      if (!intent) throw new RangeError(`No such payment intent: ${id}`);
      if (intent.status === 'succeeded' || intent.status === 'canceled') return intent;
      const attempt = attemptsOf(id).length + 1;
      const result = await charge({
        amountCents: intent.amountCents,
        currency: intent.currency,
        card,
        description: `Payment intent ${id}`,
        idempotencyKey: `${attemptKeyPrefix(id)}${attempt}`,
      });
      const next = settled(intent, result);
      intents.set(id, next);
      return next;
    },
  };
}
