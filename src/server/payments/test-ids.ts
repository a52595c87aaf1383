import { randomInt } from 'node:crypto';

/** The characters of Stripe's object ids after their prefix. */
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * A Stripe-like id of the test gateway: `prefix` (`ch_test_`, `pi_test_`, `re_test_`...) and 24 base62 characters
 * from the CSPRNG (crypto.randomInt, unbiased), so ids and client secrets cannot be guessed.
 */
export function newTestId(prefix: string): string {
  return prefix + Array.from({ length: 24 }, () => BASE62[randomInt(BASE62.length)]).join('');
}
