import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiErrorSchema } from '../../shared/api';
import { donations } from '../db/schema';
import { PAYMENT_BEING_CONFIRMED_MESSAGE, SERVICE_UNAVAILABLE_MESSAGE } from '../http/errors';
import { IDEMPOTENT_REPLAYED_HEADER } from '../idempotency/idempotency-key';
import { gatewayIdempotencyKey, type PaymentGateway } from '../payments/gateway';
import { createTestGateway } from '../payments/test-gateway';
import { faultyDatabase, type FaultyDatabase } from '../testing/faulty-database';
import { faultyGateway, type GatewayFaults } from '../testing/faulty-gateway';
import { createTestApp, validSubmission, type TestApp } from '../testing/test-app';
import { ABANDONED_DECLINE_CODE, ABANDONED_MESSAGE } from '../ledger/answers';
import { reconcilePendingDonations } from './reconciler';

/**
 * Faults 1-3 of issue #3, against the real app and database: the fault points are a wrapping gateway
 * (faultyGateway) and a proxy of the database driver's client (faultyDatabase); production code is unchanged.
 * The reconciler is run as main's loop runs it (t.reconcile). Fault 4 is crash.test.ts, fault 5 idempotency.test.ts.
 */

const GATEWAY_TIMEOUT_MS = 200;
const testGateway = createTestGateway();
const faults: GatewayFaults = {};
let database: FaultyDatabase | undefined;
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({
    env: { GATEWAY_TIMEOUT_MS: String(GATEWAY_TIMEOUT_MS) },
    gateway: faultyGateway(testGateway, faults),
    database: (handle) => {
      database = faultyDatabase(handle);
      return database.db;
    },
  });
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  delete faults.beforeCharge;
  delete faults.afterCharge;
  if (database) database.down = false;
  await t.reset();
});

/** The only donation row (the tests start from an empty table and make one). */
async function theDonation() {
  const rows = await t.db.select().from(donations);
  expect(rows).toHaveLength(1);
  return rows[0] as (typeof rows)[number];
}

/** The charges the test gateway made for a donation (under its gateway key). */
const chargesFor = (donationId: string) =>
  testGateway.charges().filter((charge) => charge.idempotencyKey === gatewayIdempotencyKey(donationId));

const expectError = (response: { statusCode: number; json: () => unknown }, statusCode: number, message: string, code: string) => {
  expect(response.statusCode).toBe(statusCode);
  expect(ApiErrorSchema.parse(response.json())).toEqual({ success: false, error: message, code });
};

/** A promise the test resolves when it chooses (a gateway that hangs until then). */
function hold(): { held: Promise<void>; release: () => void } {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  return { held, release };
}

describe('fault 1: the gateway errors or times out', () => {
  it('errors before charging: 503 "being confirmed", the reconciler marks it abandoned, a retry replays that, one attempt only', async () => {
    faults.beforeCharge = () => {
      throw new Error('ECONNRESET (injected fault)');
    };
    const key = randomUUID();
    expectError(await t.postDonation(validSubmission(), undefined, key), 503, PAYMENT_BEING_CONFIRMED_MESSAGE, 'payment_being_confirmed');
    expect((await theDonation()).status).toBe('pending');
    expect((await t.postDonation(validSubmission(), undefined, key)).statusCode).toBe(409);

    delete faults.beforeCharge;
    expect(await t.reconcile()).toMatchObject({ abandoned: 1, stillPending: 0 });
    const donation = await theDonation();
    expect(donation).toMatchObject({ status: 'failed', declineCode: ABANDONED_DECLINE_CODE });
    expect(chargesFor(donation.id)).toEqual([]);

    const retry = await t.postDonation(validSubmission(), undefined, key);
    expectError(retry, 402, ABANDONED_MESSAGE, 'payment_not_completed');
    expect(retry.headers[IDEMPOTENT_REPLAYED_HEADER]).toBe('true');
    expect(t.gateway.calls).toBe(1);
  });

  it('times out, and the charge goes through afterwards: 503, then the reconciler records the charge, one charge only', async () => {
    const { held, release } = hold();
    faults.beforeCharge = () => held;
    const key = randomUUID();
    const started = Date.now();
    expectError(await t.postDonation(validSubmission(), undefined, key), 503, PAYMENT_BEING_CONFIRMED_MESSAGE, 'payment_being_confirmed');
    expect(Date.now() - started).toBeGreaterThanOrEqual(GATEWAY_TIMEOUT_MS - 5);

    const { id } = await theDonation();
    release(); // the gateway now processes the charge we stopped waiting for, as a real one may
    await vi.waitFor(() => expect(chargesFor(id)).toHaveLength(1), { timeout: 5000, interval: 10 });
    const [charge] = chargesFor(id);

    expect(await t.reconcile()).toMatchObject({ succeeded: 1, stillPending: 0 });
    const donation = await theDonation();
    expect(donation.status).toBe('succeeded');
    expect(charge?.result).toMatchObject({ status: 'succeeded', transactionId: donation.gatewayTransactionId });

    const retry = await t.postDonation(validSubmission(), undefined, key);
    expect(retry.statusCode).toBe(200);
    expect(retry.headers[IDEMPOTENT_REPLAYED_HEADER]).toBe('true');
    expect(retry.json().data.transactionId).toBe(donation.gatewayTransactionId);
    expect(chargesFor(id)).toHaveLength(1);
    expect(t.gateway.calls).toBe(1);
  });

  it('charges, then the answer is lost: 503, then the reconciler records the charge; a retry does not charge again', async () => {
    faults.afterCharge = () => {
      throw new Error('socket hang up (injected fault)');
    };
    const key = randomUUID();
    expectError(await t.postDonation(validSubmission(), undefined, key), 503, PAYMENT_BEING_CONFIRMED_MESSAGE, 'payment_being_confirmed');
    delete faults.afterCharge;

    expect(await t.reconcile()).toMatchObject({ succeeded: 1, stillPending: 0 });
    const donation = await theDonation();
    expect(donation.status).toBe('succeeded');
    const retry = await t.postDonation(validSubmission(), undefined, key);
    expect(retry.json().data.transactionId).toBe(donation.gatewayTransactionId);
    expect(chargesFor(donation.id)).toHaveLength(1);
  });

  it('leaves a donation pending while the gateway cannot be asked, and resolves it on a later run', async () => {
    faults.afterCharge = () => {
      throw new Error('socket hang up (injected fault)');
    };
    await t.postDonation(validSubmission());
    const unreachable: PaymentGateway = {
      ...t.gateway,
      retrieveCharge: async () => {
        throw new Error('gateway unreachable (injected fault)');
      },
    };
    expect(await reconcilePendingDonations({ db: t.db, gateway: unreachable, log: t.app.log }, 0)).toMatchObject({
      unresolved: 1,
      stillPending: 1,
    });
    expect(await t.reconcile()).toMatchObject({ succeeded: 1, stillPending: 0 });
  });

  it('leaves alone a pending donation younger than PENDING_TIMEOUT_MS (its request may still be charging)', async () => {
    faults.afterCharge = () => {
      throw new Error('socket hang up (injected fault)');
    };
    await t.postDonation(validSubmission());
    expect(await t.reconcile(60_000)).toMatchObject({ succeeded: 0, failed: 0, abandoned: 0, stillPending: 1 });
    expect((await theDonation()).status).toBe('pending');
  });
});

describe('fault 2: the database is unreachable when a request arrives', () => {
  it('answers 503 with a clear message and never calls the gateway; the same key works once it is back', async () => {
    if (!database) throw new Error('the app was not built on the faulty database');
    database.down = true;
    const key = randomUUID();
    const response = await t.postDonation(validSubmission(), undefined, key);
    expectError(response, 503, SERVICE_UNAVAILABLE_MESSAGE, 'service_unavailable');
    expect(response.headers['retry-after']).toMatch(/^\d+$/);
    expectError(await t.postDonation(validSubmission()), 503, SERVICE_UNAVAILABLE_MESSAGE, 'service_unavailable');
    expect(t.gateway.calls).toBe(0);

    database.down = false;
    expect(await t.countDonations()).toBe(0);
    expect((await t.postDonation(validSubmission(), undefined, key)).statusCode).toBe(200);
    expect(t.gateway.calls).toBe(1);
  });
});

describe('fault 3: the database fails after the charge', () => {
  it('succeeded: 503 "being confirmed", the reconciler records the charge, a retry replays it; nothing lost', async () => {
    faults.afterCharge = () => {
      if (database) database.down = true;
    };
    const key = randomUUID();
    expectError(await t.postDonation(validSubmission(), undefined, key), 503, PAYMENT_BEING_CONFIRMED_MESSAGE, 'payment_being_confirmed');
    delete faults.afterCharge;
    if (database) database.down = false;

    const { id } = await theDonation();
    expect((await theDonation()).status).toBe('pending');
    expect(chargesFor(id)).toHaveLength(1);
    expect((await t.postDonation(validSubmission(), undefined, key)).statusCode).toBe(409);

    expect(await t.reconcile()).toMatchObject({ succeeded: 1, stillPending: 0 });
    const [charge] = chargesFor(id);
    const donation = await theDonation();
    expect(donation.status).toBe('succeeded');
    expect(charge?.result).toMatchObject({ status: 'succeeded', transactionId: donation.gatewayTransactionId });

    const retry = await t.postDonation(validSubmission(), undefined, key);
    expect(retry.statusCode).toBe(200);
    expect(retry.headers[IDEMPOTENT_REPLAYED_HEADER]).toBe('true');
    expect(retry.json().data).toMatchObject({ amount: 25, donorName: 'Ana Reef', transactionId: donation.gatewayTransactionId });
    const stats = await t.app.inject({ method: 'GET', url: '/api/donations/stats' });
    expect(stats.json()).toMatchObject({ totalRaised: 25, donationCount: 1 });
    expect(t.gateway.calls).toBe(1);
  });

  it('declined: the decline is answered at once (nothing was charged), and the reconciler records it', async () => {
    faults.afterCharge = () => {
      if (database) database.down = true;
    };
    const key = randomUUID();
    const declined = validSubmission({}, { number: '4000000000000002' });
    expectError(await t.postDonation(declined, undefined, key), 402, 'Your card was declined.', 'card_declined');
    delete faults.afterCharge;
    if (database) database.down = false;

    expect(await t.reconcile()).toMatchObject({ failed: 1, stillPending: 0 });
    const donation = await theDonation();
    expect(donation).toMatchObject({ status: 'failed', declineCode: 'card_declined' });
    const retry = await t.postDonation(declined, undefined, key);
    expectError(retry, 402, 'Your card was declined.', 'card_declined');
    expect(retry.headers[IDEMPOTENT_REPLAYED_HEADER]).toBe('true');
    const rows = await t.db.select({ id: donations.id }).from(donations).where(eq(donations.status, 'pending'));
    expect(rows).toEqual([]);
  });
});
