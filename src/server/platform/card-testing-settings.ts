/**
 * Settings of the card-testing defence (OWASP OAT-001 "Carding"; issue #4), with their defaults.
 * loadConfig (config.ts) reads each one from its environment variable; this module only says what they
 * are, so the defence and its tests share one definition.
 */

/** A count limit over a fixed window: at most `max` events per `windowMs` milliseconds. */
export interface WindowLimit {
  /** Largest number of events allowed in one window (a whole number, at least 1). */
  max: number;
  /** Length of the window, in ms. */
  windowMs: number;
}

/** The velocity rule: after `max` declines from one IP within `windowMs`, answer a generic decline after a random delay. */
export interface VelocityLimit extends WindowLimit {
  /** Shortest delay before the generic decline, in ms (0 in tests). */
  delayMinMs: number;
  /** Longest delay before the generic decline, in ms; at least `delayMinMs`. */
  delayMaxMs: number;
}

/** Everything the card-testing defence needs (see registerCardTestingDefence). */
export interface CardTestingSettings {
  /** False only with RATE_LIMITS=off (load tests and benchmarks; refused when NODE_ENV=production). */
  enabled: boolean;
  /**
   * Declined and refused payment attempts (write requests answered 4xx, but 409) per client IP
   * (RATE_LIMIT_IP_MAX / RATE_LIMIT_IP_WINDOW_MS): card testers show themselves by declines (issue #10, part 4).
   */
  ipRefusals: WindowLimit;
  /**
   * Every payment attempt (write request) per client IP, whatever its outcome (RATE_LIMIT_IP_CEILING_MAX /
   * RATE_LIMIT_IP_CEILING_WINDOW_MS): a ceiling high enough for many donors behind one address.
   */
  ipAttempts: WindowLimit;
  /**
   * Declined or refused payment attempts per donor e-mail address (RATE_LIMIT_EMAIL_MAX / RATE_LIMIT_EMAIL_WINDOW_MS);
   * a successful gift does not count (issue #32, part 3; decision 0097).
   */
  emailAttempts: WindowLimit;
  /** Declines per card fingerprint (RATE_LIMIT_CARD_DECLINES_MAX / RATE_LIMIT_CARD_WINDOW_MS). */
  cardDeclines: WindowLimit;
  /** Declines per client IP before the velocity rule answers for the gateway (VELOCITY_*). */
  velocity: VelocityLimit;
  /** Prefix of every counter's key in Redis (RATE_LIMIT_KEY_PREFIX), so several sites can share one Redis. */
  keyPrefix: string;
}

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/**
 * The defaults. Card from issue #4 (3 declines per card per hour); IP from issue #10: 5 declined or refused
 * attempts per IP per 10 minutes, and a ceiling of 60 attempts of any outcome, because carrier-grade NAT, offices,
 * campuses and an event's Wi-Fi put many donors behind one address. E-mail: 5 declined or refused attempts per hour, so a donor who mistypes a card twice still gets
 * through, and one who gives ten times in an hour too (successes do not count), while a script that rotates IPs but
 * keeps one identity is stopped. Velocity: 3 declines from one IP in 10 minutes
 * (a donor rarely sees more than two), then a generic decline after 250-1000 ms, as long as a real one takes.
 */
export const DEFAULT_CARD_TESTING_SETTINGS: CardTestingSettings = {
  enabled: true,
  ipRefusals: { max: 5, windowMs: 10 * MINUTE_MS },
  ipAttempts: { max: 60, windowMs: 10 * MINUTE_MS },
  emailAttempts: { max: 5, windowMs: HOUR_MS },
  cardDeclines: { max: 3, windowMs: HOUR_MS },
  velocity: { max: 3, windowMs: 10 * MINUTE_MS, delayMinMs: 250, delayMaxMs: 1000 },
  keyPrefix: 'reef-donations:rate-limit:',
};
