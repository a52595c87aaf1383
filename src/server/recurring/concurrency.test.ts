import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IN_MEMORY_DATA_DIR } from '../platform/config';
import { openDatabase, type DatabaseHandle } from '../db/client';
import { donations, recurringPlans } from '../db/schema';
import { createPendingDonation } from '../ledger/repository';
import { createLogger } from '../platform/logger';
import type { PaymentGateway } from '../payments/gateway';
import { createTestGateway, type TestGateway } from '../payments/test-gateway';
import { PENDING_TEST_DONATION } from '../testing/pending-donation';
import { openTestDatabase, type TestDatabase } from '../testing/test-database';
import { runBilling, type BillingDeps } from './billing';
import { BILLING_LEASE_MS } from './plans';
import { markSucceededAndStartPlan } from './first-payment';

/**
 * Each (plan, period) charged once (issue #13), whatever runs at once: two billing runners of two processes (two
 * connection pools on one PostgreSQL database), and a run whose gateway answer was lost (the
 * process died after the charge): the next run after the lease charges under the same key and the gateway replays.
 */

const log = createLogger({ logLevel: 'silent' });
const PLANS = 25;
let database: TestDatabase;
let second: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
  // NOTE: a second pool on the same PostgreSQL database stands for a second server process.
  second = await openDatabase({ dataDir: IN_MEMORY_DATA_DIR, databaseUrl: database.url });
});
afterAll(async () => {
  await second.close();
  await database?.close();
});

/** Writes `count` monthly plans anchored on 2027-01-15, paid with the test Visa saved by `gateway`. */
async function createPlans(gateway: PaymentGateway, count: number): Promise<string[]> {
  const saved = await gateway.savePaymentMethod({ number: '4242424242424242', expiryMonth: 12, expiryYear: 2099, cvc: '123' });
  if (saved.status !== 'saved') throw new Error('not saved');
  const ids: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const donationId = await createPendingDonation(database.db, { ...PENDING_TEST_DONATION, frequency: 'monthly' });
    const outcome = { transactionId: `ch_test_first_${donationId}`, cardBrand: 'visa' as const, last4: '4242', isTestPayment: true };
    await markSucceededAndStartPlan(database.db, donationId, outcome, { statusCode: 200, body: {} }, { saved: saved.paymentMethod, gateway: 'test', now: new Date('2027-01-15T10:00:00Z') });
    ids.push(donationId);
  }
  return ids;
}

/** Succeeded renewals per (plan, period), counted in SQL; and how many there are in all. */
async function chargedPeriods(): Promise<{ total: number; maxPerPeriod: number }> {
  const rows = (
    (await database.db.execute(
      sql`SELECT count(*)::int AS n FROM donations WHERE recurring_period >= 1 AND status = 'succeeded' GROUP BY recurring_plan_id, recurring_period`,
    )) as unknown as { rows: Array<{ n: number }> }
  ).rows;
  return { total: rows.length, maxPerPeriod: Math.max(0, ...rows.map((row) => row.n)) };
}

describe('billing runs at the same time', () => {
  it('charge each period once: two runners (two connection pools on PostgreSQL) over the same plans', async () => {
    const gateway: TestGateway = createTestGateway();
    await createPlans(gateway, PLANS);
    const deps = (db: BillingDeps['db']): BillingDeps => ({ db, gateway, log, retryDays: [1, 3, 7] });
    const now = new Date('2027-02-15T00:00:00Z');
    const [a, b] = await Promise.all([runBilling(deps(database.db), now), runBilling(deps(second.db), now)]);
    expect(a.charged + b.charged).toBe(PLANS);
    expect(a.failed + b.failed).toBe(0);
    expect(await chargedPeriods()).toEqual({ total: PLANS, maxPerPeriod: 1 });
    // One gateway charge per (plan, period): the ledger holds the renewals' keys once each.
    expect(gateway.charges().filter((charge) => charge.idempotencyKey.startsWith('renewal-'))).toHaveLength(PLANS);
    const plans = await database.db.select({ period: recurringPlans.period, lockedUntil: recurringPlans.lockedUntil }).from(recurringPlans);
    expect(plans.every((plan) => plan.period === 2 && plan.lockedUntil === null)).toBe(true);
  });

  it('a run whose gateway answer was lost leaves the renewal pending under its lease; after it, the same key charges nothing new', async () => {
    await database.db.execute(sql`TRUNCATE donations, recurring_plans, receipts, receipt_counters, mail_outbox CASCADE`);
    const inner = createTestGateway();
    await createPlans(inner, 1);
    let loseAnswers = true;
    const lossy: PaymentGateway = {
      ...inner,
      async chargeSavedPaymentMethod(request) {
        const result = await inner.chargeSavedPaymentMethod(request);
        if (loseAnswers) throw new Error('socket hang up after the charge (injected fault)');
        return result;
      },
    };
    const deps: BillingDeps = { db: database.db, gateway: lossy, log, retryDays: [1, 3, 7] };
    const now = new Date('2027-02-15T00:00:00Z');
    expect(await runBilling(deps, now)).toEqual({ charged: 0, failed: 0, skipped: 1 });
    const pending = await database.db.select().from(donations).where(and(eq(donations.recurringPeriod, 1), eq(donations.status, 'pending')));
    expect(pending).toHaveLength(1);
    // Within the lease nothing is claimed; the reconciler leaves renewals alone.
    loseAnswers = false;
    expect(await runBilling(deps, new Date(now.getTime() + BILLING_LEASE_MS - 1))).toEqual({ charged: 0, failed: 0, skipped: 0 });
    expect(await runBilling(deps, new Date(now.getTime() + BILLING_LEASE_MS))).toEqual({ charged: 1, failed: 0, skipped: 0 });
    expect(await chargedPeriods()).toEqual({ total: 1, maxPerPeriod: 1 });
    expect(inner.charges().filter((charge) => charge.idempotencyKey.startsWith('renewal-'))).toHaveLength(1);
    const [renewal] = await database.db.select().from(donations).where(eq(donations.recurringPeriod, 1));
    expect(renewal).toMatchObject({ id: pending[0]?.id, status: 'succeeded', recurringAttempt: 1 });
  });
});
