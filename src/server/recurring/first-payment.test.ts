import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { API_PATHS, CreatePaymentIntentSuccessSchema, CSRF_HEADER_NAME } from '../../shared/api';
import { donations, receipts, recurringPlans } from '../db/schema';
import { createTestApp, FUTURE_EXPIRY_YEAR, validSubmission, type TestApp } from '../testing/test-app';
import { chargeDate, toIsoDate } from './calendar';
import { markSucceededAndStartPlan } from './first-payment';

/**
 * The first gift of a recurring plan (issue #13): a monthly or yearly donation that succeeds creates its plan, in the
 * transaction that marks it succeeded; a one-time gift or a decline creates none; the plan keeps a saved card, never
 * its number.
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

const plans = () => t.db.select().from(recurringPlans);

describe('a monthly or yearly gift that succeeds', () => {
  it('creates its active plan: amount, frequency, cause, the saved card (brand, last4, expiry) and the first renewal a month later', async () => {
    const today = toIsoDate(new Date());
    const answer = await t.postDonation(validSubmission({ amount: 30, frequency: 'monthly', cause: 'education-outreach' }, { number: '5555555555554444' }));
    expect(answer.statusCode).toBe(200);
    // The answer tells the thank-you page it is a monthly gift and when the next charge is.
    expect(answer.json()).toMatchObject({ data: { amount: 30, recurring: { frequency: 'monthly', nextChargeOn: chargeDate(today, 'monthly', 1) } } });
    const [plan] = await plans();
    expect(plan).toMatchObject({
      status: 'active',
      amountCents: 3000,
      currency: 'USD',
      frequency: 'monthly',
      cause: 'education-outreach',
      gateway: 'test',
      cardBrand: 'mastercard',
      cardLast4: '4444',
      cardExpiryMonth: 12,
      cardExpiryYear: Number(FUTURE_EXPIRY_YEAR),
      anchorDate: today,
      period: 1,
      nextChargeOn: chargeDate(today, 'monthly', 1),
      retryCount: 0,
      isTestPayment: true,
    });
    expect(plan?.nextAttemptAt.toISOString()).toBe(`${chargeDate(today, 'monthly', 1)}T00:00:00.000Z`);
    // NOTE: a token of the test gateway's vault: never the card number.
    expect(plan?.paymentMethodId).toMatch(/^pm_test_/);
    expect(JSON.stringify(plan)).not.toContain('5555555555554444');
    const [first] = await t.db.select().from(donations).where(eq(donations.id, plan?.firstDonationId ?? ''));
    expect(first).toMatchObject({ status: 'succeeded', recurringPlanId: plan?.id, recurringPeriod: 0, recurringAttempt: 1 });
  });

  it('made through create-payment-intent and confirm-donation (test mode), creates its plan too', async () => {
    const submission = validSubmission({ amount: 30, frequency: 'monthly' });
    const { amount, creditCard: _card, ...details } = submission;
    const csrf = await t.csrf();
    const post = (url: string, payload: object) =>
      t.app.inject({ method: 'POST', url, headers: { cookie: csrf.cookie, [CSRF_HEADER_NAME]: csrf.token }, payload });
    const created = await post(API_PATHS.createPaymentIntent, { amount, donation: details });
    const { paymentIntentId } = CreatePaymentIntentSuccessSchema.parse(created.json()).data;
    const confirmed = await post(API_PATHS.confirmDonation, { paymentIntentId, donationData: submission });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toMatchObject({ data: { recurring: { frequency: 'monthly' } } });
    expect(await plans()).toMatchObject([{ status: 'active', amountCents: 3000, cardLast4: '4242', paymentMethodId: expect.stringMatching(/^pm_test_/) }]);
  });

  it('a yearly gift renews a year later', async () => {
    const today = toIsoDate(new Date());
    await t.postDonation(validSubmission({ frequency: 'yearly' }));
    const [plan] = await plans();
    expect(plan).toMatchObject({ frequency: 'yearly', nextChargeOn: chargeDate(today, 'yearly', 1) });
  });

  it('a one-time gift, a declined monthly gift, and a replayed request create no plan (or no second one)', async () => {
    expect((await t.postDonation(validSubmission({ frequency: 'one-time' }))).json().data).not.toHaveProperty('recurring');
    expect(await t.postDonation(validSubmission({ frequency: 'monthly' }, { number: '4000000000009995' }))).toMatchObject({ statusCode: 402 });
    expect(await plans()).toHaveLength(0);
    await t.postDonation(validSubmission({ frequency: 'monthly' }), undefined, 'key-1');
    const replay = await t.postDonation(validSubmission({ frequency: 'monthly' }), undefined, 'key-1');
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(await plans()).toHaveLength(1);
  });

  it('is one transaction with the success: a plan that cannot be written leaves the donation pending, without receipt', async () => {
    const [pending] = await t.db
      .insert(donations)
      .values({ amountCents: 3000, frequency: 'monthly', cause: 'research-science', donorName: 'Ana Reef', donorEmail: 'ana@example.org', gateway: 'test', isTestPayment: true })
      .returning({ id: donations.id });
    const donationId = pending?.id ?? '';
    const outcome = { transactionId: 'ch_test_atomic', cardBrand: 'visa' as const, last4: '4242', isTestPayment: true };
    // NOTE: a last4 that is not 4 digits breaks the plan's CHECK constraint, after the donation was marked succeeded.
    const broken = { paymentMethodId: 'pm_test_x', customerId: undefined, cardBrand: 'visa' as const, last4: 'xxxx', expiryMonth: 12, expiryYear: 2030 };
    const answer = { statusCode: 200, body: {} };
    await expect(markSucceededAndStartPlan(t.db, donationId, outcome, answer, { saved: broken, gateway: 'test', now: new Date() })).rejects.toThrow();
    const [row] = await t.db.select().from(donations).where(eq(donations.id, donationId));
    expect(row?.status).toBe('pending');
    expect(await t.db.select().from(receipts)).toHaveLength(0);
    expect(await plans()).toHaveLength(0);
  });
});
