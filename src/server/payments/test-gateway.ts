import { cardLast4, detectCardBrand, isCardExpired, isValidCvv, passesLuhn } from '../../shared/card';
import { memoryChargeLedger, type ChargeLedger, type ChargeRecord, type GatewayLedger } from './charge-ledger';
import {
  SetupIntentsUnsupportedError,
  type ChargeCard,
  type ChargeDeclined,
  type ChargeLookup,
  type ChargeRequest,
  type ChargeResult,
  type PaymentGateway,
  type SavedPaymentMethodChargeRequest,
} from './gateway';
import { newTestId } from './test-ids';
import { createTestPaymentIntents } from './test-payment-intents';
import { createTestRefunds, type TestRefundRecord } from './test-refunds';
import { ATTACHES_THEN_DECLINES_CARD, decideSavedCharge, vaultTestCard } from './test-vault';

/**
 * A payment gateway that behaves like Stripe in test mode (issue #2; /shared/test-cards.md, from
 * Stripe's published test card numbers, https://docs.stripe.com/testing). No money ever moves:
 * every result has `isTestPayment: true`, and any card that is not a test card is declined, so a
 * test deployment can never take a real card.
 */

/** Test card numbers that succeed (test-cards.md, "Succeed"). */
export const TEST_SUCCESS_CARDS: readonly string[] = [
  '4242424242424242',
  '4000056655665556',
  '5555555555554444',
  '2223003122003222',
  '5200828282828210',
  '5105105105105100',
  '378282246310005',
  '371449635398431',
  '6011111111111117',
  '6011000990139424',
  '3056930009020004',
  '3566002020360505',
  '6200000000000005',
];

/** Stripe's donor-facing decline messages (test-cards.md, "Fail"). */
export const DECLINE_MESSAGES = {
  generic: 'Your card was declined.',
  insufficientFunds: 'Your card has insufficient funds.',
  expired: 'Your card has expired.',
  incorrectCvc: "Your card's security code is incorrect.",
  processingError: 'An error occurred while processing your card. Try again in a little bit.',
  incorrectNumber: 'Your card number is incorrect.',
  testModeLiveCard: 'This site is in test mode and accepts only test cards. No real card can be charged.',
} as const;

/** Test card numbers that are declined, with Stripe's decline code and message (test-cards.md, "Fail"). */
export const TEST_DECLINE_CARDS: Readonly<Record<string, { declineCode: string; message: string }>> = {
  '4000000000000002': { declineCode: 'card_declined', message: DECLINE_MESSAGES.generic },
  '4000000000009995': { declineCode: 'insufficient_funds', message: DECLINE_MESSAGES.insufficientFunds },
  '4000000000009987': { declineCode: 'lost_card', message: DECLINE_MESSAGES.generic },
  '4000000000009979': { declineCode: 'stolen_card', message: DECLINE_MESSAGES.generic },
  '4000000000000069': { declineCode: 'expired_card', message: DECLINE_MESSAGES.expired },
  '4000000000000127': { declineCode: 'incorrect_cvc', message: DECLINE_MESSAGES.incorrectCvc },
  '4000000000000119': { declineCode: 'processing_error', message: DECLINE_MESSAGES.processingError },
  // Stripe's card that can be saved but whose charges are declined (issue #13; see test-vault.ts).
  [ATTACHES_THEN_DECLINES_CARD]: { declineCode: 'card_declined', message: DECLINE_MESSAGES.generic },
};

/** Decline code for a card that is not a test card (test mode takes test cards only; issue #2). */
export const TEST_MODE_LIVE_CARD_CODE = 'test_mode_live_card';

/** A Stripe-like charge id: `ch_test_` and 24 base62 characters from the CSPRNG (see newTestId). */
export function newTestTransactionId(): string {
  return newTestId('ch_test_');
}

const declined = (declineCode: string, message: string): ChargeDeclined => ({
  status: 'declined',
  declineCode,
  message,
  isTestPayment: true,
});

/**
 * Raised when an idempotency key is reused with a different amount, currency or card, as Stripe answers
 * `idempotency_error` ("Keys for idempotent requests can only be used with the same parameters they were
 * first used with"). Nothing is charged.
 */
export class IdempotencyKeyReuseError extends Error {
  constructor() {
    super('This idempotency key was already used with different charge parameters');
    this.name = 'IdempotencyKeyReuseError';
  }
}

/** The test gateway, which can also list the charges it made (for tests and the crash checks). */
export interface TestGateway extends PaymentGateway {
  /** Every charge made so far (succeeded or declined), one per idempotency key. */
  charges(): ChargeRecord[];
  /** Every refund made so far, oldest first, one per idempotency key (issue #14; see createTestRefunds). */
  refunds(): TestRefundRecord[];
}

/** What identifies a charge's parameters in the ledger, to refuse a key reused with others: amount, currency, last4. */
type ChargeParameters = Pick<ChargeRecord, 'amountCents' | 'currency' | 'last4'>;

/** The result of an earlier charge with the same key; throws {@link IdempotencyKeyReuseError} when the parameters differ. */
function replay(earlier: ChargeRecord, request: ChargeParameters): ChargeResult {
  const sameCharge = earlier.amountCents === request.amountCents && earlier.currency === request.currency && earlier.last4 === request.last4;
  if (!sameCharge) throw new IdempotencyKeyReuseError();
  return earlier.result;
}

/** What the card alone decides, before any idempotency bookkeeping (test-cards.md). */
function decide(card: ChargeCard, now: Date): ChargeResult {
  const { number, expiryMonth, expiryYear, cvc } = card;
  if (!passesLuhn(number)) return declined('incorrect_number', DECLINE_MESSAGES.incorrectNumber);
  if (isCardExpired(String(expiryMonth).padStart(2, '0'), String(expiryYear), now)) {
    return declined('expired_card', DECLINE_MESSAGES.expired);
  }
  if (!isValidCvv(cvc)) return declined('incorrect_cvc', DECLINE_MESSAGES.incorrectCvc);

  const decline = TEST_DECLINE_CARDS[number];
  if (decline) return declined(decline.declineCode, decline.message);
  if (!TEST_SUCCESS_CARDS.includes(number)) {
    return declined(TEST_MODE_LIVE_CARD_CODE, DECLINE_MESSAGES.testModeLiveCard);
  }
  return {
    status: 'succeeded',
    transactionId: newTestTransactionId(),
    cardBrand: detectCardBrand(number),
    last4: cardLast4(number),
    isTestPayment: true,
  };
}

/**
 * Creates the test gateway (`PAYMENT_GATEWAY=test`, the default). `charge` resolves with:
 * - succeeded, a new `ch_test_...` id, the brand from the number's prefix (shared detectCardBrand) and
 *   last4, for each test-cards.md success number;
 * - declined with the decline code and message of test-cards.md for each failure number;
 * - declined `incorrect_number` / `expired_card` / `incorrect_cvc` when the number fails Luhn, the expiry
 *   is past or the CVC is not 3-4 digits (validation catches these first; Stripe checks them too);
 * - declined {@link TEST_MODE_LIVE_CARD_CODE} for any other number.
 * Idempotency as Stripe's (issue #3): the result is kept in `ledger` under the request's idempotency key
 * before `charge` resolves, and a later or concurrent charge with that key resolves with the same result
 * and charges nothing; `retrieveCharge(key)` answers that result, or `not_found`.
 * Throws a RangeError when the amount is not a positive whole number of cents (a programming error), and
 * {@link IdempotencyKeyReuseError} when a key comes back with another amount, currency or card.
 * Payment intents: see createTestPaymentIntents (confirmed on the server with a test card); refunds of any charge it
 * made: see createTestRefunds.
 * `ledger` and `refundLedger` default to memory; main passes file ledgers so the records outlive the process.
 */
export function createTestGateway(
  options: { now?: () => Date; ledger?: ChargeLedger; refundLedger?: GatewayLedger<TestRefundRecord> } = {},
): TestGateway {
  const now = options.now ?? (() => new Date());
  const ledger = options.ledger ?? memoryChargeLedger();
  // Charges whose record is being written, by key: a concurrent call with the same key waits for that one.
  const underway = new Map<string, Promise<ChargeRecord>>();

  /**
   * Makes the charge `key` once, with the result `outcome()` gives, and records it in the ledger; a later or
   * concurrent call with the same key answers the recorded result (after the parameters check of replay).
   */
  const chargeOnce = async (key: string, parameters: ChargeParameters, outcome: () => ChargeResult): Promise<ChargeResult> => {
    if (!Number.isSafeInteger(parameters.amountCents) || parameters.amountCents <= 0) {
      throw new RangeError('amountCents must be a positive whole number of cents');
    }
    // NOTE: no await before the key is looked up and, if new, registered: concurrent calls cannot both charge.
    const done = ledger.get(key);
    if (done) return replay(done, parameters);
    const underwayCharge = underway.get(key);
    if (underwayCharge) return replay(await underwayCharge, parameters);
    const entry: ChargeRecord = { idempotencyKey: key, ...parameters, result: outcome(), chargedAt: now().toISOString() };
    const made = ledger
      .append(entry)
      .then(() => entry)
      .finally(() => underway.delete(key));
    underway.set(key, made);
    return (await made).result;
  };

  const charge = (request: ChargeRequest): Promise<ChargeResult> =>
    chargeOnce(
      request.idempotencyKey,
      { amountCents: request.amountCents, currency: request.currency, last4: cardLast4(request.card.number) },
      () => decide(request.card, now()),
    );

  /** A renewal of a saved card (issue #13): what its token remembers decides, under the request's idempotency key. */
  const chargeSavedPaymentMethod = async (request: SavedPaymentMethodChargeRequest): Promise<ChargeResult> => {
    const decided = decideSavedCharge(
      request.paymentMethod.paymentMethodId,
      now(),
      newTestTransactionId(),
      TEST_DECLINE_CARDS,
      DECLINE_MESSAGES.generic,
      DECLINE_MESSAGES.expired,
    );
    const { last4, ...result } = decided;
    return chargeOnce(request.idempotencyKey, { amountCents: request.amountCents, currency: request.currency, last4 }, () =>
      result.status === 'succeeded' ? { ...result, last4 } : result,
    );
  };

  return {
    name: 'test',
    isTestMode: true,
    acceptsCardData: true,
    charge,
    ...createTestPaymentIntents(charge, ledger),
    ...createTestRefunds(ledger, options.refundLedger),
    async retrieveCharge(idempotencyKey: string): Promise<ChargeLookup> {
      const found = (await underway.get(idempotencyKey)) ?? ledger.get(idempotencyKey);
      return found ? found.result : { status: 'not_found' };
    },
    charges: () => ledger.list(),
    savePaymentMethod: async (card: ChargeCard) => vaultTestCard(card, (checked) => decide(checked, now())),
    chargeSavedPaymentMethod,
    // NOTE: the test gateway takes the card on the server (savePaymentMethod); SetupIntents are Stripe's browser flow.
    createSetupIntent: () => Promise.reject(new SetupIntentsUnsupportedError('test')),
    retrieveSetupIntent: () => Promise.reject(new SetupIntentsUnsupportedError('test')),
  };
}
