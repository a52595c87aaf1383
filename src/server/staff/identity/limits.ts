import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { STAFF_RATE_LIMITED_MESSAGE } from '../../../shared/staff/identity-api';
import { countFailOpen, createLimitCounter, type LimitCounter } from '../../card-testing/counters';
import { emailDigest, limitKeySecret, loggedPrefix } from '../../card-testing/limit-keys';
import type { CardTestingSettings, WindowLimit } from '../../platform/card-testing-settings';
import { staffError } from './errors';

/**
 * Limits of staff sign-in (issue #21, "Limits"; OWASP Authentication Cheat Sheet, "Protect against automated
 * attacks"), on the card-testing counters' store (Redis when REDIS_URL is set, else in process): sign-in attempts
 * (passkey options and verifications, link uses, enrollments) per client IP, and link requests per IP and per address
 * (decision 0084). Off with RATE_LIMITS=off, as every limit. A store failure lets the request through (logged), as
 * the card-testing limits do (decision 0030).
 */

/** Sign-in attempts of any kind per client IP: 30 per 15 minutes (a whole office behind one address signs in easily). */
export const STAFF_IP_ATTEMPTS: WindowLimit = { max: 30, windowMs: 15 * 60 * 1000 };
/** Sign-in links asked for one address: 3 per 15 minutes (a link is valid that long; more is someone else's mischief). */
export const STAFF_LINK_REQUESTS_PER_EMAIL: WindowLimit = { max: 3, windowMs: 15 * 60 * 1000 };

/** The limits as the routes use them: each returns the 429 reply when a limit is exceeded, else undefined. */
export interface StaffLimits {
  /** Counts one sign-in attempt of the request's IP. */
  attempt(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined>;
  /** Counts one link request for `email` (and one attempt of the IP). */
  linkRequest(request: FastifyRequest, reply: FastifyReply, email: string): Promise<FastifyReply | undefined>;
}

const noLimits: StaffLimits = { attempt: async () => undefined, linkRequest: async () => undefined };

/**
 * The limits of `app` (whose counter store registerCardTestingDefence registered), keyed by `cookieSecret`'s derived
 * key for addresses (never stored or logged in clear). With `settings.enabled` false (RATE_LIMITS=off) none.
 */
export function createStaffLimits(app: FastifyInstance, settings: CardTestingSettings, cookieSecret: string): StaffLimits {
  if (!settings.enabled) return noLimits;
  const secret = limitKeySecret(cookieSecret);
  const emailOf = (request: FastifyRequest) => emailDigest(secret, (request.body as { email?: string } | undefined)?.email ?? '');
  const ip = createLimitCounter(app, 'staffIp', STAFF_IP_ATTEMPTS, (request) => normalizeIP(request.ip));
  const email = createLimitCounter(app, 'staffEmail', STAFF_LINK_REQUESTS_PER_EMAIL, emailOf);

  /** Counts a hit of `counter`; true when over the limit. A store failure is logged and counts as within it. */
  const exceeded = async (request: FastifyRequest, counter: LimitCounter) =>
    (await countFailOpen(request, counter, counter.hit, 'staff.rate_limit_store_error'))?.exceeded ?? false;
  const tooMany = (request: FastifyRequest, reply: FastifyReply, limit: string, details: object = {}) => {
    request.log.warn({ event: 'staff.rate_limited', limit, ip: request.ip, ...details }, 'Staff sign-in refused: rate limit');
    return reply.code(429).send(staffError(STAFF_RATE_LIMITED_MESSAGE, 'staff_rate_limited'));
  };
  return {
    async attempt(request, reply) {
      return (await exceeded(request, ip)) ? tooMany(request, reply, ip.name) : undefined;
    },
    async linkRequest(request, reply, address) {
      if (await exceeded(request, ip)) return tooMany(request, reply, ip.name);
      if (await exceeded(request, email)) return tooMany(request, reply, email.name, { emailDigestPrefix: loggedPrefix(emailDigest(secret, address)) });
      return undefined;
    },
  };
}
