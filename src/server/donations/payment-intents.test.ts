import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { API_PATHS, ApiErrorSchema, CreatePaymentIntentSuccessSchema, CSRF_HEADER_NAME, ProcessDonationSuccessSchema } from '../../shared/api';
import type { DonationSubmissionInput } from '../../shared/donation';
import { donations, idempotencyKeys } from '../db/schema';
import { AMOUNT_MISMATCH_MESSAGE, CARD_REQUIRED_MESSAGE, PAYMENT_NOT_FOUND_MESSAGE, IDEMPOTENCY_MISMATCH_MESSAGE } from '../http/errors';
import { IDEMPOTENT_REPLAYED_HEADER } from '../idempotency/idempotency-key';
import type { PaymentGateway } from '../payments/gateway';
import { createTestGateway, DECLINE_MESSAGES } from '../payments/test-gateway';
import { cardlessDetails, createTestApp, validSubmission, type TestApp } from '../testing/test-app';
import { ABANDONED_DECLINE_CODE } from '../ledger/answers';
import { markDonationSucceeded } from '../ledger/repository';

/**
 * The spec's payment-intent endpoints in test mode (spec section 7; issue #11), through app.inject on the real
 * app, database and test gateway: create-payment-intent, then confirm-donation with the test card, which the
 * server uses to confirm the intent. Runs on the embedded PostgreSQL test server, and on DATABASE_URL's when it is set.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await t.reset();
});

/** Creates an intent for `submission` (with its donor details) and returns its id. */
async function createIntent(submission: DonationSubmissionInput = validSubmission()): Promise<string> {
  const response = await t.post(API_PATHS.createPaymentIntent, { amount: submission.amount, donation: cardlessDetails(submission) });
  expect(response.statusCode, response.body).toBe(200);
  return CreatePaymentIntentSuccessSchema.parse(response.json()).data.paymentIntentId;
}

const confirm = (paymentIntentId: string, donationData: unknown, idempotencyKey?: string) =>
  t.post(API_PATHS.confirmDonation, { paymentIntentId, donationData }, idempotencyKey);

describe('POST /api/create-payment-intent', () => {
  it('answers the intent with its client secret, amount in dollars and USD, and records the donor pending', async () => {
    const submission = validSubmission({ amount: 42.5, donorName: 'Bea Coral' });
    const response = await t.post(API_PATHS.createPaymentIntent, { amount: 42.5, donation: cardlessDetails(submission) });
    expect(response.statusCode).toBe(200);
    const { data } = CreatePaymentIntentSuccessSchema.parse(response.json());
    expect(data).toMatchObject({ amount: 42.5, currency: 'USD' });
    expect(data.paymentIntentId).toMatch(/^pi_test_/);
    expect(data.clientSecret).toMatch(new RegExp(`^${data.paymentIntentId}_secret_`));
    const [row] = await t.db.select().from(donations);
    expect(row).toMatchObject({ status: 'pending', amountCents: 4250, donorName: 'Bea Coral', paymentIntentId: data.paymentIntentId, cardBrand: null, cardLast4: null });
    expect(t.gateway.calls).toBe(0);
  });

  it('takes `{amount}` alone (nothing recorded until confirmed), and refuses bad input and card fields with 400', async () => {
    expect((await t.post(API_PATHS.createPaymentIntent, { amount: 10 })).statusCode).toBe(200);
    expect(await t.countDonations()).toBe(0);
    for (const body of [
      { amount: 0.5 },
      { amount: '10' },
      { amount: 10, donation: { ...cardlessDetails(validSubmission()), creditCard: validSubmission().creditCard } },
      { amount: 10, donation: { ...cardlessDetails(validSubmission()), donorEmail: 'nope' } },
      { amount: 10, extra: true },
    ]) {
      const response = await t.post(API_PATHS.createPaymentIntent, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(ApiErrorSchema.parse(response.json()).fieldErrors).toBeDefined();
    }
    expect(await t.countDonations()).toBe(0);
  });
});

describe('POST /api/confirm-donation in test mode', () => {
  it('confirms the intent with the test card and answers as process-donation: 200, succeeded with brand and last4', async () => {
    const submission = validSubmission({ amount: 25 }, { number: '5555555555554444' });
    const paymentIntentId = await createIntent(submission);
    const response = await confirm(paymentIntentId, submission);
    expect(response.statusCode, response.body).toBe(200);
    const { data } = ProcessDonationSuccessSchema.parse(response.json());
    expect(data).toMatchObject({ amount: 25, donorName: 'Ana Reef', isTestPayment: true });
    const rows = await t.db.select().from(donations);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'succeeded', paymentIntentId, cardBrand: 'mastercard', cardLast4: '4444', gatewayTransactionId: data.transactionId });
  });

  it('records a confirm without an earlier create-payment-intent donation, from donationData', async () => {
    const created = await t.post(API_PATHS.createPaymentIntent, { amount: 25 });
    const { paymentIntentId } = CreatePaymentIntentSuccessSchema.parse(created.json()).data;
    expect((await confirm(paymentIntentId, validSubmission())).statusCode).toBe(200);
    expect(await t.db.select({ status: donations.status }).from(donations)).toEqual([{ status: 'succeeded' }]);
  });

  it('a decline: 402 with the decline message, the donation failed; another card on the same intent then succeeds', async () => {
    const declined = validSubmission({}, { number: '4000000000009995' });
    const paymentIntentId = await createIntent(declined);
    const response = await confirm(paymentIntentId, declined);
    expect(response.statusCode).toBe(402);
    expect(response.json()).toMatchObject({ success: false, error: DECLINE_MESSAGES.insufficientFunds });
    const [row] = await t.db.select().from(donations).where(eq(donations.paymentIntentId, paymentIntentId));
    expect(row).toMatchObject({ status: 'failed', declineCode: 'insufficient_funds' });

    const retried = await confirm(paymentIntentId, validSubmission());
    expect(retried.statusCode).toBe(200);
    const [after] = await t.db.select().from(donations).where(eq(donations.paymentIntentId, paymentIntentId));
    expect(after).toMatchObject({ status: 'succeeded', cardLast4: '4242' });
  });

  it('a second confirm of the same intent replays the first answer, charging and recording nothing new', async () => {
    const paymentIntentId = await createIntent();
    const first = await confirm(paymentIntentId, validSubmission());
    const calls = t.gateway.calls;
    const second = await confirm(paymentIntentId, validSubmission());
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual(first.json());
    expect(second.headers[IDEMPOTENT_REPLAYED_HEADER]).toBe('true');
    expect(t.gateway.calls).toBe(calls);
    expect(await t.countDonations()).toBe(1);
  });

  it('400 when the amount differs from the intent, 404 for an unknown intent, 400 without a card: nothing recorded', async () => {
    const paymentIntentId = await createIntent(validSubmission({ amount: 25 }));
    const mismatch = await confirm(paymentIntentId, validSubmission({ amount: 2500 }));
    expect(mismatch.statusCode).toBe(400);
    expect(ApiErrorSchema.parse(mismatch.json())).toMatchObject({ error: AMOUNT_MISMATCH_MESSAGE, fieldErrors: { 'donationData.amount': AMOUNT_MISMATCH_MESSAGE } });

    const unknown = await confirm('pi_test_doesnotexist000000000000', validSubmission());
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ error: PAYMENT_NOT_FOUND_MESSAGE });

    const { creditCard: _card, ...withoutCard } = validSubmission();
    const cardless = await confirm(paymentIntentId, withoutCard);
    expect(cardless.statusCode).toBe(400);
    expect(ApiErrorSchema.parse(cardless.json()).fieldErrors).toEqual({ 'donationData.creditCard': CARD_REQUIRED_MESSAGE });

    for (const bad of [{ paymentIntentId: 'ch_123', donationData: validSubmission() }, { paymentIntentId }, { donationData: validSubmission() }]) {
      expect((await t.post(API_PATHS.confirmDonation, bad)).statusCode).toBe(400);
    }
    expect(t.gateway.calls).toBe(0);
    const [row] = await t.db.select({ status: donations.status }).from(donations);
    expect(row?.status).toBe('pending');
  });

  it('Idempotency-Key works as on process-donation: replayed with the same body, 422 with another', async () => {
    const paymentIntentId = await createIntent();
    const key = `confirm-${paymentIntentId}`;
    const first = await confirm(paymentIntentId, validSubmission(), key);
    expect(first.statusCode).toBe(200);
    const replay = await confirm(paymentIntentId, validSubmission(), key);
    expect(replay.headers[IDEMPOTENT_REPLAYED_HEADER]).toBe('true');
    expect(replay.json()).toEqual(first.json());
    const other = await confirm(paymentIntentId, validSubmission({ donorName: 'Someone Else' }), key);
    expect(other.statusCode).toBe(422);
    expect(other.json()).toMatchObject({ error: IDEMPOTENCY_MISMATCH_MESSAGE });
    expect(await t.db.select({ key: idempotencyKeys.key }).from(idempotencyKeys)).toEqual([{ key }]);
  });

  it('the reconciler settles an intent whose browser never came back: never confirmed, abandoned', async () => {
    const paymentIntentId = await createIntent();
    expect(await t.reconcile()).toMatchObject({ abandoned: 1, stillPending: 0 });
    const [row] = await t.db.select().from(donations).where(eq(donations.paymentIntentId, paymentIntentId));
    expect(row).toMatchObject({ status: 'failed', declineCode: ABANDONED_DECLINE_CODE });
  });
});

describe('POST /api/confirm-donation racing the webhook', () => {
  it('answers what the webhook recorded (200, replayed) when it recorded the intent while the confirm ran, not 409', async () => {
    // NOTE: the gateway seam stands in for the race: right after the intent is confirmed, and before confirm-donation
    // writes the outcome, the outcome is recorded through the ledger as the webhook records it.
    const inner = createTestGateway();
    const app: { current?: TestApp } = {};
    const gateway: PaymentGateway = {
      ...inner,
      async confirmPaymentIntent(paymentIntentId, card) {
        const intent = await inner.confirmPaymentIntent(paymentIntentId, card);
        const [row] = await (app.current as TestApp).db.select({ id: donations.id }).from(donations).where(eq(donations.paymentIntentId, paymentIntentId));
        if (row && intent.charge) {
          await markDonationSucceeded((app.current as TestApp).db, row.id, { ...intent.charge, isTestPayment: true }, { statusCode: 200, body: { recordedBy: 'webhook' } });
        }
        return intent;
      },
    };
    const racing = await createTestApp({ gateway });
    app.current = racing;
    try {
      const submission = validSubmission({ amount: 30 });
      const created = await racing.post(API_PATHS.createPaymentIntent, { amount: 30, donation: cardlessDetails(submission) });
      const { paymentIntentId } = CreatePaymentIntentSuccessSchema.parse(created.json()).data;
      const response = await racing.post(API_PATHS.confirmDonation, { paymentIntentId, donationData: submission });
      expect(response.statusCode, response.body).toBe(200);
      const { data } = ProcessDonationSuccessSchema.parse(response.json());
      expect(data.amount).toBe(30);
      const rows = await racing.db.select({ status: donations.status, transactionId: donations.gatewayTransactionId }).from(donations);
      expect(rows).toEqual([{ status: 'succeeded', transactionId: data.transactionId }]);
    } finally {
      await racing.close();
    }
  });
});

describe('the card-testing defence on the payment-intent endpoints (issue #11: "Rate limits ... apply to both endpoints")', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await createTestApp({ env: { RATE_LIMITS: 'on', VELOCITY_DELAY_MIN_MS: '0', VELOCITY_DELAY_MAX_MS: '0' } });
  });
  afterAll(async () => {
    await limited?.close();
  });

  it('declined confirms from one IP: the gateway stops being asked after 3, and the next attempt after 5 is refused with 429', async () => {
    const credentials = await limited.csrf();
    const from = (url: string, body: unknown) =>
      limited.app.inject({
        method: 'POST',
        url,
        remoteAddress: '203.0.113.200',
        headers: { cookie: credentials.cookie, [CSRF_HEADER_NAME]: credentials.token },
        payload: body as object,
      });
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 6 && statuses.at(-1) !== 429; attempt += 1) {
      const submission = validSubmission({ donorEmail: `tester-${attempt}@example.org` }, { number: '4000000000009987' });
      const created = await from(API_PATHS.createPaymentIntent, { amount: 25 });
      if (created.statusCode !== 200) {
        statuses.push(created.statusCode);
        continue;
      }
      const { paymentIntentId } = CreatePaymentIntentSuccessSchema.parse(created.json()).data;
      statuses.push((await from(API_PATHS.confirmDonation, { paymentIntentId, donationData: submission })).statusCode);
    }
    // 3 declines by the gateway; then the velocity rule's generic decline (402) already on create-payment-intent,
    // without asking the gateway; 5 refusals in all, then 429 for any write from that IP.
    expect(statuses).toEqual([402, 402, 402, 402, 402, 429]);
    expect(await limited.countDonations()).toBe(3);
  });
});
