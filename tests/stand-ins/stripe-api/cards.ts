/**
 * Stripe's test cards (https://docs.stripe.com/testing, /work/shared/test-cards.md) and what the
 * stand-in does with each: succeed, decline with Stripe's codes and donor-facing messages, require
 * 3-D Secure, attach but fail on charge. A card number is read once, here, to pick its behaviour; only
 * brand, funding, last4, expiry and a keyed fingerprint leave this module. Nothing stores the PAN or CVC.
 */
import { createHmac, randomBytes } from 'node:crypto';

/** A decline as Stripe reports it: `code` (error code), `decline_code` (issuer's reason) and the message Stripe shows donors. */
export interface Decline {
  code: string;
  declineCode: string;
  message: string;
}

/** Stripe's decline answers for its decline test cards (https://docs.stripe.com/declines/codes). */
export const DECLINES = {
  generic_decline: { code: 'card_declined', declineCode: 'generic_decline', message: 'Your card was declined.' },
  insufficient_funds: { code: 'card_declined', declineCode: 'insufficient_funds', message: 'Your card has insufficient funds.' },
  lost_card: { code: 'card_declined', declineCode: 'lost_card', message: 'Your card was declined.' },
  stolen_card: { code: 'card_declined', declineCode: 'stolen_card', message: 'Your card was declined.' },
  expired_card: { code: 'expired_card', declineCode: 'expired_card', message: 'Your card has expired.' },
  incorrect_cvc: { code: 'incorrect_cvc', declineCode: 'incorrect_cvc', message: "Your card's security code is incorrect." },
  processing_error: {
    code: 'processing_error',
    declineCode: 'processing_error',
    message: 'An error occurred while processing your card. Try again in a little bit.',
  },
  authentication_required: {
    code: 'authentication_required',
    declineCode: 'authentication_required',
    message: 'Your card was declined. This transaction requires authentication.',
  },
  test_mode_live_card: {
    code: 'card_declined',
    declineCode: 'test_mode_live_card',
    message:
      'Your card was declined. Your request was in test mode, but used a non test (live) card. For a list of valid test cards, visit: https://stripe.com/docs/testing.',
  },
} satisfies Record<string, Decline>;

/**
 * What a card does when used:
 * - `succeed`: every charge succeeds;
 * - `decline`: every charge (and setup) is declined with `decline`;
 * - `charge_fails`: attaching / setting up succeeds, every charge is declined (4000000000000341);
 * - `authenticate_once`: 3-D Secure on session; off-session charges after a setup need none (4000002500003155);
 * - `authenticate_always`: 3-D Secure on every payment; off session it is declined `authentication_required` (4000002760003184);
 * - `dispute`: the charge succeeds and is then disputed as fraudulent (4000000000000259).
 */
export type CardBehaviour =
  | { kind: 'succeed' }
  | { kind: 'decline'; decline: Decline }
  | { kind: 'charge_fails' }
  | { kind: 'authenticate_once' }
  | { kind: 'authenticate_always' }
  | { kind: 'dispute' };

const SPECIAL_CARDS: Record<string, CardBehaviour> = {
  '4000000000000002': { kind: 'decline', decline: DECLINES.generic_decline },
  '4000000000009995': { kind: 'decline', decline: DECLINES.insufficient_funds },
  '4000000000009987': { kind: 'decline', decline: DECLINES.lost_card },
  '4000000000009979': { kind: 'decline', decline: DECLINES.stolen_card },
  '4000000000000069': { kind: 'decline', decline: DECLINES.expired_card },
  '4000000000000127': { kind: 'decline', decline: DECLINES.incorrect_cvc },
  '4000000000000119': { kind: 'decline', decline: DECLINES.processing_error },
  '4000000000000341': { kind: 'charge_fails' },
  '4000002500003155': { kind: 'authenticate_once' },
  '4000002760003184': { kind: 'authenticate_always' },
  '4000000000000259': { kind: 'dispute' },
};

/** Stripe's published succeeding test numbers (test-cards.md, "Succeed"). */
const SUCCEEDING_CARDS = new Set([
  '4242424242424242', '4000056655665556', '5555555555554444', '2223003122003222', '5200828282828210',
  '5105105105105100', '378282246310005', '371449635398431', '6011111111111117', '6011000990139424',
  '3056930009020004', '3566002020360505', '6200000000000005',
]);

/** Stripe's test PaymentMethod ids (https://docs.stripe.com/testing?testing-method=payment-methods) and the card each stands for. */
export const TEST_PAYMENT_METHODS: Record<string, string> = {
  pm_card_visa: '4242424242424242',
  pm_card_visa_debit: '4000056655665556',
  pm_card_mastercard: '5555555555554444',
  pm_card_amex: '378282246310005',
  pm_card_discover: '6011111111111117',
  pm_card_chargeDeclined: '4000000000000002',
  pm_card_chargeDeclinedInsufficientFunds: '4000000000009995',
  pm_card_chargeDeclinedLostCard: '4000000000009987',
  pm_card_chargeDeclinedStolenCard: '4000000000009979',
  pm_card_chargeDeclinedExpiredCard: '4000000000000069',
  pm_card_chargeDeclinedIncorrectCvc: '4000000000000127',
  pm_card_chargeDeclinedProcessingError: '4000000000000119',
  pm_card_chargeCustomerFail: '4000000000000341',
  pm_card_authenticationRequiredOnSetup: '4000002500003155',
  pm_card_authenticationRequired: '4000002760003184',
  pm_card_createDispute: '4000000000000259',
};

/** The card as the stand-in keeps it: never the number nor the CVC. */
export interface CardSummary {
  brand: 'visa' | 'mastercard' | 'amex' | 'discover' | 'diners' | 'jcb' | 'unionpay' | 'unknown';
  funding: 'credit' | 'debit' | 'prepaid';
  last4: string;
  expMonth: number;
  expYear: number;
  /** Keyed hash of the number, stable for one stand-in (Stripe's `fingerprint`). */
  fingerprint: string;
  behaviour: CardBehaviour;
}

/** A card that Stripe refuses before any charge: Stripe's `card_error` code, message and `param`. */
export interface CardValidationError {
  code: string;
  message: string;
  param: string;
}

const fingerprintKey = randomBytes(32);

/** Luhn checksum of a digit string. */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return digits.length >= 12 && sum % 10 === 0;
}

/** Card brand from the number's prefix (IIN ranges). */
export function brandOf(digits: string): CardSummary['brand'] {
  if (/^4/.test(digits)) return 'visa';
  if (/^(5[1-5]|222[1-9]|22[3-9]\d|2[3-6]\d\d|27[01]\d|2720)/.test(digits)) return 'mastercard';
  if (/^3[47]/.test(digits)) return 'amex';
  if (/^(6011|65|64[4-9])/.test(digits)) return 'discover';
  if (/^(3[0689])/.test(digits)) return 'diners';
  if (/^35/.test(digits)) return 'jcb';
  if (/^62/.test(digits)) return 'unionpay';
  return 'unknown';
}

/**
 * Validates raw card fields as Stripe's API does (number by Luhn, month 1-12, expiry not past, CVC of
 * 3 digits or 4 for American Express) and summarises the card. `now` defaults to the current date.
 * Returns the summary, or the `card_error` Stripe answers (HTTP 402).
 */
export function summariseCard(
  input: { number: string; expMonth: number; expYear: number; cvc: string | undefined },
  now = new Date(),
): CardSummary | CardValidationError {
  const digits = input.number.replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(digits) || !passesLuhn(digits)) {
    return { code: 'incorrect_number', message: 'Your card number is incorrect.', param: 'number' };
  }
  const year = input.expYear < 100 ? 2000 + input.expYear : input.expYear;
  if (!Number.isInteger(input.expMonth) || input.expMonth < 1 || input.expMonth > 12) {
    return { code: 'invalid_expiry_month', message: "Your card's expiration month is invalid.", param: 'exp_month' };
  }
  if (!Number.isInteger(year) || year < now.getUTCFullYear() || year > now.getUTCFullYear() + 50) {
    return { code: 'invalid_expiry_year', message: "Your card's expiration year is invalid.", param: 'exp_year' };
  }
  if (year === now.getUTCFullYear() && input.expMonth < now.getUTCMonth() + 1) {
    return { code: 'invalid_expiry_month', message: "Your card's expiration month is invalid.", param: 'exp_month' };
  }
  const brand = brandOf(digits);
  if (input.cvc !== undefined && input.cvc !== '' && !(brand === 'amex' ? /^\d{4}$/ : /^\d{3}$/).test(input.cvc)) {
    return { code: 'invalid_cvc', message: "Your card's security code is invalid.", param: 'cvc' };
  }
  const special = SPECIAL_CARDS[digits];
  const behaviour: CardBehaviour =
    special ?? (SUCCEEDING_CARDS.has(digits) ? { kind: 'succeed' } : { kind: 'decline', decline: DECLINES.test_mode_live_card });
  return {
    brand,
    funding: ['4000056655665556', '5200828282828210'].includes(digits) ? 'debit' : digits === '5105105105105100' ? 'prepaid' : 'credit',
    last4: digits.slice(-4),
    expMonth: input.expMonth,
    expYear: year,
    fingerprint: createHmac('sha256', fingerprintKey).update(digits).digest('base64url').slice(0, 16),
    behaviour,
  };
}

/** True when `summariseCard` refused the card. */
export function isCardValidationError(value: CardSummary | CardValidationError): value is CardValidationError {
  return 'code' in value;
}
