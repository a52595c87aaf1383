import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOO_MANY_ATTEMPTS_MESSAGE } from '../../shared/api';
import { idempotencyKeys } from '../db/schema';
import { apiError } from '../http/errors';
import { DECLINE_MESSAGES } from '../payments/test-gateway';
import { attemptFrom, memoryLog, type MemoryLog } from '../testing/payment-attempts';
import { createTestApp, validSubmission, type TestApp } from '../testing/test-app';
import { CARD_TESTING_EVENTS } from './events';
import { cardFingerprint, emailDigest, limitKeySecret } from './limit-keys';

/**
 * The card-testing defence of POST /api/process-donation (OWASP OAT-001 "Carding"; issue #4), against the
 * real app and database with the default limits: 5 declined or refused attempts and 60 attempts in all per IP
 * per 10 minutes (issue #10), 5 declined or refused attempts per e-mail per hour (issue #32),
 * 3 declines per card per hour, and the velocity rule after 3 declines from one IP (its delay 0 here, but in
 * the test of the delay itself).
 * Each test uses IPs, e-mail addresses and cards of its own, so the counts of one never reach another.
 */

const SUCCESS_CARD = '4242424242424242';
const OTHER_SUCCESS_CARD = '5555555555554444';
const TOO_MANY = apiError(TOO_MANY_ATTEMPTS_MESSAGE);
const RATE_LIMIT_HEADERS = ['retry-after', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];

const donation = (email: string, number = SUCCESS_CARD) => validSubmission({ donorEmail: email }, { number });
const statuses = (responses: readonly { statusCode: number }[]) => responses.map((response) => response.statusCode);

/** Sends the attempts one after the other (the counts are what the tests look at, not concurrency). */
async function inTurn<T>(count: number, attempt: (index: number) => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  for (let index = 0; index < count; index += 1) results.push(await attempt(index));
  return results;
}

const log: MemoryLog = memoryLog();
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    logger: log.logger,
    env: { RATE_LIMITS: 'on', VELOCITY_DELAY_MIN_MS: '0', VELOCITY_DELAY_MAX_MS: '0' },
  });
});
afterAll(async () => {
  await t?.close();
});

describe('the per-IP limits (5 declined or refused attempts, and 60 attempts of any outcome, per 10 minutes)', () => {
  it('lets 30 donors behind one address give, each with their own e-mail and a card that succeeds', async () => {
    const ip = '203.0.113.10';
    const calls = t.gateway.calls;
    const rows = await t.countDonations();
    const cards = ['4242424242424242', '5555555555554444', '378282246310005', '6011111111111117'];
    const answers = await inTurn(30, (i) => attemptFrom(t, ip, donation(`shared-ip-donor-${i}@example.org`, cards[i % cards.length])));
    expect(statuses(answers)).toEqual(Array(30).fill(200));
    expect(t.gateway.calls - calls).toBe(30);
    expect((await t.countDonations()) - rows).toBe(30);
    expect(log.events(CARD_TESTING_EVENTS.rateLimitBlocked).filter((e) => e.ip === ip)).toEqual([]);
  });

  it('refuses an IP sending declined cards from the 6th attempt on, without calling the gateway, writing a row or claiming the key', async () => {
    const ip = '203.0.113.11';
    const calls = t.gateway.calls;
    const rows = await t.countDonations();
    // NOTE: a card the other tests do not decline (the per-card limit counts across this file's tests).
    const first = await inTurn(5, (i) => attemptFrom(t, ip, donation(`tester-${i}@example.org`, '4000000000009979')));
    // 3 declines by the gateway, then the velocity rule's generic decline: all five count as refused.
    expect(statuses(first)).toEqual([402, 402, 402, 402, 402]);
    expect(t.gateway.calls - calls).toBe(3);

    const key = randomUUID();
    const later = await inTurn(3, (i) => attemptFrom(t, ip, donation(`tester-${5 + i}@example.org`, SUCCESS_CARD), key));
    expect(statuses(later)).toEqual([429, 429, 429]);
    for (const refused of later) expect(refused.json()).toEqual(TOO_MANY);
    expect(t.gateway.calls - calls).toBe(3);
    expect((await t.countDonations()) - rows).toBe(3);
    expect(await t.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key))).toEqual([]);

    // Another IP is not affected.
    expect((await attemptFrom(t, '203.0.113.12', donation('ip-donor-7@example.org'))).statusCode).toBe(200);
    expect(log.events(CARD_TESTING_EVENTS.rateLimitBlocked).filter((e) => e.ip === ip)).toEqual(
      Array(3).fill(expect.objectContaining({ limit: 'ip', max: 5, windowMs: 600_000, level: 40 })),
    );
  });

  it('counts invalid attempts as refused, and refuses the next before the body is read', async () => {
    const ip = '203.0.113.13';
    const invalid = await inTurn(5, () => attemptFrom(t, ip, { amount: 'lots' }));
    expect(statuses(invalid)).toEqual([400, 400, 400, 400, 400]);
    const sixth = await attemptFrom(t, ip, donation('ip-donor-8@example.org'));
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json()).toEqual(TOO_MANY);
  });

  it('refuses the 61st attempt of any outcome from one IP within the window', async () => {
    const ip = '203.0.113.14';
    const calls = t.gateway.calls;
    const answers = await inTurn(60, (i) => attemptFrom(t, ip, donation(`busy-event-${i}@example.org`)));
    expect(statuses(answers)).toEqual(Array(60).fill(200));
    const next = await attemptFrom(t, ip, donation('busy-event-60@example.org'));
    expect(next.statusCode).toBe(429);
    expect(next.json()).toEqual(TOO_MANY);
    expect(t.gateway.calls - calls).toBe(60);
    expect(log.events(CARD_TESTING_EVENTS.rateLimitBlocked).filter((e) => e.ip === ip)).toEqual([
      expect.objectContaining({ limit: 'ipCeiling', max: 60, windowMs: 600_000 }),
    ]);
  });
});

describe('the per-card limit (3 declines per card fingerprint per hour)', () => {
  it('answers the 4th attempt with a card declined 3 times with 429, even from other IPs and e-mail addresses', async () => {
    const declinedCard = '4000000000000002';
    const calls = t.gateway.calls;
    const rows = await t.countDonations();
    const declines = await inTurn(3, (i) => attemptFrom(t, `198.51.100.${i + 1}`, donation(`card-donor-${i}@example.org`, declinedCard)));
    expect(statuses(declines)).toEqual([402, 402, 402]);

    const fourth = await attemptFrom(t, '198.51.100.4', donation('card-donor-4@example.org', declinedCard));
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json()).toEqual(TOO_MANY);
    expect(t.gateway.calls - calls).toBe(3);
    expect((await t.countDonations()) - rows).toBe(3);

    // The same IP and donor with another card go through: the limit is the card's.
    expect((await attemptFrom(t, '198.51.100.4', donation('card-donor-4@example.org', OTHER_SUCCESS_CARD))).statusCode).toBe(200);

    const fingerprint = cardFingerprint(limitKeySecret(t.config.cookieSecret), declinedCard);
    const recorded = log.events(CARD_TESTING_EVENTS.declineRecorded).filter((e) => e.cardFingerprintPrefix === fingerprint.slice(0, 8));
    expect(recorded.map((e) => e.cardDeclinesRemaining)).toEqual([2, 1, 0]);
    expect(log.events(CARD_TESTING_EVENTS.rateLimitBlocked).filter((e) => e.limit === 'card')).toEqual([
      expect.objectContaining({ ip: '198.51.100.4', cardFingerprintPrefix: fingerprint.slice(0, 8), max: 3, windowMs: 3_600_000 }),
    ]);
  });

  it('never counts a successful charge against the card', async () => {
    const responses = await inTurn(5, (i) => attemptFrom(t, `198.51.100.${20 + i}`, donation(`loyal-donor-${i}@example.org`, '6011111111111117')));
    expect(statuses(responses)).toEqual([200, 200, 200, 200, 200]);
  });
});

describe('the per-e-mail limit (5 declined or refused payment attempts per hour; successes do not count)', () => {
  it('lets a donor give ten times within the hour with one address, whatever its case (issue #32, part 3)', async () => {
    const calls = t.gateway.calls;
    const gifts = await inTurn(10, (i) => attemptFrom(t, '192.0.2.1', donation(i % 2 ? 'Generous@Example.org' : 'generous@example.org')));
    expect(statuses(gifts)).toEqual(Array(10).fill(200));
    expect(t.gateway.calls - calls).toBe(10);
    expect(log.events(CARD_TESTING_EVENTS.rateLimitBlocked).filter((e) => e.limit === 'email')).toEqual([]);
  });

  describe('with declines', () => {
    // NOTE: an app of its own, whose card counters the other tests of this file have not touched.
    const declinesLog = memoryLog();
    let fresh: TestApp;
    beforeAll(async () => {
      fresh = await createTestApp({ logger: declinesLog.logger, env: { RATE_LIMITS: 'on', VELOCITY_DELAY_MIN_MS: '0', VELOCITY_DELAY_MAX_MS: '0' } });
    });
    afterAll(async () => {
      await fresh?.close();
    });

    it('answers the attempt after 5 declines with one address with 429, from whatever IP, whatever its case', async () => {
      // Five declining cards, each from its own IP, so neither the per-card limit nor the velocity rule fires first.
      const cards = ['4000000000000002', '4000000000009995', '4000000000009987', '4000000000009979', '4000000000000069'];
      const declines = await inTurn(5, (i) => attemptFrom(fresh, `192.0.2.${10 + i}`, donation(i % 2 ? 'Tester@Example.org' : 'tester@example.org', cards[i])));
      expect(statuses(declines)).toEqual([402, 402, 402, 402, 402]);

      const sixth = await attemptFrom(fresh, '192.0.2.16', donation('tester@example.org'));
      expect(sixth.statusCode).toBe(429);
      expect(sixth.json()).toEqual(TOO_MANY);
      expect(fresh.gateway.calls).toBe(5);

      const blocked = declinesLog.events(CARD_TESTING_EVENTS.rateLimitBlocked).filter((e) => e.limit === 'email');
      expect(blocked).toEqual([expect.objectContaining({ ip: '192.0.2.16', max: 5, windowMs: 3_600_000 })]);
      expect(blocked[0]?.emailDigestPrefix).toMatch(/^[0-9a-f]{8}$/);
    });
  });
});

describe('the velocity rule (3 declines from one IP in 10 minutes)', () => {
  it('answers later attempts from that IP with a generic decline, without calling the gateway or writing a row', async () => {
    const ip = '198.51.100.200';
    const cards = ['4000000000009995', '4000000000009987', '4000000000000069'];
    const declines = await inTurn(3, (i) => attemptFrom(t, ip, donation(`velocity-${i}@example.org`, cards[i])));
    expect(statuses(declines)).toEqual([402, 402, 402]);

    const calls = t.gateway.calls;
    const rows = await t.countDonations();
    const key = randomUUID();
    const next = await attemptFrom(t, ip, donation('velocity-4@example.org', SUCCESS_CARD), key);
    expect(next.statusCode).toBe(402);
    expect(next.json()).toEqual(apiError(DECLINE_MESSAGES.generic, undefined, 'card_declined'));
    expect(t.gateway.calls).toBe(calls);
    expect(await t.countDonations()).toBe(rows);
    expect(await t.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key))).toEqual([]);

    expect(log.events(CARD_TESTING_EVENTS.velocityBlocked).filter((e) => e.ip === ip)).toEqual([
      expect.objectContaining({ max: 3, windowMs: 600_000, delayMs: 0, level: 40 }),
    ]);
    // The generic decline is not itself counted as a decline.
    expect(log.events(CARD_TESTING_EVENTS.declineRecorded).filter((e) => e.ip === ip)).toHaveLength(3);
  });
});

describe('the delay before the generic decline of the velocity rule (VELOCITY_DELAY_MIN_MS / VELOCITY_DELAY_MAX_MS)', () => {
  const DELAY_MIN_MS = 200;
  const DELAY_MAX_MS = 250;
  const delayLog = memoryLog();
  let delayed: TestApp;
  beforeAll(async () => {
    delayed = await createTestApp({
      logger: delayLog.logger,
      env: {
        RATE_LIMITS: 'on',
        VELOCITY_DECLINES_MAX: '1',
        VELOCITY_DELAY_MIN_MS: String(DELAY_MIN_MS),
        VELOCITY_DELAY_MAX_MS: String(DELAY_MAX_MS),
      },
    });
  });
  afterAll(async () => {
    await delayed?.close();
  });

  it('answers no sooner than VELOCITY_DELAY_MIN_MS, after a delay it logs between the two bounds', async () => {
    const ip = '198.51.100.240';
    expect((await attemptFrom(delayed, ip, donation('delayed-0@example.org', '4000000000000002'))).statusCode).toBe(402);

    const startedAt = performance.now();
    const blocked = await attemptFrom(delayed, ip, donation('delayed-1@example.org'));
    const elapsedMs = performance.now() - startedAt;
    expect(blocked.statusCode).toBe(402);
    expect(blocked.json()).toEqual(apiError(DECLINE_MESSAGES.generic, undefined, 'card_declined'));
    expect(elapsedMs).toBeGreaterThanOrEqual(DELAY_MIN_MS);
    const [event] = delayLog.events(CARD_TESTING_EVENTS.velocityBlocked);
    expect(event?.delayMs).toBeGreaterThanOrEqual(DELAY_MIN_MS);
    expect(event?.delayMs).toBeLessThanOrEqual(DELAY_MAX_MS);
  });
});

describe('the log of the defence', () => {
  it('has an event for every decision, with no card number, CVV, e-mail address or full fingerprint', async () => {
    const cvv = '9173';
    const card = '4000000000000119';
    const attempt = (ip: string, email: string, number: string) =>
      attemptFrom(t, ip, validSubmission({ donorEmail: email }, { number, cvv }));
    const from = log.lines.length;
    // Three declines of one card from one IP: decline.recorded x3, then velocity.blocked.
    const answers = await inTurn(4, (i) => attempt('192.0.2.100', `log-${i}@example.org`, i < 3 ? card : SUCCESS_CARD));
    // The card limit from another IP, then the IP limit: a fifth refusal from the first IP, and a sixth attempt.
    answers.push(await attempt('192.0.2.101', 'log-5@example.org', card));
    answers.push(await attempt('192.0.2.100', 'log-6@example.org', card));
    answers.push(await attempt('192.0.2.100', 'log-7@example.org', SUCCESS_CARD));
    expect(statuses(answers)).toEqual([402, 402, 402, 402, 429, 402, 429]);

    const lines = log.lines.slice(from);
    const events = lines.map((line) => JSON.parse(line) as { event?: string; limit?: string }).filter((entry) => entry.event);
    const allowedThenDeclined = [
      [CARD_TESTING_EVENTS.attemptAllowed, undefined],
      [CARD_TESTING_EVENTS.declineRecorded, undefined],
    ];
    expect(events.map((entry) => [entry.event, entry.limit])).toEqual([
      ...allowedThenDeclined,
      ...allowedThenDeclined,
      ...allowedThenDeclined,
      [CARD_TESTING_EVENTS.velocityBlocked, undefined],
      [CARD_TESTING_EVENTS.rateLimitBlocked, 'card'],
      [CARD_TESTING_EVENTS.velocityBlocked, undefined],
      [CARD_TESTING_EVENTS.rateLimitBlocked, 'ip'],
    ]);
    const secret = limitKeySecret(t.config.cookieSecret);
    const hashes = [cardFingerprint(secret, card), emailDigest(secret, 'log-0@example.org')];
    for (const line of lines) {
      for (const forbidden of [card, SUCCESS_CARD, ...hashes, '@example.org']) expect(line).not.toContain(forbidden);
      expect(line).not.toMatch(new RegExp(`(?<![\\d.])${cvv}(?!\\d)`));
    }
  });

  it('logs an attempt it lets through with what is left of each limit, the card and e-mail as hash prefixes only', async () => {
    const ip = '192.0.2.120';
    const email = 'allowed@example.org';
    const declinedCard = '4000000000000127';
    const answers = await inTurn(2, () => attemptFrom(t, ip, donation(email, declinedCard)));
    expect(statuses(answers)).toEqual([402, 402]);

    const secret = limitKeySecret(t.config.cookieSecret);
    const hashPrefixes = {
      cardFingerprintPrefix: cardFingerprint(secret, declinedCard).slice(0, 8),
      emailDigestPrefix: emailDigest(secret, email).slice(0, 8),
    };
    expect(log.events(CARD_TESTING_EVENTS.attemptAllowed).filter((e) => e.ip === ip)).toEqual([
      expect.objectContaining({ ...hashPrefixes, ipDeclinesRemaining: 3, cardDeclinesRemaining: 3, emailAttemptsRemaining: 5, level: 30 }),
      expect.objectContaining({ ...hashPrefixes, ipDeclinesRemaining: 2, cardDeclinesRemaining: 2, emailAttemptsRemaining: 4, level: 30 }),
    ]);
  });
});

describe('one generic answer whatever the limit', () => {
  let strict: TestApp;
  beforeAll(async () => {
    strict = await createTestApp({
      env: { RATE_LIMITS: 'on', RATE_LIMIT_IP_MAX: '1', RATE_LIMIT_EMAIL_MAX: '1', RATE_LIMIT_CARD_DECLINES_MAX: '1' },
    });
  });
  afterAll(async () => {
    await strict?.close();
  });

  it('sends the same status, headers and body for the IP, e-mail and card limits', async () => {
    expect((await attemptFrom(strict, '203.0.113.50', { amount: 'lots' })).statusCode).toBe(400);
    const byIp = await attemptFrom(strict, '203.0.113.50', donation('b@example.org'));
    // A decline counts against the address (a success would not).
    expect((await attemptFrom(strict, '203.0.113.51', donation('same@example.org', '4000000000009995'))).statusCode).toBe(402);
    const byEmail = await attemptFrom(strict, '203.0.113.52', donation('same@example.org'));
    expect((await attemptFrom(strict, '203.0.113.53', donation('c@example.org', '4000000000000002'))).statusCode).toBe(402);
    const byCard = await attemptFrom(strict, '203.0.113.54', donation('d@example.org', '4000000000000002'));

    for (const refused of [byIp, byEmail, byCard]) {
      expect(refused.statusCode).toBe(429);
      expect(refused.body).toBe(byIp.body);
      expect(refused.headers['content-type']).toBe(byIp.headers['content-type']);
      for (const header of RATE_LIMIT_HEADERS) expect(refused.headers, header).not.toHaveProperty(header);
    }
    expect(byIp.json()).toEqual(TOO_MANY);
    expect(strict.gateway.calls).toBe(2);
  });
});

describe('RATE_LIMITS=off (load tests and benchmarks)', () => {
  let open: TestApp;
  beforeAll(async () => {
    open = await createTestApp({ env: { RATE_LIMITS: 'off' } });
  });
  afterAll(async () => {
    await open?.close();
  });

  it('lets any number of attempts through from one IP, with one e-mail and one declined card', async () => {
    const ip = '203.0.113.99';
    const charges = await inTurn(12, () => attemptFrom(open, ip, donation('bench@example.org')));
    const declines = await inTurn(6, () => attemptFrom(open, ip, donation('bench@example.org', '4000000000000002')));
    expect(statuses(charges)).toEqual(Array(12).fill(200));
    expect(statuses(declines)).toEqual(Array(6).fill(402));
    expect(open.gateway.calls).toBe(18);
  });
});
