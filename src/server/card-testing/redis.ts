import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { CARD_TESTING_EVENTS } from './events';

/**
 * Time a Redis command may take before it fails, in ms: the counters are on the payment path, so a slow Redis
 * must not hold a donation up for long (the defence then lets the request through and logs it).
 */
export const REDIS_COMMAND_TIMEOUT_MS = 500;
/** Time to (re)connect to Redis before a command fails, in ms. */
export const REDIS_CONNECT_TIMEOUT_MS = 1000;

/**
 * Opens the Redis connection of the rate-limit counters (REDIS_URL; issue #4: "several API processes share
 * one count") and resolves once it is ready, or once the first attempt failed (logged; the server starts
 * anyway and ioredis keeps reconnecting in the background). Short timeouts and one retry per command, as
 * @fastify/rate-limit recommends for ioredis (its defaults retry a command 20 times), and no offline queue:
 * while Redis is down a command fails at once, so a payment is not held up waiting for it (the defence then
 * lets it through; see decision 0030). Connection errors are logged as `rate_limit.store_error`. Closed with
 * `app` (onClose).
 */
export async function connectCounterRedis(app: FastifyInstance, url: string): Promise<Redis> {
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    maxRetriesPerRequest: 1,
  });
  redis.on('error', (error: Error) => app.log.error({ event: CARD_TESTING_EVENTS.storeError, err: error }, 'Redis connection error'));
  app.addHook('onClose', async () => {
    await redis.quit().catch(() => redis.disconnect());
  });
  await redis.connect().catch(() => undefined); // already logged by the 'error' listener
  return redis;
}
