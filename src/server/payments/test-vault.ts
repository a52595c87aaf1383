import { randomBytes } from 'node:crypto';
import { cardLast4, detectCardBrand, isCardExpired, type CardBrand } from '../../shared/card';
import type { ChargeCard, ChargeDeclined, ChargeResult, SavedPaymentMethod, SavePaymentMethodResult } from './gateway';

/**
 * The test gateway's saved cards (issue #13): a saved card is a token, `pm_test_<payload>_<random>`, whose payload
 * remembers only how its test card behaves (succeeds, or the decline code of its charges), its brand, last4 and
 * expiry, never the number. Nothing is stored: the token is the whole record, so it outlives the process like the
 * charge ledger does. Test mode only (PAYMENT_GATEWAY=test): anyone could write such a token, and no money moves.
 */

/** What a test token remembers. */
interface TestCardBehaviour {
  /** `succeeds`, or the decline code every charge of the card gets. */
  behaviour: string;
  brand: CardBrand;
  last4: string;
  expiryMonth: number;
  expiryYear: number;
}

/** Prefix of the test gateway's saved cards. */
export const TEST_PAYMENT_METHOD_PREFIX = 'pm_test_';

/**
 * Stripe's test card whose attachment to a Customer succeeds but whose charges are declined (`card_declined`;
 * https://docs.stripe.com/testing, "Declined payments"): a saved card to rehearse failed renewals with.
 */
export const ATTACHES_THEN_DECLINES_CARD = '4000000000000341';

/** A token for `behaviour`. */
function tokenOf(behaviour: TestCardBehaviour): string {
  const payload = Buffer.from(JSON.stringify(behaviour), 'utf8').toString('base64url');
  return `${TEST_PAYMENT_METHOD_PREFIX}${payload}_${randomBytes(6).toString('hex')}`;
}

/** What a token remembers, or undefined when it is not a test token. */
function readToken(paymentMethodId: string): TestCardBehaviour | undefined {
  const match = /^pm_test_([A-Za-z0-9_-]+)_[0-9a-f]{12}$/.exec(paymentMethodId);
  if (!match) return undefined;
  try {
    const parsed = JSON.parse(Buffer.from(match[1] ?? '', 'base64url').toString('utf8')) as Partial<TestCardBehaviour>;
    const { behaviour, brand, last4, expiryMonth, expiryYear } = parsed;
    if (typeof behaviour !== 'string' || typeof brand !== 'string' || typeof last4 !== 'string') return undefined;
    if (typeof expiryMonth !== 'number' || typeof expiryYear !== 'number') return undefined;
    return { behaviour, brand: brand as CardBrand, last4, expiryMonth, expiryYear };
  } catch {
    return undefined;
  }
}

/**
 * Saves `card` as a token, after the checks a charge of it would pass (`decide`: number, expiry, CVC, test card).
 * A card whose charges succeed is saved as `succeeds`; {@link ATTACHES_THEN_DECLINES_CARD} is saved and declines
 * every charge; any other card is refused with the decline a charge would get (as Stripe refuses to attach them).
 */
export function vaultTestCard(card: ChargeCard, decide: (card: ChargeCard) => ChargeResult): SavePaymentMethodResult {
  const attachesThenDeclines = card.number === ATTACHES_THEN_DECLINES_CARD;
  const outcome = decide(attachesThenDeclines ? { ...card, number: '4242424242424242' } : card);
  if (outcome.status === 'declined') return outcome;
  const paymentMethod: SavedPaymentMethod = {
    paymentMethodId: tokenOf({
      behaviour: attachesThenDeclines ? 'card_declined' : 'succeeds',
      brand: detectCardBrand(card.number),
      last4: cardLast4(card.number),
      expiryMonth: card.expiryMonth,
      expiryYear: card.expiryYear,
    }),
    customerId: undefined,
    cardBrand: detectCardBrand(card.number),
    last4: cardLast4(card.number),
    expiryMonth: card.expiryMonth,
    expiryYear: card.expiryYear,
  };
  return { status: 'saved', paymentMethod };
}

/**
 * What a charge of the saved card `paymentMethodId` gets at `now`: succeeded (with `transactionId`), its decline,
 * `expired_card` once the card's expiry month is over, or `card_declined` for a token that is not the test gateway's.
 */
export function decideSavedCharge(
  paymentMethodId: string,
  now: Date,
  transactionId: string,
  declines: Readonly<Record<string, { declineCode: string; message: string }>>,
  genericMessage: string,
  expiredMessage: string,
): ChargeResult & { last4: string } {
  const saved = readToken(paymentMethodId);
  const declined = (declineCode: string, message: string): ChargeDeclined & { last4: string } => ({
    status: 'declined',
    declineCode,
    message,
    isTestPayment: true,
    last4: saved?.last4 ?? '0000',
  });
  if (!saved) return declined('card_declined', genericMessage);
  if (isCardExpired(String(saved.expiryMonth).padStart(2, '0'), String(saved.expiryYear), now)) return declined('expired_card', expiredMessage);
  if (saved.behaviour !== 'succeeds') {
    const known = Object.values(declines).find((decline) => decline.declineCode === saved.behaviour);
    return declined(saved.behaviour, known?.message ?? genericMessage);
  }
  return { status: 'succeeded', transactionId, cardBrand: saved.brand, last4: saved.last4, isTestPayment: true };
}
