import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiErrorSchema, ProcessDonationSuccessSchema } from '../../shared/api';
import { donations, idempotencyKeys } from '../db/schema';
import { IDEMPOTENCY_IN_FLIGHT_MESSAGE, IDEMPOTENCY_MISMATCH_MESSAGE, INVALID_IDEMPOTENCY_KEY_MESSAGE } from '../http/errors';
import { IDEMPOTENT_REPLAYED_HEADER } from '../idempotency/idempotency-key';
import { createTestGateway } from '../payments/test-gateway';
import { faultyGateway, type GatewayFaults } from '../testing/faulty-gateway';
import { createTestApp, validSubmission, type TestApp } from '../testing/test-app';

/**
 * The Idempotency-Key contract of POST /api/process-donation (issue #3, after Stripe's idempotent requests and
 * the IETF draft): replay after completion, 422 for another body, 409 while in flight, one charge for 50
 * concurrent requests (fault 5), and a request without a key processed once per request.
 */

const testGateway = createTestGateway();
const faults: GatewayFaults = {};
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ gateway: faultyGateway(testGateway, faults) });
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await t.reset();
  delete faults.beforeCharge;
});

const PAN = '4242424242424242';
const newKey = () => randomUUID();
/** Charges the test gateway recorded under its own keys since the file started (it is never reset). */
const chargesSoFar = () => testGateway.charges().length;

describe('a key used again after its request completed', () => {
  it('replays the stored 200 with Idempotent-Replayed: true, and charges once', async () => {
    const key = newKey();
    const charges = chargesSoFar();
    const first = await t.postDonation(validSubmission(), undefined, key);
    expect(first.statusCode).toBe(200);
    expect(first.headers[IDEMPOTENT_REPLAYED_HEADER]).toBeUndefined();

    const again = await t.postDonation(validSubmission(), undefined, key);
    expect(again.statusCode).toBe(200);
    expect(again.headers[IDEMPOTENT_REPLAYED_HEADER]).toBe('true');
    expect(ProcessDonationSuccessSchema.parse(again.json())).toEqual(first.json());

    expect(t.gateway.calls).toBe(1);
    expect(chargesSoFar() - charges).toBe(1);
    expect(await t.countDonations()).toBe(1);
  });

  it('replays a decline (402) too: the outcome of that attempt is final', async () => {
    const key = newKey();
    const declined = validSubmission({}, { number: '4000000000009995' });
    const first = await t.postDonation(declined, undefined, key);
    expect(first.statusCode).toBe(402);
    const again = await t.postDonation(declined, undefined, key);
    expect(again.statusCode).toBe(402);
    expect(again.headers[IDEMPOTENT_REPLAYED_HEADER]).toBe('true');
    expect(again.json()).toEqual({ success: false, error: 'Your card has insufficient funds.', code: 'insufficient_funds' });
    expect(t.gateway.calls).toBe(1);
  });

  it('treats the same fields in another order as the same body', async () => {
    const key = newKey();
    const submission = validSubmission();
    expect((await t.postDonation(submission, undefined, key)).statusCode).toBe(200);
    const reordered = Object.fromEntries(Object.entries(submission).reverse());
    const again = await t.postDonation(reordered, undefined, key);
    expect(again.headers[IDEMPOTENT_REPLAYED_HEADER]).toBe('true');
    expect(t.gateway.calls).toBe(1);
  });
});

describe('a key used again with a different body', () => {
  it('answers 422 and writes and charges nothing more', async () => {
    const key = newKey();
    expect((await t.postDonation(validSubmission(), undefined, key)).statusCode).toBe(200);
    const other = await t.postDonation(validSubmission({ amount: 50 }), undefined, key);
    expect(other.statusCode).toBe(422);
    expect(ApiErrorSchema.parse(other.json())).toEqual({ success: false, error: IDEMPOTENCY_MISMATCH_MESSAGE, code: 'idempotency_mismatch' });
    expect(t.gateway.calls).toBe(1);
    expect(await t.countDonations()).toBe(1);
  });
});

describe('a key used again while its first request is in flight', () => {
  it('answers 409 with Retry-After, then replays once the first one completed', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    faults.beforeCharge = () => held;
    const key = newKey();

    const first = t.postDonation(validSubmission(), undefined, key);
    await vi.waitFor(async () => expect(await t.countDonations()).toBe(1), { timeout: 5000, interval: 10 });
    const during = await t.postDonation(validSubmission(), undefined, key);
    expect(during.statusCode).toBe(409);
    expect(ApiErrorSchema.parse(during.json())).toEqual({ success: false, error: IDEMPOTENCY_IN_FLIGHT_MESSAGE, code: 'idempotency_in_flight' });
    expect(during.headers['retry-after']).toMatch(/^\d+$/);

    release();
    expect((await first).statusCode).toBe(200);
    const after = await t.postDonation(validSubmission(), undefined, key);
    expect(after.headers[IDEMPOTENT_REPLAYED_HEADER]).toBe('true');
    expect(after.json()).toEqual((await first).json());
    expect(t.gateway.calls).toBe(1);
  });
});

describe('fault 5: 50 concurrent requests with one key', () => {
  it('make exactly one charge and one donation; the others get 409 or the replay', async () => {
    const key = newKey();
    const charges = chargesSoFar();
    const responses = await Promise.all(Array.from({ length: 50 }, () => t.postDonation(validSubmission(), undefined, key)));

    const fresh = responses.filter((r) => r.statusCode === 200 && r.headers[IDEMPOTENT_REPLAYED_HEADER] === undefined);
    const replays = responses.filter((r) => r.statusCode === 200 && r.headers[IDEMPOTENT_REPLAYED_HEADER] === 'true');
    const conflicts = responses.filter((r) => r.statusCode === 409);
    expect(fresh).toHaveLength(1);
    expect(replays.length + conflicts.length).toBe(49);
    for (const replay of replays) expect(replay.json()).toEqual(fresh[0]?.json());

    expect(chargesSoFar() - charges).toBe(1);
    expect(t.gateway.calls).toBe(1);
    expect(await t.countDonations()).toBe(1);
  });
});

describe('requests without a key', () => {
  it('are each processed once, as they come: two identical requests are two donations', async () => {
    expect((await t.postDonation(validSubmission())).statusCode).toBe(200);
    expect((await t.postDonation(validSubmission())).statusCode).toBe(200);
    expect(t.gateway.calls).toBe(2);
    expect(await t.countDonations()).toBe(2);
    expect(await t.db.select().from(idempotencyKeys)).toEqual([]);
  });
});

describe('the Idempotency-Key header itself', () => {
  it.each([
    ['empty', ''],
    ['256 characters', 'k'.repeat(256)],
    ['a control character', 'abc\u0007def'],
    ['non-ASCII', 'clé-été'],
  ])('is refused when %s: 400 with a clear error, nothing written or charged', async (_name, key) => {
    const response = await t.postDonation(validSubmission(), undefined, key);
    expect(response.statusCode).toBe(400);
    expect(ApiErrorSchema.parse(response.json())).toEqual({ success: false, error: INVALID_IDEMPOTENCY_KEY_MESSAGE, code: 'invalid_idempotency_key' });
    expect(await t.countDonations()).toBe(0);
    expect(t.gateway.calls).toBe(0);
  });

  it('is accepted at 255 characters', async () => {
    expect((await t.postDonation(validSubmission(), undefined, 'k'.repeat(255))).statusCode).toBe(200);
  });

  it('is not claimed by a request that fails validation, so it can be used for the corrected request', async () => {
    const key = newKey();
    expect((await t.postDonation(validSubmission({ donorEmail: 'ana@' }), undefined, key)).statusCode).toBe(400);
    expect((await t.postDonation(validSubmission(), undefined, key)).statusCode).toBe(200);
  });
});

describe('what a key keeps', () => {
  it('holds a keyed fingerprint and the API answer, never the card number or CVV, for at least 24 hours', async () => {
    const key = newKey();
    await t.postDonation(validSubmission({}, { cvv: '7391' }), undefined, key);
    const [row] = await t.db
      .select({
        text: sql<string>`${idempotencyKeys}::text`,
        fingerprint: idempotencyKeys.fingerprint,
        keptHours: sql<number>`extract(epoch from ${idempotencyKeys.expiresAt} - ${idempotencyKeys.createdAt}) / 3600`.mapWith(Number),
      })
      .from(idempotencyKeys)
      .where(eq(idempotencyKeys.key, key));
    expect(row?.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(row?.text).not.toContain(PAN);
    expect(row?.text).not.toContain('7391');
    expect(row?.keptHours).toBeGreaterThanOrEqual(24);
  });

  it('is pruned by the reconciler once expired, and then a new request may use it', async () => {
    const key = newKey();
    expect((await t.postDonation(validSubmission(), undefined, key)).statusCode).toBe(200);
    await t.db
      .update(idempotencyKeys)
      .set({ createdAt: sql`now() - interval '25 hours'`, expiresAt: sql`now() - interval '1 hour'` })
      .where(eq(idempotencyKeys.key, key));

    expect((await t.reconcile()).prunedKeys).toBe(1);
    const reused = await t.postDonation(validSubmission({ amount: 40 }), undefined, key);
    expect(reused.statusCode).toBe(200);
    expect(reused.headers[IDEMPOTENT_REPLAYED_HEADER]).toBeUndefined();
    expect(await t.db.select({ status: donations.status }).from(donations)).toEqual([
      { status: 'succeeded' },
      { status: 'succeeded' },
    ]);
  });
});
