import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, asc, eq, isNotNull, sql } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { API_PATHS } from '../../shared/api';
import { donations, mailOutbox, receipts, recurringPlans } from '../db/schema';
import { manualClock } from '../platform/clock';
import { ATTACHES_THEN_DECLINES_CARD } from '../payments/test-vault';
import { createTestApp, FUTURE_EXPIRY_YEAR, validSubmission, type TestApp } from '../testing/test-app';
import { MANAGE_PLAN_API_PATH } from '../../shared/recurring';
import { ADMIN_BILLING_RUN_PATH, AS_OF_TEST_ONLY_MESSAGE } from './plugin';
import type { PaymentGateway } from '../payments/gateway';
import { memoryLog } from '../testing/payment-attempts';
import { runBilling } from './billing';
import { applyPlanChange, CHARGE_UNDER_WAY_MAX_MS } from './manage';
import { BILLING_LEASE_MS, cardColumnsOf } from './plans';

/**
 * The billing runner (issue #13) on a manual clock (DESIGN.md, "Time"): a year of monthly renewals in seconds with the
 * month-end dates, a leap-day yearly plan, the operator's run with `asOf`, and dunning (retries after 1, 3 and 7 days,
 * then the pause, with the e-mails), a card updated while past due charged at the next retry.
 */

const ADMIN_TOKEN = 'billing-test-admin-token-0123456789abcdef';
const clock = manualClock(new Date('2027-01-31T15:00:00Z'));
let t: TestApp;
let mailDir: string;
beforeAll(async () => {
  mailDir = await mkdtemp(path.join(tmpdir(), 'billing-mail-'));
  t = await createTestApp({ clock, env: { ADMIN_TOKEN, MAIL_DIR: mailDir, PUBLIC_URL: 'https://give.example.org' } });
});
afterAll(async () => {
  await t?.close();
  await rm(mailDir, { recursive: true, force: true });
});
beforeEach(async () => {
  await t.reset();
  for (const file of await readdir(mailDir)) await rm(path.join(mailDir, file));
});

/** Gives `amount` dollars `frequency` at `instant` (the clock set there) and returns the plan it created. */
async function startPlan(instant: string, frequency: 'monthly' | 'yearly' = 'monthly', amount = 30) {
  clock.set(new Date(instant));
  const answer = await t.postDonation(validSubmission({ amount, frequency }));
  expect(answer.statusCode).toBe(200);
  const [plan] = await t.db.select().from(recurringPlans).orderBy(asc(recurringPlans.createdAt));
  if (!plan) throw new Error('no plan');
  return plan;
}

/** Runs billing at `instant` (the clock set there). */
const runAt = (instant: string) => {
  clock.set(new Date(instant));
  return t.app.billing.run();
};

/** The plan as stored now. */
const planNow = async (id: string) => (await t.db.select().from(recurringPlans).where(eq(recurringPlans.id, id)))[0];

/** The renewals of a plan (periods 1...), in order: period, attempt, status. */
const renewals = (planId: string) =>
  t.db
    .select({ period: donations.recurringPeriod, attempt: donations.recurringAttempt, status: donations.status, amountCents: donations.amountCents })
    .from(donations)
    .where(and(eq(donations.recurringPlanId, planId)))
    .orderBy(asc(donations.recurringPeriod), asc(donations.recurringAttempt));

/** Saves `number` with the test gateway and puts it on the plan, as the donor's card update does. */
async function putCard(planId: string, number: string) {
  const saved = await t.gateway.savePaymentMethod({ number, expiryMonth: 12, expiryYear: Number(FUTURE_EXPIRY_YEAR), cvc: '123' });
  if (saved.status !== 'saved') throw new Error('card not saved');
  await t.db.update(recurringPlans).set(cardColumnsOf(saved.paymentMethod)).where(eq(recurringPlans.id, planId));
}

describe('a year of monthly renewals', () => {
  it('charges each month once, on the first charge day or the month last day (Jan 31 -> Feb 28 -> Mar 31...), each a donation with its receipt', async () => {
    const plan = await startPlan('2027-01-31T15:00:00Z');
    const expected = ['2027-02-28', '2027-03-31', '2027-04-30', '2027-05-31', '2027-06-30', '2027-07-31', '2027-08-31', '2027-09-30', '2027-10-31', '2027-11-30', '2027-12-31', '2028-01-31'];
    let previous = '2027-01-31';
    for (const [index, date] of expected.entries()) {
      expect((await planNow(plan.id))?.nextChargeOn).toBe(date);
      // The day before (the last millisecond of it, UTC): nothing is due.
      const eve = new Date(new Date(`${date}T00:00:00Z`).getTime() - 1).toISOString();
      expect(await runAt(eve), `${date} eve`).toEqual({ charged: 0, failed: 0, skipped: 0 });
      expect(await runAt(`${date}T00:00:00Z`), date).toEqual({ charged: 1, failed: 0, skipped: 0 });
      // Run again the same day: charged already.
      expect(await runAt(`${date}T09:00:00Z`)).toEqual({ charged: 0, failed: 0, skipped: 0 });
      expect((await planNow(plan.id))?.period).toBe(index + 2);
      expect(previous < date).toBe(true);
      previous = date;
    }
    expect(await renewals(plan.id)).toEqual(
      Array.from({ length: 13 }, (_, period) => ({ period, attempt: 1, status: 'succeeded', amountCents: 3000 })),
    );
    expect(await t.db.select().from(receipts)).toHaveLength(13);
    const stats = await t.app.inject({ method: 'GET', url: API_PATHS.donationStats });
    expect(stats.json()).toMatchObject({ totalRaised: 390, donationCount: 13, donorCount: 1 });
    expect(t.gateway.calls).toBe(1);
  });

  it('a yearly gift made on a leap day renews on Feb 28 in common years and Feb 29 in leap years', async () => {
    const plan = await startPlan('2028-02-29T12:00:00Z', 'yearly');
    for (const date of ['2029-02-28', '2030-02-28', '2031-02-28', '2032-02-29']) {
      expect(await runAt(`${date}T00:00:00Z`), date).toEqual({ charged: 1, failed: 0, skipped: 0 });
    }
    expect(await runAt('2033-02-27T23:00:00Z')).toEqual({ charged: 0, failed: 0, skipped: 0 });
    expect((await planNow(plan.id))?.nextChargeOn).toBe('2033-02-28');
  });

  it('a plan behind by several periods catches up one period per run, none skipped nor charged twice', async () => {
    const plan = await startPlan('2027-01-31T15:00:00Z');
    for (let run = 0; run < 3; run += 1) expect(await runAt('2027-04-30T12:00:00Z')).toEqual({ charged: 1, failed: 0, skipped: 0 });
    expect(await runAt('2027-04-30T12:00:00Z')).toEqual({ charged: 0, failed: 0, skipped: 0 });
    expect((await renewals(plan.id)).map((row) => row.period)).toEqual([0, 1, 2, 3]);
  });
});

describe('POST /api/admin/billing/run', () => {
  const post = (payload: unknown, token: string | null = ADMIN_TOKEN) =>
    t.app.inject({ method: 'POST', url: ADMIN_BILLING_RUN_PATH, headers: token ? { authorization: `Bearer ${token}` } : {}, payload: payload as object });

  it('runs billing as of `asOf` with the test gateway and answers {charged, failed, skipped}; needs the admin token', async () => {
    await startPlan('2027-01-31T15:00:00Z');
    clock.set(new Date('2027-02-01T00:00:00Z'));
    expect((await post({ asOf: '2027-03-01T00:00:00Z' }, null)).statusCode).toBe(401);
    expect((await post({ asOf: '2027-03-01T00:00:00Z' }, 'wrong-token-wrong-token-wrong-token')).statusCode).toBe(401);
    expect((await post({ asOf: 'next month' })).statusCode).toBe(400);
    const run = await post({ asOf: '2027-03-01T00:00:00+00:00' });
    expect(run.statusCode).toBe(200);
    expect(run.json()).toEqual({ charged: 1, failed: 0, skipped: 0 });
    expect((await post({})).json()).toEqual({ charged: 0, failed: 0, skipped: 0 });
  });

  it('refuses `asOf` with a gateway that moves real money', async () => {
    const stripeLike = await createTestApp({ env: { ADMIN_TOKEN }, gateway: { ...t.gateway, name: 'stripe' } });
    try {
      const run = await stripeLike.app.inject({ method: 'POST', url: ADMIN_BILLING_RUN_PATH, headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, payload: { asOf: '2030-01-01T00:00:00Z' } });
      expect(run.statusCode).toBe(400);
      expect(run.json()).toMatchObject({ fieldErrors: { asOf: AS_OF_TEST_ONLY_MESSAGE } });
    } finally {
      await stripeLike.close();
    }
  });
});

describe('dunning', () => {
  /** Kinds of the plan's messages in the outbox, in order. */
  const planMail = async () =>
    (await t.db.select({ kind: mailOutbox.kind }).from(mailOutbox).where(isNotNull(mailOutbox.recurringPlanId)).orderBy(asc(mailOutbox.createdAt))).map((row) => row.kind);

  it('retries a declined renewal 1, 3 and 7 days after the first decline, past due meanwhile, then pauses; e-mails at the first failure and at the pause, with the manage link', async () => {
    const plan = await startPlan('2027-01-31T15:00:00Z');
    await putCard(plan.id, ATTACHES_THEN_DECLINES_CARD);
    expect(await runAt('2027-02-28T00:00:00Z')).toEqual({ charged: 0, failed: 1, skipped: 0 });
    expect(await planNow(plan.id)).toMatchObject({ status: 'past_due', retryCount: 1, period: 1 });
    expect(await planMail()).toEqual(['renewal_failed']);
    for (const [day, retryAt] of [[1, '2027-03-01T00:00:00Z'], [3, '2027-03-03T00:00:00Z'], [7, '2027-03-07T00:00:00Z']] as const) {
      const before = new Date(new Date(retryAt).getTime() - 1).toISOString();
      expect(await runAt(before), `before day ${day}`).toEqual({ charged: 0, failed: 0, skipped: 0 });
      expect(await runAt(retryAt), `day ${day}`).toEqual({ charged: 0, failed: 1, skipped: 0 });
    }
    expect(await planNow(plan.id)).toMatchObject({ status: 'paused', pastDueSince: null });
    expect(await planMail()).toEqual(['renewal_failed', 'plan_paused']);
    expect((await renewals(plan.id)).slice(1)).toEqual([1, 2, 3, 4].map((attempt) => ({ period: 1, attempt, status: 'failed', amountCents: 3000 })));
    // Paused: nothing more is charged, a month later or a year later.
    expect(await runAt('2027-04-30T00:00:00Z')).toEqual({ charged: 0, failed: 0, skipped: 0 });
    expect(await runAt('2028-04-30T00:00:00Z')).toEqual({ charged: 0, failed: 0, skipped: 0 });

    expect(await t.app.mail.relayDue()).toMatchObject({ sent: 3, failed: 0 });
    const files = (await readdir(mailDir)).filter((file) => file.includes('renewal_failed') || file.includes('plan_paused')).sort();
    expect(files).toHaveLength(2);
    for (const file of files) {
      const mail = await simpleParser(await readFile(path.join(mailDir, file)));
      expect(mail.to).toMatchObject({ text: 'ana@example.org' });
      expect(mail.subject).toMatch(/^Your \$30\.00 USD monthly gift (could not be charged|is paused)$/);
      expect(mail.html).toMatch(/https:\/\/give\.example\.org\/donate\/manage\/[\w-]+\.\d+\.[\w-]{32}/);
      expect(mail.text).toContain('Visa ending in 0341');
    }
  });

  it('charges a card updated while past due at the next retry, and the plan is active again on its calendar', async () => {
    const plan = await startPlan('2027-01-31T15:00:00Z');
    await putCard(plan.id, ATTACHES_THEN_DECLINES_CARD);
    expect(await runAt('2027-02-28T00:00:00Z')).toMatchObject({ failed: 1 });
    await putCard(plan.id, '5555555555554444');
    expect(await runAt('2027-03-01T00:00:00Z')).toEqual({ charged: 1, failed: 0, skipped: 0 });
    expect(await planNow(plan.id)).toMatchObject({ status: 'active', retryCount: 0, pastDueSince: null, period: 2, nextChargeOn: '2027-03-31', cardLast4: '4444' });
    expect((await renewals(plan.id)).slice(1)).toEqual([
      { period: 1, attempt: 1, status: 'failed', amountCents: 3000 },
      { period: 1, attempt: 2, status: 'succeeded', amountCents: 3000 },
    ]);
    expect(await runAt('2027-03-31T00:00:00Z')).toEqual({ charged: 1, failed: 0, skipped: 0 });
  });
});

describe('receipts of a plan', () => {
  /** The receipt e-mails in MAIL_DIR, parsed, in the order of their receipt numbers. */
  const receiptMails = async () => {
    const files = (await readdir(mailDir)).filter((file) => file.includes('-receipt-')).sort();
    const mails = await Promise.all(files.map(async (file) => simpleParser(await readFile(path.join(mailDir, file)))));
    // NOTE: by receipt number (in the subject): two files written in one second sort by their random ids.
    return mails.sort((a, b) => (a.subject ?? '').localeCompare(b.subject ?? ''));
  };

  it('say the gift is recurring and when the next charge is, and carry the manage link, first gift and renewals alike', async () => {
    await startPlan('2027-01-31T15:00:00Z');
    await t.app.mail.relayDue();
    expect(await runAt('2027-02-28T00:00:00Z')).toMatchObject({ charged: 1 });
    await t.app.mail.relayDue();
    const [first, renewal] = await receiptMails();
    expect(first?.text).toMatch(/^Next charge: 28 February 2027 \(recurring gift\)$/m);
    expect(renewal?.text).toMatch(/^Next charge: 31 March 2027 \(recurring gift\)$/m);
    for (const mail of [first, renewal]) {
      const link = /https:\/\/give\.example\.org\/donate\/manage\/([\w.-]+)/.exec(mail?.html || '')?.[1] ?? '';
      const plan = await t.app.inject({ method: 'GET', url: MANAGE_PLAN_API_PATH.replace(':token', link) });
      expect(plan.statusCode).toBe(200);
      expect(plan.json()).toMatchObject({ data: { amount: 30, frequency: 'monthly' } });
    }
  });
});

describe('a saved card about to expire', () => {
  it('gets its donor one reminder with the manage link, 30 days before the end of its expiry month', async () => {
    const plan = await startPlan('2027-01-31T15:00:00Z');
    await t.db.update(recurringPlans).set({ cardExpiryMonth: 6, cardExpiryYear: 2027 }).where(eq(recurringPlans.id, plan.id));
    const reminders = async () => (await t.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'card_expiring'))).length;
    await runAt('2027-05-31T23:59:59Z');
    expect(await reminders()).toBe(0);
    await runAt('2027-06-01T00:00:00Z');
    await runAt('2027-06-15T00:00:00Z');
    expect(await reminders()).toBe(1);
    expect(await t.app.mail.relayDue()).toMatchObject({ failed: 0 });
    const [mail] = await Promise.all(
      (await readdir(mailDir)).filter((file) => file.includes('card_expiring')).map(async (file) => simpleParser(await readFile(path.join(mailDir, file)))),
    );
    expect(mail?.subject).toBe('The card of your $30.00 USD monthly gift expires soon');
    expect(mail?.html).toMatch(/\/donate\/manage\/[\w-]+\.\d+\.[\w-]{32}/);
  });
});

describe('a donor changing a plan while a billing run is under way', () => {
  /** Runs billing at `instant` through `gateway` (the app's test gateway, with a test's twist). */
  const runThrough = (gateway: PaymentGateway, instant: string) =>
    runBilling({ db: t.db, gateway, log: memoryLog().logger, retryDays: [1, 3, 7] }, new Date(instant));
  const change = (planId: string, planChange: Parameters<typeof applyPlanChange>[2]) =>
    applyPlanChange({ db: t.db, gateway: t.gateway, minAmountCents: 100 }, planId, planChange, clock.now());

  it('a plan cancelled after the run claimed it is not charged (issue #13: "A cancelled plan is never charged again")', async () => {
    clock.set(new Date('2027-01-31T15:00:00Z'));
    for (const donorEmail of ['ana@example.org', 'ben@example.org']) expect((await t.postDonation({ ...validSubmission({ amount: 30, frequency: 'monthly' }), donorEmail })).statusCode).toBe(200);
    const plans = await t.db.select().from(recurringPlans).orderBy(asc(recurringPlans.createdAt));
    expect(plans).toHaveLength(2);
    const charged: string[] = [];
    // While the run charges the first plan it claimed, the other plan's donor cancels it.
    const gateway: PaymentGateway = {
      ...t.gateway,
      async chargeSavedPaymentMethod(request) {
        charged.push(request.idempotencyKey);
        if (charged.length === 1) {
          const other = plans.find((plan) => !request.idempotencyKey.includes(plan.id));
          expect((await change(other?.id ?? '', { action: 'cancel' })).status).toBe('changed');
        }
        return t.gateway.chargeSavedPaymentMethod(request);
      },
    };
    expect(await runThrough(gateway, '2027-02-28T00:00:00Z')).toEqual({ charged: 1, failed: 0, skipped: 1 });
    expect(charged).toHaveLength(1);
    const cancelled = (await t.db.select().from(recurringPlans).where(eq(recurringPlans.status, 'cancelled')))[0];
    expect((await renewals(cancelled?.id ?? '')).map((row) => row.period)).toEqual([0]);
  });

  it('a card changed while its renewal is being charged stays the card the plan shows; the renewal keeps the card it charged', async () => {
    const plan = await startPlan('2027-01-31T15:00:00Z');
    const gateway: PaymentGateway = {
      ...t.gateway,
      async chargeSavedPaymentMethod(request) {
        await putCard(plan.id, '5555555555554444');
        return t.gateway.chargeSavedPaymentMethod(request);
      },
    };
    expect(await runThrough(gateway, '2027-02-28T00:00:00Z')).toEqual({ charged: 1, failed: 0, skipped: 0 });
    const [renewal] = await t.db.select().from(donations).where(and(eq(donations.recurringPlanId, plan.id), eq(donations.recurringPeriod, 1)));
    expect(renewal?.cardLast4).toBe('4242');
    expect(await planNow(plan.id)).toMatchObject({ cardLast4: '4444', period: 2 });
  });

  it('a try left pending for longer than CHARGE_UNDER_WAY_MAX_MS (the gateway failing every time) no longer holds off a cancel', async () => {
    const plan = await startPlan('2027-01-31T15:00:00Z');
    const failing: PaymentGateway = { ...t.gateway, chargeSavedPaymentMethod: () => Promise.reject(new Error('gateway down')) };
    expect(await runThrough(failing, '2027-02-28T00:00:00Z')).toEqual({ charged: 0, failed: 0, skipped: 1 });
    expect((await change(plan.id, { action: 'cancel' })).status).toBe('charge_under_way');
    await t.db
      .update(donations)
      .set({ createdAt: sql`now() - make_interval(secs => ${CHARGE_UNDER_WAY_MAX_MS / 1000 + 1})` })
      .where(and(eq(donations.recurringPlanId, plan.id), eq(donations.recurringPeriod, 1)));
    expect((await change(plan.id, { action: 'cancel' })).status).toBe('changed');
  });

  it('a try whose answer was lost is sent again as it was first sent (amount, cause, card), whatever the donor changed meanwhile, and charged once', async () => {
    const plan = await startPlan('2027-01-31T15:00:00Z');
    // The gateway charges the card, but its answer never reaches the run.
    let lost: Awaited<ReturnType<PaymentGateway['chargeSavedPaymentMethod']>> | undefined;
    const lostAnswer: PaymentGateway = {
      ...t.gateway,
      async chargeSavedPaymentMethod(request) {
        lost = await t.gateway.chargeSavedPaymentMethod(request);
        throw new Error('socket hang up');
      },
    };
    expect(await runThrough(lostAnswer, '2027-02-28T00:00:00Z')).toEqual({ charged: 0, failed: 0, skipped: 1 });
    // Until that try is settled, the donor can change the gift but neither cancel nor pause it: its outcome is unknown.
    for (const action of ['cancel', 'pause'] as const) expect((await change(plan.id, { action })).status, action).toBe('charge_under_way');
    expect((await change(plan.id, { action: 'change_amount', amount: 45 })).status).toBe('changed');
    expect((await change(plan.id, { action: 'change_cause', cause: 'education-outreach' })).status).toBe('changed');
    await putCard(plan.id, '5555555555554444');

    const afterLease = new Date(new Date('2027-02-28T00:00:00Z').getTime() + BILLING_LEASE_MS + 1).toISOString();
    expect(await runThrough(t.gateway, afterLease)).toEqual({ charged: 1, failed: 0, skipped: 0 });
    expect((await change(plan.id, { action: 'pause' })).status).toBe('changed');
    expect((await change(plan.id, { action: 'resume' })).status).toBe('changed');
    // The first charge's answer, replayed by the gateway under the same key: no second charge.
    const [renewal] = await t.db.select().from(donations).where(and(eq(donations.recurringPlanId, plan.id), eq(donations.recurringPeriod, 1)));
    expect(lost?.status === 'succeeded' && renewal?.gatewayTransactionId === lost.transactionId).toBe(true);
    expect(await renewals(plan.id)).toEqual([
      { period: 0, attempt: 1, status: 'succeeded', amountCents: 3000 },
      { period: 1, attempt: 1, status: 'succeeded', amountCents: 3000 },
    ]);
    expect(renewal?.cardLast4).toBe('4242');
    // The plan still shows the donor's new card, which, with the new amount, counts from the next charge.
    expect(await planNow(plan.id)).toMatchObject({ cardLast4: '4444', amountCents: 4500 });
    expect(await runAt('2027-03-31T00:00:00Z')).toEqual({ charged: 1, failed: 0, skipped: 0 });
    expect((await renewals(plan.id)).at(-1)).toMatchObject({ period: 2, amountCents: 4500, status: 'succeeded' });
    expect(await planNow(plan.id)).toMatchObject({ cardLast4: '4444' });
  });
});
