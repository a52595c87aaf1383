import { inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../platform/config';
import { donations } from '../db/schema';
import { gatewayIdempotencyKey } from '../payments/gateway';
import { createTestGateway } from '../payments/test-gateway';
import { memoryLog, type LogEntry } from '../testing/payment-attempts';
import { PENDING_TEST_DONATION } from '../testing/pending-donation';
import { openTestDatabase, type TestDatabase } from '../testing/test-database';
import { ABANDONED_DECLINE_CODE } from '../ledger/answers';
import { startReconciler } from './reconciler';
import { createPendingDonation } from '../ledger/repository';

/**
 * The reconciler as main starts it (issue #3: "A reconciler runs at start-up and on an interval"): its
 * start-up run, on its own, resolves every donation left pending longer than PENDING_TIMEOUT_MS. The
 * interval is an hour, so no other run can happen during the test.
 */

const { pendingTimeoutMs } = loadConfig({ NODE_ENV: 'test' });
const INTERVAL_MS = 60 * 60_000;

let database: TestDatabase;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

/** Moves the donations' `created_at` back by `ageMs`, as if they had been written that long ago. */
async function age(ids: string[], ageMs: number): Promise<void> {
  await database.db
    .update(donations)
    .set({ createdAt: sql`now() - make_interval(secs => ${ageMs / 1000})` })
    .where(inArray(donations.id, ids));
}

describe('startReconciler', () => {
  it('resolves at start-up every donation pending longer than PENDING_TIMEOUT_MS, and leaves a younger one pending', async () => {
    const gateway = createTestGateway();
    // A crash between the charge and its commit, a crash before the charge, and a donation still in progress.
    const charged = await createPendingDonation(database.db, PENDING_TEST_DONATION);
    const charge = await gateway.charge({
      amountCents: PENDING_TEST_DONATION.amountCents,
      currency: PENDING_TEST_DONATION.currency,
      card: { number: '4242424242424242', expiryMonth: 12, expiryYear: new Date().getFullYear() + 2, cvc: '123' },
      description: 'Donation (one-time): research',
      idempotencyKey: gatewayIdempotencyKey(charged),
    });
    if (charge.status !== 'succeeded') throw new Error(`the test card was declined: ${charge.declineCode}`);
    const neverCharged = await createPendingDonation(database.db, PENDING_TEST_DONATION);
    const young = await createPendingDonation(database.db, PENDING_TEST_DONATION);
    await age([charged, neverCharged], pendingTimeoutMs + 60_000);

    const log = memoryLog();
    const reconciler = startReconciler({ db: database.db, gateway, log: log.logger }, { pendingTimeoutMs, intervalMs: INTERVAL_MS });
    // The start-up run's end, then stop() cancels the next run, an hour away. NOTE: stop() during a run would end it
    // after the donation at hand (graceful shutdown, issue #14).
    await vi.waitFor(() => expect(log.lines.some((line) => line.includes('"msg":"Reconciliation finished"'))).toBe(true), { timeout: 10_000 });
    await reconciler.stop();

    const rows = await database.db
      .select({ id: donations.id, status: donations.status, transactionId: donations.gatewayTransactionId, declineCode: donations.declineCode })
      .from(donations);
    expect(new Map(rows.map(({ id, ...row }) => [id, row]))).toEqual(
      new Map([
        [charged, { status: 'succeeded', transactionId: charge.transactionId, declineCode: null }],
        [neverCharged, { status: 'failed', transactionId: null, declineCode: ABANDONED_DECLINE_CODE }],
        [young, { status: 'pending', transactionId: null, declineCode: null }],
      ]),
    );
    const entries = log.lines.map((line) => JSON.parse(line) as LogEntry);
    expect(entries.filter((entry) => entry.msg === 'Reconciliation finished').map((entry) => entry.reconcile)).toEqual([
      { succeeded: 1, failed: 0, abandoned: 1, unresolved: 0, stillPending: 1, prunedKeys: 0, refunds: { succeeded: 0, failed: 0, unresolved: 0 } },
    ]);
  });
});
