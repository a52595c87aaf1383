import { asc, eq, min } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_UNAUTHORIZED_MESSAGE } from '../http/operator-auth';
import { REFUSING_LIMITS } from '../card-testing/events';
import { mailOutbox, recurringPlans } from '../db/schema';
import { NOT_FOUND_MESSAGE } from '../http/errors';
import { manualClock } from '../platform/clock';
import { ATTACHES_THEN_DECLINES_CARD } from '../payments/test-vault';
import { cardColumnsOf } from '../recurring/plans';
import { createTestApp, FUTURE_EXPIRY_YEAR, validSubmission, type TestApp } from '../testing/test-app';
import { METRICS_PATH } from './plugin';

/**
 * GET /metrics (issue #14) on the real app and database: scraped before and after real donations (succeeded,
 * declined), a refusal by the card-testing limit per card, the receipts waiting in the outbox, renewals due, then a
 * billing run with one renewal declined; behind the operator token (401 without it, 404 with ADMIN_TOKEN unset).
 * Runs on the embedded PostgreSQL test server, and on DATABASE_URL's when it is set.
 */

const ADMIN_TOKEN = 'metrics-test-admin-token-0123456789abcdef';
const DECLINED_CARD = '4000000000000002';
const clock = manualClock();
let t: TestApp;
beforeAll(async () => {
  // The card-testing limits on, with one decline per card: the second try of a declined card is refused (429).
  t = await createTestApp({ clock, env: { ADMIN_TOKEN, RATE_LIMITS: 'on', RATE_LIMIT_CARD_DECLINES_MAX: '1' } });
});
afterAll(async () => {
  await t?.close();
});

/** Scrapes the app with the operator token; fails the test unless it answers 200 in Prometheus's text format. */
async function scrape(): Promise<string> {
  const response = await t.app.inject({ method: 'GET', url: METRICS_PATH, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  expect(response.headers['cache-control']).toBe('no-store');
  return response.body;
}

/** Label pairs of a sample, e.g. `{outcome="succeeded",gateway="test"}` as an object. */
function labelsOf(text: string | undefined): Record<string, string> {
  return Object.fromEntries([...(text ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((match) => [match[1], match[2]]));
}

/** The value of the sample `name` with exactly `labels` in the text exposition `metrics`, or undefined when absent. */
function sample(metrics: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of metrics.split('\n')) {
    const match = /^(\w+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = labelsOf(match[2]);
    const same = Object.keys(found).length === Object.keys(labels).length && Object.entries(labels).every(([key, value]) => found[key] === value);
    if (same) return Number(match[3]);
  }
  return undefined;
}

/** How many calls of `operation` ended with `outcome`, from the gateway latency histogram. */
const gatewayCalls = (metrics: string, operation: string, outcome: string) =>
  sample(metrics, 'donation_site_gateway_request_duration_seconds_count', { gateway: 'test', operation, outcome });

/** POSTs a donation of `amount` dollars `frequency` by `donorEmail` with card `number`; resolves with the status. */
async function donate(donorEmail: string, number: string, frequency: 'one-time' | 'monthly' = 'one-time'): Promise<number> {
  return (await t.postDonation(validSubmission({ amount: 30, donorEmail, frequency }, { number }))).statusCode;
}

describe('GET /metrics', () => {
  it('answers 401 without the operator token or with a wrong one, and 404 when ADMIN_TOKEN is unset', async () => {
    const none = await t.app.inject({ method: 'GET', url: METRICS_PATH });
    expect(none.statusCode).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer realm="admin"');
    expect(none.json()).toEqual({ success: false, error: ADMIN_UNAUTHORIZED_MESSAGE });
    const wrong = await t.app.inject({ method: 'GET', url: METRICS_PATH, headers: { authorization: `Bearer ${ADMIN_TOKEN.replace('m', 'M')}` } });
    expect(wrong.statusCode).toBe(401);

    const withoutToken = await createTestApp();
    try {
      const hidden = await withoutToken.app.inject({ method: 'GET', url: METRICS_PATH, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
      expect(hidden.statusCode).toBe(404);
      expect(hidden.json()).toEqual({ success: false, error: NOT_FOUND_MESSAGE, code: 'not_found' });
    } finally {
      await withoutToken.close();
    }
  });

  it('counts donations, gateway calls, card-testing refusals, the outbox and renewals from real traffic', async () => {
    const before = await scrape();
    for (const outcome of ['pending', 'succeeded', 'failed', 'refunded', 'disputed']) {
      expect(sample(before, 'donation_site_donations', { outcome, gateway: 'test' })).toBe(0);
    }
    for (const limit of REFUSING_LIMITS) expect(sample(before, 'donation_site_card_testing_refusals_total', { limit })).toBe(0);
    expect(sample(before, 'donation_site_mail_outbox_messages', { status: 'pending' })).toBe(0);
    expect(sample(before, 'donation_site_mail_outbox_oldest_pending_age_seconds')).toBe(0);
    expect(sample(before, 'donation_site_renewals_due')).toBe(0);
    // prom-client's default process metrics come with the app's.
    expect(sample(before, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(sample(before, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);

    expect(await donate('one@example.org', '4242424242424242')).toBe(200);
    expect(await donate('two@example.org', DECLINED_CARD)).toBe(402);
    // The card's one decline is its limit: the next try is refused before the gateway.
    expect(await donate('three@example.org', DECLINED_CARD)).toBe(429);
    expect(await donate('four@example.org', '4242424242424242', 'monthly')).toBe(200);
    expect(await donate('five@example.org', '4242424242424242', 'monthly')).toBe(200);

    // The clock 90 s past the oldest receipt waiting in the outbox (the relay runs only once the server listens).
    const [pending] = await t.db.select({ oldest: min(mailOutbox.createdAt) }).from(mailOutbox).where(eq(mailOutbox.status, 'pending'));
    clock.set(new Date((pending?.oldest?.getTime() ?? Number.NaN) + 90_000));
    const after = await scrape();
    expect(sample(after, 'donation_site_donations', { outcome: 'succeeded', gateway: 'test' })).toBe(3);
    expect(sample(after, 'donation_site_donations', { outcome: 'failed', gateway: 'test' })).toBe(1);
    expect(sample(after, 'donation_site_donations', { outcome: 'pending', gateway: 'test' })).toBe(0);
    expect(gatewayCalls(after, 'charge', 'succeeded')).toBe(3);
    expect(gatewayCalls(after, 'charge', 'declined')).toBe(1);
    expect(gatewayCalls(after, 'savePaymentMethod', 'saved')).toBe(2);
    expect(sample(after, 'donation_site_gateway_request_duration_seconds_bucket', { gateway: 'test', operation: 'charge', outcome: 'succeeded', le: '+Inf' })).toBe(3);
    expect(sample(after, 'donation_site_card_testing_refusals_total', { limit: 'card' })).toBe(1);
    for (const limit of REFUSING_LIMITS.filter((name) => name !== 'card')) {
      expect(sample(after, 'donation_site_card_testing_refusals_total', { limit })).toBe(0);
    }
    // Each succeeded gift's receipt waits in the outbox.
    expect(sample(after, 'donation_site_mail_outbox_messages', { status: 'pending' })).toBe(await t.db.$count(mailOutbox, eq(mailOutbox.status, 'pending')));
    expect(sample(after, 'donation_site_mail_outbox_messages', { status: 'pending' })).toBeGreaterThanOrEqual(3);
    expect(sample(after, 'donation_site_mail_outbox_messages', { status: 'sent' })).toBe(0);
    expect(sample(after, 'donation_site_mail_outbox_oldest_pending_age_seconds')).toBe(90);
    expect(sample(after, 'donation_site_recurring_plans', { status: 'active' })).toBe(2);
    expect(sample(after, 'donation_site_renewals_due')).toBe(0);

    // A month on, both plans' first renewals are due; one plan's card now declines every charge.
    const plans = await t.db.select().from(recurringPlans).orderBy(asc(recurringPlans.createdAt));
    const declining = await t.gateway.savePaymentMethod({ number: ATTACHES_THEN_DECLINES_CARD, expiryMonth: 12, expiryYear: Number(FUTURE_EXPIRY_YEAR), cvc: '123' });
    if (declining.status !== 'saved' || plans.length !== 2) throw new Error('set-up failed');
    await t.db.update(recurringPlans).set(cardColumnsOf(declining.paymentMethod)).where(eq(recurringPlans.id, plans[1]?.id ?? ''));
    clock.set(new Date(Math.max(...plans.map((plan) => plan.nextAttemptAt.getTime())) + 60_000));
    const due = await scrape();
    expect(sample(due, 'donation_site_renewals_due')).toBe(2);
    expect(sample(due, 'donation_site_mail_outbox_oldest_pending_age_seconds')).toBeGreaterThan(28 * 24 * 60 * 60);

    expect(await t.app.billing.run()).toMatchObject({ charged: 1, failed: 1 });
    const billed = await scrape();
    expect(sample(billed, 'donation_site_renewals_due')).toBe(0);
    expect(sample(billed, 'donation_site_renewals_failed')).toBe(1);
    expect(sample(billed, 'donation_site_recurring_plans', { status: 'past_due' })).toBe(1);
    expect(sample(billed, 'donation_site_recurring_plans', { status: 'active' })).toBe(1);
    expect(sample(billed, 'donation_site_donations', { outcome: 'succeeded', gateway: 'test' })).toBe(4);
    expect(gatewayCalls(billed, 'chargeSavedPaymentMethod', 'succeeded')).toBe(1);
    expect(gatewayCalls(billed, 'chargeSavedPaymentMethod', 'declined')).toBe(1);
  });

  it('is not a payment attempt: scrapes need no CSRF credentials and never count against the IP limits', async () => {
    // RATE_LIMIT_IP_MAX (5) refused scrapes from one IP, more than the limit of refused payment attempts.
    for (let i = 0; i < 6; i += 1) expect((await t.app.inject({ method: 'GET', url: METRICS_PATH })).statusCode).toBe(401);
    expect(await donate('six@example.org', '4242424242424242')).toBe(200);
  });
});
