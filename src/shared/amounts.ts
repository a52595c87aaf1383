import { formatDollars, hasWholeCents, MAX_AMOUNT_DOLLARS, MIN_AMOUNT_DOLLARS } from './money';

/** Preset amount buttons in dollars (spec section 9). */
export const PRESET_AMOUNTS_DOLLARS = [5, 10, 25, 50, 100, 500, 1000] as const;
/** The amount selected when the selection screen opens, in dollars (spec section 4). */
export const DEFAULT_AMOUNT_DOLLARS = 25;

/**
 * Why the custom amount field's text selects no amount when it is not a plain dollar figure (issue #2: the
 * field says why): `-5`, `1e3`, `abc`, or text the browser's number input cannot read at all (`-`, `1e`).
 */
export const NOT_AN_AMOUNT_MESSAGE = 'Enter an amount in dollars, like 30 or 12.50';

/**
 * Why a dollar amount cannot be given, or undefined when it can: a number from `minDollars` (default $1,
 * the spec's) to $999,999.99 with at most two decimals (spec section 5 and issue #2). The rule of the
 * custom amount field and, through AmountDollarsSchema (field-rules.ts), of the API payload.
 * `minDollars` is the deployment's MIN_DONATION_AMOUNT (issue #4, card-testing defence): the server passes
 * its own, the page the one the server put in its site config; it can only raise the $1 floor.
 * NOTE: plain code rather than zod, so the landing screen ships without zod (issue #5 bundle budget).
 */
export function amountError(amountDollars: number, minDollars: number = MIN_AMOUNT_DOLLARS): string | undefined {
  const minimum = Math.max(minDollars, MIN_AMOUNT_DOLLARS);
  if (typeof amountDollars !== 'number' || Number.isNaN(amountDollars)) return 'Amount must be a number';
  if (amountDollars < minimum) return `The minimum donation is ${formatDollars(minimum)}`;
  if (amountDollars > MAX_AMOUNT_DOLLARS) return `The maximum donation is ${formatDollars(MAX_AMOUNT_DOLLARS)}`;
  if (!hasWholeCents(amountDollars)) return 'Use at most 2 decimal places';
  return undefined;
}

/**
 * Reads what a donor typed into the custom amount field, with `minDollars` as the smallest amount (see
 * {@link amountError}). Returns `{amountDollars}` when it is a valid amount, `{error}` with the reason
 * otherwise, and `{}` for an empty field (nothing typed yet: no amount, no message).
 */
export function parseCustomAmount(text: string, minDollars: number = MIN_AMOUNT_DOLLARS): { amountDollars?: number; error?: string } {
  const trimmed = text.trim();
  if (trimmed === '') return {};
  if (!/^\d+(\.\d*)?$|^\.\d+$/.test(trimmed)) return { error: NOT_AN_AMOUNT_MESSAGE };
  const amountDollars = Number(trimmed);
  const error = amountError(amountDollars, minDollars);
  return error ? { error } : { amountDollars };
}
