import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import type { WindowLimit } from '../platform/card-testing-settings';

/**
 * Fixed-window counters on @fastify/rate-limit's stores (issue #4: "its in-memory store by default and Redis
 * when REDIS_URL is set, so several API processes share one count"), through the plugin's manual API
 * `app.createRateLimit()`: `hit` counts one event and says whether the limit is now exceeded; `peek`
 * (`{increment: false}`) reads the count without adding to it, for the limits that count declines only
 * (checked before the charge, counted after a decline).
 */

/** Where a counter stands after `hit` or `peek`. */
export interface CounterState {
  /** Events still allowed in the current window before the limit is reached (0 when reached or exceeded). */
  remaining: number;
  /** True once the count is over the limit (`hit` of the (max+1)th event in one window). */
  exceeded: boolean;
}

/** One named count limit (see {@link createLimitCounter}). */
export interface LimitCounter {
  /** Short name used in keys and log events: `ip`, `email`, `card`, `velocity`. */
  readonly name: string;
  /** Its `max` events per `windowMs`. */
  readonly limit: WindowLimit;
  /** Counts one event for the request's key. Rejects when the store fails (Redis unreachable). */
  hit(request: FastifyRequest): Promise<CounterState>;
  /** Reads the request key's count without changing it. Rejects when the store fails. */
  peek(request: FastifyRequest): Promise<CounterState>;
}

/**
 * Runs `count` (`counter.hit` or `counter.peek`) for `request`. On a store failure (Redis unreachable) logs `event` at
 * error level with the counter's name and resolves undefined: the request is let through, fail open (decision 0030),
 * for the card-testing limits (issue #4) and the staff sign-in limits (issue #21) alike.
 */
export async function countFailOpen(
  request: FastifyRequest,
  counter: LimitCounter,
  count: (request: FastifyRequest) => Promise<CounterState>,
  event: string,
): Promise<CounterState | undefined> {
  try {
    return await count(request);
  } catch (error) {
    request.log.error({ event, limit: counter.name, err: error }, 'Rate-limit store failed; request not checked');
    return undefined;
  }
}

/** Options of {@link registerCounterStore}. */
export interface CounterStoreOptions {
  /** A Redis connection shared by every API process; the in-process store when undefined. */
  redis: Redis | undefined;
  /** Prefix of every key in Redis (RATE_LIMIT_KEY_PREFIX). */
  keyPrefix: string;
}

/**
 * Registers @fastify/rate-limit on `app` with no limit of its own (`global: false`: no route is limited
 * until a counter is made with {@link createLimitCounter}), on Redis or in memory.
 */
export async function registerCounterStore(app: FastifyInstance, { redis, keyPrefix }: CounterStoreOptions): Promise<void> {
  await app.register(rateLimit, {
    global: false,
    ...(redis ? { redis, nameSpace: keyPrefix } : {}),
    // NOTE: a store failure rejects (not skipped silently), so the defence can log it and decide; see checkOrFailOpen.
    skipOnError: false,
  });
}

/** The in-memory store keeps this many keys per counter (least recently used go first). */
const LOCAL_STORE_KEYS = 10_000;

/**
 * A counter of at most `limit.max` events per `limit.windowMs` per key, the key being `keyOf(request)`
 * (already a hash or an IP, never card data). Needs {@link registerCounterStore} first.
 * NOTE: keys are prefixed with `name`: every counter made by createRateLimit shares one Redis namespace.
 */
export function createLimitCounter(
  app: FastifyInstance,
  name: string,
  limit: WindowLimit,
  keyOf: (request: FastifyRequest) => string,
): LimitCounter {
  const check = app.createRateLimit({
    max: limit.max,
    timeWindow: limit.windowMs,
    keyGenerator: (request) => `${name}:${keyOf(request)}`,
    // Passed through to the in-memory store of this counter (not in the plugin's types).
    ...({ cache: LOCAL_STORE_KEYS } as object),
  });
  const state = async (request: FastifyRequest, increment: boolean): Promise<CounterState> => {
    const result = await check(request, { increment });
    // `isAllowed` means "on the allow list"; these counters have none.
    if (result.isAllowed) return { remaining: limit.max, exceeded: false };
    return { remaining: result.remaining, exceeded: result.isExceeded };
  };
  return {
    name,
    limit,
    hit: (request) => state(request, true),
    peek: (request) => state(request, false),
  };
}
