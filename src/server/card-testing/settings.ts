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
  /** Payment attempts (every write request) per client IP (RATE_LIMIT_IP_MAX / RATE_LIMIT_IP_WINDOW_MS). */
  ipAttempts: WindowLimit;
  /** Payment attempts per donor e-mail address (RATE_LIMIT_EMAIL_MAX / RATE_LIMIT_EMAIL_WINDOW_MS). */
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
 * The defaults. IP and card come from issue #4 (5 attempts per IP per 10 minutes, 3 declines per card per
 * hour). E-mail: 5 attempts per hour, so a donor who mistypes a card twice still gets through, while a
 * script that rotates IPs but keeps one identity is stopped. Velocity: 3 declines from one IP in 10 minutes
 * (a donor rarely sees more than two), then a generic decline after 250-1000 ms, as long as a real one takes.
 */
export const DEFAULT_CARD_TESTING_SETTINGS: CardTestingSettings = {
  enabled: true,
  ipAttempts: { max: 5, windowMs: 10 * MINUTE_MS },
  emailAttempts: { max: 5, windowMs: HOUR_MS },
  cardDeclines: { max: 3, windowMs: HOUR_MS },
  velocity: { max: 3, windowMs: 10 * MINUTE_MS, delayMinMs: 250, delayMaxMs: 1000 },
  keyPrefix: 'reef-donations:rate-limit:',
};
