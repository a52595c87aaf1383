import { z } from 'zod';
import { formatDollars, hasWholeCents, MAX_AMOUNT_DOLLARS, MIN_AMOUNT_DOLLARS } from './money';

/** Preset amount buttons in dollars (spec section 9). */
export const PRESET_AMOUNTS_DOLLARS = [5, 10, 25, 50, 100, 500, 1000] as const;
/** The amount selected when the selection screen opens, in dollars (spec section 4). */
export const DEFAULT_AMOUNT_DOLLARS = 25;

/**
 * A donation amount in dollars: a number from $1 to $999,999.99 with at most two decimals
 * (spec section 5 and issue #2). Used by the custom amount field and by the API payload.
 * No coercion: a string is rejected.
 */
export const AmountDollarsSchema = z
  .number({ error: 'Amount must be a number' })
  .min(MIN_AMOUNT_DOLLARS, `The minimum donation is ${formatDollars(MIN_AMOUNT_DOLLARS)}`)
  .max(MAX_AMOUNT_DOLLARS, `The maximum donation is ${formatDollars(MAX_AMOUNT_DOLLARS)}`)
  .refine(hasWholeCents, 'Use at most 2 decimal places');

/**
 * Reads what a donor typed into the custom amount field.
 * Returns `{amountDollars}` when it is a valid amount, `{error}` with the reason otherwise,
 * and `{}` for an empty field (nothing typed yet: no amount, no message).
 */
export function parseCustomAmount(text: string): { amountDollars?: number; error?: string } {
  const trimmed = text.trim();
  if (trimmed === '') return {};
  if (!/^\d+(\.\d*)?$|^\.\d+$/.test(trimmed)) return { error: 'Enter an amount in dollars, like 30 or 12.50' };
  const result = AmountDollarsSchema.safeParse(Number(trimmed));
  if (!result.success) return { error: result.error.issues[0]?.message ?? 'Enter a valid amount' };
  return { amountDollars: result.data };
}
