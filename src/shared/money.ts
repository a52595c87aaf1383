/**
 * Money rules shared by browser and server.
 * NOTE: inside the server and the database money is integer cents (minor units);
 * dollars appear only at the API edge and in the UI (DESIGN.md, "Money").
 */

/** Smallest gift in dollars (spec section 5: custom amount minimum 1). */
export const MIN_AMOUNT_DOLLARS = 1;
/** Largest gift in dollars (issue #2: 1 <= amount <= 999,999.99). */
export const MAX_AMOUNT_DOLLARS = 999_999.99;
/** The only currency the site takes (spec section 9: "Currency: dollar"). */
export const CURRENCY = 'USD';

/** True when a dollar amount has at most two decimals, i.e. is a whole number of cents. */
export function hasWholeCents(amountDollars: number): boolean {
  const cents = amountDollars * 100;
  return Number.isFinite(cents) && Math.abs(cents - Math.round(cents)) < 1e-6;
}

/**
 * Converts dollars (e.g. 12.5) to integer cents (1250).
 * Throws a RangeError when the amount is not finite or has fractional cents.
 */
export function dollarsToCents(amountDollars: number): number {
  if (!hasWholeCents(amountDollars)) {
    throw new RangeError(`Not a whole number of cents: ${amountDollars}`);
  }
  return Math.round(amountDollars * 100);
}

/** Converts integer cents (1250) to dollars (12.5). */
export function centsToDollars(amountCents: number): number {
  return amountCents / 100;
}

/** `Intl` currency formatters per language and number of fraction digits (0 or 2), made once each. */
const formatters = new Map<string, Intl.NumberFormat>();
function dollarFormat(locale: string, fractionDigits: 0 | 2): Intl.NumberFormat {
  const key = `${locale}/${fractionDigits}`;
  let format = formatters.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, {
      style: 'currency',
      currency: CURRENCY,
      minimumFractionDigits: fractionDigits,
      maximumFractionDigits: fractionDigits,
    });
    formatters.set(key, format);
  }
  return format;
}

/**
 * Formats a dollar amount for display as `locale` writes US dollars (`Intl`; default en-US): `$25`, `$1,000`,
 * `$12.50`; Spanish `25 US$`, `12,50 US$` (cents shown only when present; issue #2 "Amount display everywhere",
 * issue #24).
 */
export function formatDollars(amountDollars: number, locale: string = 'en-US'): string {
  return dollarFormat(locale, Number.isInteger(amountDollars) ? 0 : 2).format(amountDollars);
}
