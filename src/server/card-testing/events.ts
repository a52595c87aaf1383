/**
 * The structured log events of the card-testing defence (issue #4: "Every decision logs a structured event
 * (no card data) so an operator can see an attack"). Each is a pino line with `event` set to one of these;
 * card numbers, CVVs and e-mail addresses never appear, fingerprints only as an 8-character prefix.
 */
export const CARD_TESTING_EVENTS = {
  /**
   * A request refused with 429: `limit` says which one (`ip`: the IP's declined and refused attempts,
   * `ipCeiling`: all of its attempts, `email` or `card`).
   */
  rateLimitBlocked: 'rate_limit.blocked',
  /** An IP past the velocity limit answered a generic decline without reaching the gateway. */
  velocityBlocked: 'velocity.blocked',
  /**
   * A payment attempt within every limit, let through to the Idempotency-Key claim and the gateway, with what
   * is left of the IP's velocity limit, the card's declines and the e-mail's declined or refused attempts.
   */
  attemptAllowed: 'attempt.allowed',
  /** The gateway declined a card: counted against the card and the IP. */
  declineRecorded: 'decline.recorded',
  /** A custom amount under MIN_DONATION_AMOUNT refused with 400. */
  amountBelowMinimum: 'amount.below_minimum',
  /** The counter store (Redis) failed; the request went on unchecked (fail open). */
  storeError: 'rate_limit.store_error',
} as const;

/** One of {@link CARD_TESTING_EVENTS}. */
export type CardTestingEvent = (typeof CARD_TESTING_EVENTS)[keyof typeof CARD_TESTING_EVENTS];

/** The limits that refuse a request with 429, as logged in `rate_limit.blocked`. */
export const BLOCKING_LIMITS = ['ip', 'ipCeiling', 'email', 'card'] as const;

/** One of {@link BLOCKING_LIMITS}. */
export type BlockingLimit = (typeof BLOCKING_LIMITS)[number];

/**
 * Every limit that refuses a payment attempt: the 429 limits and `velocity` (a generic decline without the gateway),
 * as counted by the card-testing refusals metric (issue #14).
 */
export const REFUSING_LIMITS = [...BLOCKING_LIMITS, 'velocity'] as const;

/** One of {@link REFUSING_LIMITS}. */
export type RefusingLimit = (typeof REFUSING_LIMITS)[number];
