import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { TOO_MANY_ATTEMPTS_MESSAGE } from '../../shared/api';
import { STAFF_API_PREFIX } from '../../shared/staff/paths';
import type { DonationSubmission } from '../../shared/donation';
import { apiError } from '../http/errors';
import { DECLINE_MESSAGES } from '../payments/test-gateway';
import { countFailOpen, createLimitCounter, registerCounterStore, type CounterState, type LimitCounter } from './counters';
import { CARD_TESTING_EVENTS, type BlockingLimit, type RefusingLimit } from './events';
import { cardFingerprint, emailDigest, limitKeySecret, loggedPrefix } from './limit-keys';
import type { CardTestingSettings } from '../platform/card-testing-settings';
import { connectCounterRedis } from './redis';
import { randomDelayMs, waitMs } from './velocity-delay';
import { isMachineRoute } from '../http/machine-routes';

/**
 * The card-testing defence of the payment routes (OWASP OAT-001 "Carding"; issue #4):
 * - two limits per client IP, checked in `onRequest`, before the body is even read (issue #10, part 4): an
 *   IP with `ipRefusals.max` write requests (POST, PUT, PATCH, DELETE) declined or refused in its window gets
 *   429, since card testers show themselves by declines; and a ceiling of `ipAttempts.max` write requests of
 *   any outcome, high enough for the many donors that carrier-grade NAT, an office or an event's Wi-Fi put
 *   behind one address. A refusal is counted in `onSend`, from the answer's status ({@link isRefusal});
 * - a valid payment attempt is then checked, in the payment route's preHandler (after validation, before
 *   the Idempotency-Key is claimed or a row written):
 *   1. velocity: an IP whose recent attempts the gateway declined `velocity.max` times answers a generic
 *      decline (402, "Your card was declined.") after a random delay, without calling the gateway;
 *   2. the card fingerprint's declines: at `cardDeclines.max`, 429 (declines only, so a donor whose card
 *      works is never held up by it);
 *   3. the donor e-mail's declined or refused attempts: at `emailAttempts.max`, 429 (decision 0097: a successful
 *      gift does not count, so a donor who gives many times in an hour is never held up by it);
 *   otherwise the attempt goes on to the Idempotency-Key claim and the gateway;
 * - after the gateway declines, the route calls `recordDecline`, which counts it against the card and the IP;
 * - an attempt that reached the e-mail check and was answered with a refusal ({@link isRefusal}: a decline, a 429, a
 *   key reused with another body...) is counted against its e-mail in `onSend`, as the IP's refusals are.
 * Every 429 has the same body ({@link TOO_MANY_ATTEMPTS_MESSAGE}) and no rate-limit headers, so nothing says
 * which limit fired. Every decision logs an event of {@link CARD_TESTING_EVENTS}; none holds card data.
 */

/** The defence as the payment route uses it (see {@link registerCardTestingDefence}). */
export interface CardTestingDefence {
  /**
   * preHandler of a payment route, after validation (the body is a DonationSubmission): answers 402 (velocity)
   * or 429 (card or e-mail limit) and stops the request, or lets it through.
   */
  checkPayment(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined>;
  /**
   * Counts a decline the gateway answered for this request (its body the validated submission) against its
   * card and its IP. Never rejects (a store failure is logged).
   */
  recordDecline(request: FastifyRequest): Promise<void>;
}

/** What {@link registerCardTestingDefence} needs. */
export interface CardTestingDefenceOptions {
  settings: CardTestingSettings;
  /** COOKIE_SECRET, from which the key of the card and e-mail hashes is derived (see limitKeySecret). */
  cookieSecret: string;
  /** Redis shared by the API processes (REDIS_URL); the in-process store when undefined. */
  redisUrl: string | undefined;
  /** Called with the limit each time one refuses a payment attempt (429 or velocity's decline): the metrics' count (issue #14). */
  onRefusal?: (limit: RefusingLimit) => void;
}

/** What the velocity rule answers: the gateway's own generic decline (Stripe's wording), so it reads like one. */
export const VELOCITY_DECLINE_MESSAGE = DECLINE_MESSAGES.generic;

/** Methods that change nothing and so are not payment attempts. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * True for an answer that counts against the IP's refusals: every 4xx (declined 402, invalid 400, CSRF 403,
 * limits 429...) but 409, which only tells a client retrying with its Idempotency-Key that its first request
 * is still in flight.
 */
const isRefusal = (statusCode: number) => statusCode >= 400 && statusCode < 500 && statusCode !== 409;

const noDefence: CardTestingDefence = {
  checkPayment: async () => undefined,
  recordDecline: async () => undefined,
};

/** The donor's e-mail and card number of a payment attempt, where its body has them. */
interface PaymentAttempt {
  donorEmail?: string;
  cardNumber?: string;
}

/**
 * The attempt of a validated payment body: a donation submission (process-donation), `{donationData}`
 * (confirm-donation; its card only in test mode) or `{amount, donation?}` (create-payment-intent, no card).
 */
function paymentAttemptOf(body: unknown): PaymentAttempt {
  const fields = body as { donationData?: Partial<DonationSubmission>; donation?: { donorEmail?: string } } & Partial<DonationSubmission>;
  const submission = fields.donationData ?? fields;
  return { donorEmail: submission.donorEmail ?? fields.donation?.donorEmail, cardNumber: submission.creditCard?.number };
}

/** The client IP a counter keys on: IPv4 as is, IPv6 by its /64 (one subscriber's block), as @fastify/rate-limit does. */
const clientIp = (request: FastifyRequest) => normalizeIP(request.ip);

/**
 * Sets the defence up on `app` (the root instance, before the payment routes are registered): opens Redis
 * when `redisUrl` is set (closed with the app), registers @fastify/rate-limit on it or in memory and the IP
 * limit's `onRequest` hook, and returns what the payment route calls. With `settings.enabled` false
 * (RATE_LIMITS=off) it registers nothing, logs a warning once, and returns a defence that lets everything through.
 */
export async function registerCardTestingDefence(
  app: FastifyInstance,
  { settings, cookieSecret, redisUrl, onRefusal }: CardTestingDefenceOptions,
): Promise<CardTestingDefence> {
  if (!settings.enabled) {
    app.log.warn('Card-testing limits are off (RATE_LIMITS=off): for load tests and benchmarks only');
    return noDefence;
  }
  const redis = redisUrl === undefined ? undefined : await connectCounterRedis(app, redisUrl);
  await registerCounterStore(app, { redis, keyPrefix: settings.keyPrefix });
  const secret = limitKeySecret(cookieSecret);
  // NOTE: keyed on the validated body, so the e-mail and card counters are used from preHandler on only (the e-mail's
  // onSend count is for the requests checkPayment saw).
  // The keyed hashes the card and e-mail counters count by; log lines show only their loggedPrefix.
  // The card and e-mail counters run only for an attempt that has them (see checkPayment); '' never reaches them.
  const cardFingerprintOf = (request: FastifyRequest) => cardFingerprint(secret, paymentAttemptOf(request.body).cardNumber ?? '');
  const emailDigestOf = (request: FastifyRequest) => emailDigest(secret, paymentAttemptOf(request.body).donorEmail ?? '');
  /** The logged prefixes of the attempt's card fingerprint and e-mail digest, each only when the body has it. */
  const loggedHashes = (request: FastifyRequest) => {
    const attempt = paymentAttemptOf(request.body);
    return {
      cardFingerprintPrefix: attempt.cardNumber === undefined ? undefined : loggedPrefix(cardFingerprintOf(request)),
      emailDigestPrefix: attempt.donorEmail === undefined ? undefined : loggedPrefix(emailDigestOf(request)),
    };
  };
  /** The payment attempts that reached the e-mail check: counted against their e-mail in onSend when refused. */
  const emailChecked = new WeakSet<FastifyRequest>();
  const counters = {
    ip: createLimitCounter(app, 'ip', settings.ipRefusals, clientIp),
    ipCeiling: createLimitCounter(app, 'ipCeiling', settings.ipAttempts, clientIp),
    email: createLimitCounter(app, 'email', settings.emailAttempts, emailDigestOf),
    card: createLimitCounter(app, 'card', settings.cardDeclines, cardFingerprintOf),
    velocity: createLimitCounter(app, 'velocity', settings.velocity, clientIp),
  };

  /** Runs `count` (countFailOpen): on a store failure logs `rate_limit.store_error` and resolves undefined. */
  const guarded = (request: FastifyRequest, counter: LimitCounter, count: (request: FastifyRequest) => Promise<CounterState>) =>
    countFailOpen(request, counter, count, CARD_TESTING_EVENTS.storeError);

  /** Answers 429 with the one generic message, and logs which limit fired (the answer does not say). */
  const tooMany = (request: FastifyRequest, reply: FastifyReply, limit: BlockingLimit, details: object = {}) => {
    onRefusal?.(limit);
    request.log.warn(
      { event: CARD_TESTING_EVENTS.rateLimitBlocked, limit, ip: request.ip, ...counters[limit].limit, ...details },
      'Payment attempt refused: rate limit',
    );
    return reply.code(429).send(apiError(TOO_MANY_ATTEMPTS_MESSAGE));
  };

  /**
   * True for a request the IP limits count: a write request to a route of the site, not of a machine (webhooks, admin)
   * nor of the staff back office, whose sign-in has limits of its own (staff/limits.ts; issue #21).
   */
  const isPaymentAttempt = (request: FastifyRequest) =>
    !SAFE_METHODS.has(request.method) && !isMachineRoute(request.url) && !request.url.startsWith(STAFF_API_PREFIX);
  app.addHook('onRequest', async (request, reply) => {
    if (!isPaymentAttempt(request)) return undefined;
    const attempts = await guarded(request, counters.ipCeiling, counters.ipCeiling.hit);
    if (attempts?.exceeded) return tooMany(request, reply, 'ipCeiling');
    const refusals = await guarded(request, counters.ip, counters.ip.peek);
    return refusals?.remaining === 0 ? tooMany(request, reply, 'ip') : undefined;
  });
  // NOTE: onSend, not onResponse: the count is written before the answer leaves, so a client's next request sees it.
  app.addHook('onSend', async (request, reply) => {
    if (!isRefusal(reply.statusCode)) return;
    if (isPaymentAttempt(request)) await guarded(request, counters.ip, counters.ip.hit);
    // Decision 0097: the e-mail counts its declined and refused attempts only, never a successful gift.
    if (emailChecked.has(request)) await guarded(request, counters.email, counters.email.hit);
  });

  return {
    async checkPayment(request, reply) {
      const velocity = await guarded(request, counters.velocity, counters.velocity.peek);
      if (velocity?.remaining === 0) {
        const delayMs = randomDelayMs(settings.velocity.delayMinMs, settings.velocity.delayMaxMs);
        onRefusal?.('velocity');
        request.log.warn(
          { event: CARD_TESTING_EVENTS.velocityBlocked, ip: request.ip, ...settings.velocity, delayMs },
          'Payment attempt answered with a generic decline: too many declines from this IP',
        );
        await waitMs(delayMs);
        return reply.code(402).send(apiError(VELOCITY_DECLINE_MESSAGE, undefined, 'card_declined'));
      }

      const attempt = paymentAttemptOf(request.body);
      const card = attempt.cardNumber === undefined ? undefined : await guarded(request, counters.card, counters.card.peek);
      if (card?.remaining === 0) {
        return tooMany(request, reply, 'card', { cardFingerprintPrefix: loggedPrefix(cardFingerprintOf(request)) });
      }

      if (attempt.donorEmail !== undefined) emailChecked.add(request);
      const email = attempt.donorEmail === undefined ? undefined : await guarded(request, counters.email, counters.email.peek);
      if (email?.remaining === 0) {
        return tooMany(request, reply, 'email', { emailDigestPrefix: loggedPrefix(emailDigestOf(request)) });
      }
      request.log.info(
        {
          event: CARD_TESTING_EVENTS.attemptAllowed,
          ip: request.ip,
          ...loggedHashes(request),
          ipDeclinesRemaining: velocity?.remaining,
          cardDeclinesRemaining: card?.remaining,
          emailAttemptsRemaining: email?.remaining,
        },
        'Payment attempt allowed: within every limit',
      );
      return undefined;
    },

    async recordDecline(request) {
      const hasCard = paymentAttemptOf(request.body).cardNumber !== undefined;
      const card = hasCard ? await guarded(request, counters.card, counters.card.hit) : undefined;
      const ip = await guarded(request, counters.velocity, counters.velocity.hit);
      request.log.info(
        {
          event: CARD_TESTING_EVENTS.declineRecorded,
          ip: request.ip,
          cardFingerprintPrefix: loggedHashes(request).cardFingerprintPrefix,
          cardDeclinesRemaining: card?.remaining,
          ipDeclinesRemaining: ip?.remaining,
        },
        'Card declined: counted against the card and the IP',
      );
    },
  };
}
