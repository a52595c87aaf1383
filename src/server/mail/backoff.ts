/**
 * Delays between two attempts of a message after a temporary failure (issue #12): exponential backoff with
 * "equal jitter" (AWS Architecture Blog, "Exponential Backoff And Jitter"): half the exponential delay fixed,
 * half random, so retries spread out yet keep growing.
 */

/** Delay after the first failure, in ms. */
export const RETRY_BASE_DELAY_MS = 5_000;
/** Longest delay between two attempts, in ms (1 hour). */
export const RETRY_MAX_DELAY_MS = 60 * 60 * 1000;
/**
 * How long temporary failures are retried, in ms (3 days, as MTAs keep a message in their queue, RFC 5321
 * section 4.5.4.1 suggests at least 4-5 days); after that the message is given up as failed.
 */
export const RETRY_GIVE_UP_AFTER_MS = 3 * 24 * 60 * 60 * 1000;

/**
 * Milliseconds to wait after failed attempt number `attempt` (1 for the first): the exponential delay
 * `min(RETRY_MAX_DELAY_MS, RETRY_BASE_DELAY_MS * 2^(attempt-1))`, of which the second half is scaled by
 * `random()` (a number in [0, 1); Math.random by default). Throws on an attempt below 1.
 */
export function retryDelayMs(attempt: number, random: () => number = Math.random): number {
  if (!Number.isInteger(attempt) || attempt < 1) throw new RangeError(`attempt must be a whole number of at least 1, not ${attempt}`);
  // NOTE: the exponent is capped so 2^n stays finite for absurd attempt counts.
  const exponential = Math.min(RETRY_MAX_DELAY_MS, RETRY_BASE_DELAY_MS * 2 ** Math.min(attempt - 1, 30));
  const half = exponential / 2;
  return Math.round(half + half * random());
}
