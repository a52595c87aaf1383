import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOO_MANY_ATTEMPTS_MESSAGE } from '../../shared/api';
import { apiError } from '../http/errors';
import { CARD_TESTING_EVENTS } from './events';
import { attemptFrom, memoryLog } from '../testing/payment-attempts';
import { createTestApp, validSubmission, type TestApp } from '../testing/test-app';

/**
 * REDIS_URL (issue #4: "Redis when REDIS_URL is set, so several API processes share one count"): two app
 * instances on one Redis count one IP's refused attempts together, and one address's declined attempts (never its
 * successful gifts; issue #32, part 3). Uses the local Redis (redis://127.0.0.1:6379, or
 * TEST_REDIS_URL), under a key prefix of this run's own that is deleted afterwards. Skipped when no Redis
 * answers, except in CI, where a missing Redis fails the suite. And a Redis that is down: the defence fails open.
 */

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const PREFIX = `reef-donations-test:${randomUUID()}:`;

/** True when a Redis answers PING at REDIS_URL within a second. */
async function redisAnswers(): Promise<boolean> {
  const probe = new Redis(REDIS_URL, { lazyConnect: true, connectTimeout: 1000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  probe.on('error', () => undefined);
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

const available = (await redisAnswers()) || Boolean(process.env.CI);

describe.runIf(available)('rate limits on Redis', () => {
  let redis: Redis;
  let first: TestApp;
  let second: TestApp;
  beforeAll(async () => {
    redis = new Redis(REDIS_URL);
    const env = { RATE_LIMITS: 'on', REDIS_URL, RATE_LIMIT_KEY_PREFIX: PREFIX };
    first = await createTestApp({ env });
    second = await createTestApp({ env });
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    const keys = await redis.keys(`${PREFIX}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  it('shares one count between two app instances: after 5 refused attempts from one IP, either refuses the next', async () => {
    const ip = '203.0.113.77';
    const answers = [];
    for (let i = 0; i < 5; i += 1) answers.push((await attemptFrom(i % 2 ? second : first, ip, { amount: 'lots' })).statusCode);
    expect(answers).toEqual([400, 400, 400, 400, 400]);

    for (const app of [first, second]) {
      const refused = await attemptFrom(app, ip, validSubmission({ donorEmail: `shared-${app === first ? 1 : 2}@example.org` }));
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual(apiError(TOO_MANY_ATTEMPTS_MESSAGE));
    }
    expect(first.gateway.calls + second.gateway.calls).toBe(0);
    // The counts are in Redis, under this run's prefix, with a window: none lives forever.
    const keys = await redis.keys(`${PREFIX}*`);
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) expect(await redis.pttl(key)).toBeGreaterThan(0);
  });

  it('counts an address the same as in memory: ten successful gifts all go through, the attempt after five declines is refused', async () => {
    const calls = first.gateway.calls + second.gateway.calls;
    const generous = [];
    for (let i = 0; i < 10; i += 1) {
      generous.push((await attemptFrom(i % 2 ? second : first, `198.51.100.${30 + i}`, validSubmission({ donorEmail: 'generous-redis@example.org' }))).statusCode);
    }
    expect(generous).toEqual(Array(10).fill(200));

    // Five declining cards, each from its own IP, so neither the per-card limit nor the velocity rule fires first.
    const cards = ['4000000000000002', '4000000000009995', '4000000000009987', '4000000000009979', '4000000000000069'];
    const declines = [];
    for (const [i, number] of cards.entries()) {
      declines.push((await attemptFrom(i % 2 ? second : first, `198.51.100.${50 + i}`, validSubmission({ donorEmail: 'tester-redis@example.org' }, { number }))).statusCode);
    }
    expect(declines).toEqual([402, 402, 402, 402, 402]);
    for (const [i, app] of [first, second].entries()) {
      const refused = await attemptFrom(app, `198.51.100.${60 + i}`, validSubmission({ donorEmail: 'tester-redis@example.org' }));
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toEqual(apiError(TOO_MANY_ATTEMPTS_MESSAGE));
    }
    expect(first.gateway.calls + second.gateway.calls - calls).toBe(15);
  });
});

describe('a Redis that does not answer', () => {
  let down: TestApp;
  const log = memoryLog();
  beforeAll(async () => {
    // Port 1: nothing listens there, so every command fails at once.
    down = await createTestApp({ logger: log.logger, env: { RATE_LIMITS: 'on', REDIS_URL: 'redis://127.0.0.1:1', RATE_LIMIT_IP_MAX: '1' } });
  });
  afterAll(async () => {
    await down?.close();
  });

  it('lets donations through unchecked (fail open) and logs rate_limit.store_error', async () => {
    const answers = [];
    for (let i = 0; i < 2; i += 1) answers.push((await attemptFrom(down, '203.0.113.88', validSubmission())).statusCode);
    expect(answers).toEqual([200, 200]);
    expect(log.events(CARD_TESTING_EVENTS.storeError).map((entry) => entry.limit)).toEqual(expect.arrayContaining(['ip', 'velocity', 'card', 'email']));
  });
});
