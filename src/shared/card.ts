import { z } from 'zod';

/** Card brands the site tells apart (spec section 3, "Card types by prefix"). */
export const CARD_BRANDS = ['visa', 'mastercard', 'amex', 'discover', 'unknown'] as const;
/** One of {@link CARD_BRANDS}. */
export const CardBrandSchema = z.enum(CARD_BRANDS);
/** A card brand such as `visa`. */
export type CardBrand = z.infer<typeof CardBrandSchema>;

/** Names of the brands for the card number hint. */
export const CARD_BRAND_NAMES: Record<CardBrand, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  unknown: 'Unknown',
};

/** The most characters the formatted card number field takes, spaces included (spec section 9). */
export const CARD_NUMBER_MAX_LENGTH = 19;
/** Fewest and most digits of a card number (PAN) that the site accepts (ISO/IEC 7812). */
export const PAN_MIN_DIGITS = 12;
export const PAN_MAX_DIGITS = 19;

/** Removes the spaces a donor or the formatter put in a card number (spec section 5: "spaces ignored"). */
export function stripCardNumber(text: string): string {
  return text.replace(/\s+/g, '');
}

/**
 * Luhn (mod 10) checksum of a string of digits (ISO/IEC 7812-1).
 * Returns false for an empty string or any non-digit character.
 */
export function passesLuhn(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/**
 * The card brand from the number's prefix (spec section 3): visa starts with 4; mastercard 51-55
 * and, beyond the spec, the 2-series 2221-2720 (issue #2); amex 34 or 37; discover starts with 6;
 * anything else is `unknown`. Spaces are ignored. The browser shows it as a hint and the server
 * recomputes it rather than trust the payload's `type`.
 */
export function detectCardBrand(cardNumber: string): CardBrand {
  const digits = stripCardNumber(cardNumber);
  if (/^4/.test(digits)) return 'visa';
  if (/^5[1-5]/.test(digits)) return 'mastercard';
  const firstFour = Number(digits.slice(0, 4));
  if (digits.length >= 4 && firstFour >= 2221 && firstFour <= 2720) return 'mastercard';
  if (/^3[47]/.test(digits)) return 'amex';
  if (/^6/.test(digits)) return 'discover';
  return 'unknown';
}

/**
 * Formats what a donor types into the card number field: keeps digits only, groups them in
 * fours with single spaces, and cuts at {@link CARD_NUMBER_MAX_LENGTH} characters (spec section 5).
 * `formatCardNumber('4242424242424242')` is `'4242 4242 4242 4242'`.
 */
export function formatCardNumber(text: string): string {
  const digits = text.replace(/\D/g, '');
  const grouped = digits.replace(/(\d{4})(?=\d)/g, '$1 ');
  return grouped.slice(0, CARD_NUMBER_MAX_LENGTH).trimEnd();
}

/** The last four digits of a card number, the only part of it the site keeps (PCI DSS 3.4). */
export function cardLast4(cardNumber: string): string {
  return stripCardNumber(cardNumber).slice(-4);
}

/** True when a string is 3 or 4 digits: the CVV rule for every brand (spec section 5). */
export function isValidCvv(cvv: string): boolean {
  return /^\d{3,4}$/.test(cvv);
}

/** Number of expiry years offered: the current year and the next 20 (spec section 3). */
export const EXPIRY_YEAR_COUNT = 21;

/** An option of an expiry select: the value sent in the payload and the text shown. */
export interface ExpiryOption {
  value: string;
  label: string;
}

/**
 * Expiry month options in `locale` (a BCP 47 tag such as 'en' or 'es'): values '01'..'12', labels like
 * '01 - January' / '01 - enero' (spec section 3; issue #24: month names from Intl, never hand-written).
 */
export function expiryMonthOptions(locale: string): ExpiryOption[] {
  const monthName = new Intl.DateTimeFormat(locale, { month: 'long', timeZone: 'UTC' });
  return Array.from({ length: 12 }, (_, index) => {
    const value = String(index + 1).padStart(2, '0');
    return { value, label: `${value} - ${monthName.format(Date.UTC(2000, index, 1))}` };
  });
}

/**
 * Expiry year options: the year of `now` and the next 20, as four-digit strings (spec section 3).
 * Takes the clock as an argument so that tests and the server decide "now" themselves.
 */
export function expiryYearOptions(now: Date = new Date()): ExpiryOption[] {
  const first = now.getFullYear();
  return Array.from({ length: EXPIRY_YEAR_COUNT }, (_, i) => {
    const value = String(first + i);
    return { value, label: value };
  });
}

/**
 * True when a card with this expiry month ('01'..'12') and year ('2027') has expired at `now`:
 * a card is good through the last day of its expiry month (issue #2: "Card has expired").
 */
export function isCardExpired(expiryMonth: string, expiryYear: string, now: Date = new Date()): boolean {
  const year = Number(expiryYear);
  const month = Number(expiryMonth);
  const currentYear = now.getFullYear();
  const currentMonth = now.getMonth() + 1;
  return year < currentYear || (year === currentYear && month < currentMonth);
}
