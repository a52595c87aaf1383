import { hasWholeCents, MAX_AMOUNT_DOLLARS, MIN_AMOUNT_DOLLARS } from './money';

/**
 * The parts of the site config the landing screen reads, without zod (issue #5 bundle budget; decision 0020):
 * the meta tag's name and the minimum amount's check. The schema of the whole config is in site-config.ts.
 */

/** Name of the `<meta>` tag in which the server hands deployment settings to the page (issue #2). */
export const SITE_CONFIG_META_NAME = 'site-config';

/**
 * True when `value` can be the deployment's minimum donation in dollars (MIN_DONATION_AMOUNT; issue #4):
 * a number from the spec's $1 to the largest gift, with at most 2 decimals. The page falls back to $1 otherwise.
 */
export function isMinAmountDollars(value: unknown): value is number {
  return typeof value === 'number' && value >= MIN_AMOUNT_DOLLARS && value <= MAX_AMOUNT_DOLLARS && hasWholeCents(value);
}
