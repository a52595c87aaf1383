import { and, asc, eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS, CreatePaymentIntentSuccessSchema } from '../../src/shared/api';
import { MANAGE_CONFIRM_PAYMENT_API_PATH } from '../../src/shared/recurring';
import { ManagedPlanAnswerSchema, PAYMENT_NOT_CONFIRMED_MESSAGE, type PaymentToConfirm } from '../../src/shared/recurring-api';
import { donations, mailOutbox, receipts, type RecurringPlanRow } from '../../src/server/db/schema';
import { manualClock } from '../../src/server/platform/clock';
import type { PaymentGateway } from '../../src/server/payments/gateway';
import { runBilling, type BillingReport } from '../../src/server/recurring/billing';
import { chargeDate, toIsoDate } from '../../src/server/recurring/calendar';
import { cardlessDetails, validSubmission, type TestApp } from '../../src/server/testing/test-app';
import type { StripeApiStandIn } from '../stand-ins/stripe-api/index.js';
import { firstPlan, managePlanPath, manageTokenOf, updateCardOnPage } from './recurring-helpers';
import { confirmInBrowser, useStripeModeApp } from './stripe-mode';

/**
 * Issue #13, Stripe mode: a renewal the donor's bank wants authenticated (`authentication_required`) is confirmed by
 * the donor on the manage page (Stripe.js confirms the declined intent on-session with the saved card,
 * https://docs.stripe.com/payments/save-and-reuse), and recorded once whoever learns of it first (the webhook, the
 * page's POST, the billing runner's retry), while the retry never charges the period a second time (decision 0046).
 * Against the Stripe API stand-in; the donor's card is Stripe's 4000 0027 6000 3184 (3-D Secure on every payment).
 */

const WEBHOOK_SECRET = 'whsec_test_reef_donations_renewal_authentication';
const ALWAYS_3DS_CARD = '4000002760003184';
const clock = manualClock();
const app = useStripeModeApp({ webhookSecret: WEBHOOK_SECRET, clock });
let standIn: StripeApiStandIn;
let t: TestApp;
let stripe: Stripe;

beforeAll(() => {
  ({ standIn, t, stripe } = app);
});

/** A $30 monthly gift paid with a card whose bank asks for 3-D Secure every time: the donor authenticates the first payment in the browser. */
async function giveMonthly(): Promise<RecurringPlanRow> {
  const submission = validSubmission({ amount: 30, frequency: 'monthly' });
  const created = await app.post(API_PATHS.createPaymentIntent, { amount: submission.amount, donation: cardlessDetails(submission) });
  const { paymentIntentId, clientSecret } = CreatePaymentIntentSuccessSchema.parse(created.json()).data;
  await confirmInBrowser(standIn, paymentIntentId, clientSecret, ALWAYS_3DS_CARD);
  standIn.authenticate(paymentIntentId, 'complete');
  const confirmed = await app.post(API_PATHS.confirmDonation, { paymentIntentId, donationData: { ...cardlessDetails(submission), amount: submission.amount } });
  expect(confirmed.statusCode).toBe(200);
  const plan = await firstPlan(t);
  if (!plan) throw new Error('no plan');
  return plan;
}

/** The tries of `plan`'s `period`, oldest first. */
const triesOf = (plan: RecurringPlanRow, period: number) =>
  t.db
    .select()
    .from(donations)
    .where(and(eq(donations.recurringPlanId, plan.id), eq(donations.recurringPeriod, period)))
    .orderBy(asc(donations.recurringAttempt));

/** The plan's renewal of period 1 comes due: billing declines it `authentication_required` (one failed try, past due). */
async function renewalNeedsAuthentication(plan: RecurringPlanRow) {
  clock.set(new Date(`${plan.nextChargeOn}T00:00:00Z`));
  expect(await t.app.billing.run()).toEqual({ charged: 0, failed: 1, skipped: 0 });
  const [renewal] = await triesOf(plan, 1);
  expect(renewal).toMatchObject({ status: 'failed', declineCode: 'authentication_required', paymentIntentId: expect.stringMatching(/^pi_/) });
  const pastDue = await firstPlan(t);
  expect(pastDue).toMatchObject({ status: 'past_due', period: 1 });
  return { renewal: renewal as NonNullable<typeof renewal>, pastDue: pastDue as RecurringPlanRow };
}

/** GET the manage page's view of the plan (what the page loads). */
async function view(token: string) {
  const answer = await t.app.inject({ method: 'GET', url: managePlanPath(token) });
  expect(answer.statusCode).toBe(200);
  return ManagedPlanAnswerSchema.parse(answer.json()).data;
}

/** The payment the page offers to confirm (fails when it offers none). */
async function offered(token: string): Promise<PaymentToConfirm> {
  const { paymentToConfirm } = await view(token);
  if (!paymentToConfirm) throw new Error('the page offers no payment to confirm');
  return paymentToConfirm;
}

/**
 * What Stripe.js does on the manage page (`stripe.confirmPayment` with the client secret and the saved card): confirms
 * the intent with the publishable key, then the donor answers the bank's 3-D Secure challenge (`outcome`). Resolves
 * with the stand-in's HTTP status of the confirmation and the intent's status afterwards.
 */
async function confirmOnPage(payment: PaymentToConfirm, outcome: 'complete' | 'fail' = 'complete') {
  const id = payment.clientSecret.split('_secret_')[0] ?? '';
  const body = new URLSearchParams({ key: standIn.publishableKey, client_secret: payment.clientSecret, payment_method: payment.paymentMethodId, use_stripe_sdk: 'true' });
  const confirmed = await fetch(`${standIn.url}/v1/payment_intents/${id}/confirm`, { method: 'POST', body });
  const { status } = (await confirmed.json()) as { status?: string };
  if (confirmed.ok && status === 'requires_action') standIn.authenticate(id, outcome);
  return { httpStatus: confirmed.status, intentStatus: (await stripe.paymentIntents.retrieve(id)).status };
}

/** Delivers the stand-in's `payment_intent.succeeded` event of intent `id` to our webhook, `times` at once; resolves with the statuses. */
const deliverSucceeded = (id: string, times = 1) => app.deliverEvent('payment_intent.succeeded', id, times);

/** The page's POST once Stripe.js confirmed the payment. */
const postConfirmed = (token: string) => app.post(MANAGE_CONFIRM_PAYMENT_API_PATH.replace(':token', token), {});

/** Receipts issued so far (the first gift's and each renewal's), and the receipt e-mails queued. */
async function receiptCounts() {
  return { receipts: (await t.db.select().from(receipts)).length, mails: (await t.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'receipt'))).length };
}

/** Succeeded charges of the plan's Stripe Customer (the first gift's and the renewals'). */
const succeededCharges = (plan: RecurringPlanRow) => standIn.charges.filter((charge) => charge.customer === plan.customerId && charge.status === 'succeeded');

/** The plan once its period 1 is paid: active on period 2, no dunning left. */
function expectPaidThrough(plan: RecurringPlanRow | undefined, anchor: RecurringPlanRow) {
  expect(plan).toMatchObject({ status: 'active', period: 2, nextChargeOn: chargeDate(anchor.anchorDate, 'monthly', 2), retryCount: 0, pastDueSince: null, lockedUntil: null });
}

/**
 * The donor's payment of period 1 is its one charge, recorded once: the one try succeeded, the plan paid through it,
 * the webhook arriving after it changes nothing, two charges in all (the first gift's and this one), two receipts.
 */
async function expectDonorPaymentRecordedOnce(plan: RecurringPlanRow, renewal: { paymentIntentId: string | null }) {
  expect((await triesOf(plan, 1)).map((renewalTry) => renewalTry.status)).toEqual(['succeeded']);
  expectPaidThrough(await firstPlan(t), plan);
  expect(await deliverSucceeded(renewal.paymentIntentId ?? '')).toEqual([200]);
  expect(succeededCharges(plan)).toHaveLength(2);
  expect(await receiptCounts()).toEqual({ receipts: 2, mails: 2 });
}

/** A billing run of the app's database through `gateway` (the stand-in's, with a donor's action slipped in between two calls). */
const runBillingThrough = (gateway: PaymentGateway): Promise<BillingReport> =>
  runBilling({ db: t.db, gateway, log: t.app.log, retryDays: t.config.billing.retryDays }, clock.now());

describe('a renewal the donor confirms on the manage page (authentication_required)', () => {
  it('is offered by the manage view, which changes nothing; the donor confirms; the webhook delivered twice records it once; the POST and the retry after it charge nothing', async () => {
    const plan = await giveMonthly();
    const { renewal, pastDue } = await renewalNeedsAuthentication(plan);
    const mails = await t.db.select({ kind: mailOutbox.kind }).from(mailOutbox).where(eq(mailOutbox.recurringPlanId, plan.id));
    expect(mails.map((mail) => mail.kind)).toEqual(['renewal_needs_authentication']);
    const token = await manageTokenOf(t, clock);

    const intent = standIn.paymentIntents.find((candidate) => candidate.id === renewal.paymentIntentId);
    const page = await view(token);
    expect(page).toMatchObject({ status: 'past_due', paymentToConfirm: { clientSecret: intent?.client_secret, amount: 30, paymentMethodId: plan.paymentMethodId, dueOn: plan.nextChargeOn } });
    // Opening the link changes nothing (mail scanners follow links): the plan, the ledger, the outbox, the intent.
    await view(token);
    expect(await firstPlan(t)).toEqual(pastDue);
    expect(await triesOf(plan, 1)).toEqual([renewal]);
    expect((await t.db.select().from(mailOutbox)).length).toBe(mails.length + 1);
    expect(standIn.paymentIntents.find((candidate) => candidate.id === renewal.paymentIntentId)?.status).toBe('requires_payment_method');

    expect(await confirmOnPage(await offered(token))).toEqual({ httpStatus: 200, intentStatus: 'succeeded' });
    expect(await deliverSucceeded(renewal.paymentIntentId ?? '', 2)).toEqual([200, 200]);

    const [paid, ...others] = await triesOf(plan, 1);
    expect(others).toEqual([]);
    expect(paid).toMatchObject({ id: renewal.id, status: 'succeeded', cardLast4: '3184', gatewayTransactionId: expect.stringMatching(/^(ch|py)_/) });
    expectPaidThrough(await firstPlan(t), plan);
    expect(await receiptCounts()).toEqual({ receipts: 2, mails: 2 });
    expect((await view(token)).paymentToConfirm).toBeNull();

    // The page's POST after the webhook: the renewal is recorded already.
    const posted = await postConfirmed(token);
    expect(posted.statusCode).toBe(200);
    expect(posted.json()).toMatchObject({ data: { status: 'active', paymentToConfirm: null } });
    // The retry that was scheduled for the period finds nothing due and creates no payment intent.
    const intents = standIn.paymentIntents.length;
    clock.set(pastDue.nextAttemptAt);
    expect(await t.app.billing.run()).toEqual({ charged: 0, failed: 0, skipped: 0 });
    expect(standIn.paymentIntents).toHaveLength(intents);
    expect(succeededCharges(plan)).toHaveLength(2);
    expect(await receiptCounts()).toEqual({ receipts: 2, mails: 2 });
  });

  it("is recorded by the page's POST, which asks Stripe and never the browser: 409 until the donor has authenticated; the later webhook changes nothing", async () => {
    const plan = await giveMonthly();
    const { renewal } = await renewalNeedsAuthentication(plan);
    const token = await manageTokenOf(t, clock);

    const early = await postConfirmed(token);
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ success: false, error: PAYMENT_NOT_CONFIRMED_MESSAGE });
    // The bank's challenge failed: nothing paid, nothing recorded, and the page still offers the payment.
    const payment = await offered(token);
    expect(await confirmOnPage(payment, 'fail')).toEqual({ httpStatus: 200, intentStatus: 'requires_payment_method' });
    expect((await postConfirmed(token)).statusCode).toBe(409);
    expect(await offered(token)).toEqual(payment);
    expect(await triesOf(plan, 1)).toEqual([renewal]);

    expect(await confirmOnPage(payment)).toEqual({ httpStatus: 200, intentStatus: 'succeeded' });
    const posted = await postConfirmed(token);
    expect(posted.statusCode).toBe(200);
    expect(posted.json()).toMatchObject({ data: { status: 'active', nextChargeOn: chargeDate(plan.anchorDate, 'monthly', 2), paymentToConfirm: null } });
    expectPaidThrough(await firstPlan(t), plan);
    expect(await deliverSucceeded(renewal.paymentIntentId ?? '')).toEqual([200]);
    expect((await triesOf(plan, 1)).map((renewalTry) => renewalTry.status)).toEqual(['succeeded']);
    expect(await receiptCounts()).toEqual({ receipts: 2, mails: 2 });
    // The POST needs the page's CSRF credentials, as every write of the page.
    expect((await t.app.inject({ method: 'POST', url: MANAGE_CONFIRM_PAYMENT_API_PATH.replace(':token', token), payload: {} })).statusCode).toBe(403);
  });

  it("the webhook and the page's POST arriving at once record it once", async () => {
    const plan = await giveMonthly();
    const { renewal } = await renewalNeedsAuthentication(plan);
    const token = await manageTokenOf(t, clock);
    expect(await confirmOnPage(await offered(token))).toEqual({ httpStatus: 200, intentStatus: 'succeeded' });
    const [webhook, posted] = await Promise.all([deliverSucceeded(renewal.paymentIntentId ?? '', 2), postConfirmed(token)]);
    expect(webhook).toEqual([200, 200]);
    expect(posted.statusCode).toBe(200);
    expect((await triesOf(plan, 1)).map((renewalTry) => renewalTry.status)).toEqual(['succeeded']);
    expectPaidThrough(await firstPlan(t), plan);
    expect(await receiptCounts()).toEqual({ receipts: 2, mails: 2 });
  });

  it('paid by the donor before the webhook or the page said so: the retry records the payment and charges nothing', async () => {
    const plan = await giveMonthly();
    const { renewal, pastDue } = await renewalNeedsAuthentication(plan);
    const token = await manageTokenOf(t, clock);
    expect(await confirmOnPage(await offered(token))).toEqual({ httpStatus: 200, intentStatus: 'succeeded' });

    const intents = standIn.paymentIntents.length;
    clock.set(pastDue.nextAttemptAt);
    expect(await t.app.billing.run()).toEqual({ charged: 1, failed: 0, skipped: 0 });
    expect(standIn.paymentIntents).toHaveLength(intents);
    await expectDonorPaymentRecordedOnce(plan, renewal);
  });
});

describe('the donor confirming while the retry runs: the period is charged once', () => {
  it('the donor pays between the runner reading the intent and cancelling it: the runner records the donor\'s payment and charges nothing', async () => {
    const plan = await giveMonthly();
    const { renewal, pastDue } = await renewalNeedsAuthentication(plan);
    const payment = await offered(await manageTokenOf(t, clock));
    const intents = standIn.paymentIntents.length;
    let donor: Awaited<ReturnType<typeof confirmOnPage>> | undefined;
    const gateway: PaymentGateway = {
      ...t.gateway,
      async retrievePaymentIntent(id) {
        const read = await t.gateway.retrievePaymentIntent(id);
        // The donor's confirmation lands right after the runner read the intent (still waiting for the donor).
        if (id === renewal.paymentIntentId && !donor) donor = await confirmOnPage(payment);
        return read;
      },
    };

    clock.set(pastDue.nextAttemptAt);
    expect(await runBillingThrough(gateway)).toEqual({ charged: 1, failed: 0, skipped: 0 });
    expect(donor).toEqual({ httpStatus: 200, intentStatus: 'succeeded' });
    expect(standIn.requests.some((request) => request.path === `/v1/payment_intents/${renewal.paymentIntentId}/cancel` && request.status === 400), 'the cancel came too late').toBe(true);
    expect(standIn.paymentIntents).toHaveLength(intents);
    await expectDonorPaymentRecordedOnce(plan, renewal);
  });

  it("the runner cancels the donor's intent first: the page open on it cannot pay any more, and the retry charges the donor's new card once", async () => {
    const plan = await giveMonthly();
    const { renewal, pastDue } = await renewalNeedsAuthentication(plan);
    const token = await manageTokenOf(t, clock);
    const stale = await offered(token);
    expect((await updateCardOnPage(app, token, '5555555555554444')).answer.statusCode).toBe(200);
    let donor: Awaited<ReturnType<typeof confirmOnPage>> | undefined;
    const gateway: PaymentGateway = {
      ...t.gateway,
      async cancelPaymentIntent(id) {
        const canceled = await t.gateway.cancelPaymentIntent(id);
        // The donor's confirmation, from a page opened before the retry, lands right after the cancel.
        donor = await confirmOnPage(stale);
        return canceled;
      },
    };

    clock.set(pastDue.nextAttemptAt);
    expect(await runBillingThrough(gateway)).toEqual({ charged: 1, failed: 0, skipped: 0 });
    expect(donor).toEqual({ httpStatus: 400, intentStatus: 'canceled' });
    const tries = await triesOf(plan, 1);
    expect(tries.map((renewalTry) => [renewalTry.status, renewalTry.cardLast4])).toEqual([['failed', '3184'], ['succeeded', '4444']]);
    expectPaidThrough(await firstPlan(t), plan);
    expect(succeededCharges(plan), 'the first gift and one renewal').toHaveLength(2);
    expect(standIn.charges.filter((charge) => charge.status === 'succeeded' && charge.payment_method_details?.card?.last4 === '4444')).toHaveLength(1);
    expect(await receiptCounts()).toEqual({ receipts: 2, mails: 2 });
    expect((await view(token)).paymentToConfirm).toBeNull();
    expect(renewal.paymentIntentId).toBe(stale.clientSecret.split('_secret_')[0]);
  });

  it("a retry the bank again wants authenticated cancels the old intent and offers the new one; the old one's page cannot pay", async () => {
    const plan = await giveMonthly();
    const { renewal, pastDue } = await renewalNeedsAuthentication(plan);
    const token = await manageTokenOf(t, clock);
    const stale = await offered(token);

    clock.set(pastDue.nextAttemptAt);
    expect(await t.app.billing.run()).toEqual({ charged: 0, failed: 1, skipped: 0 });
    const [first, second] = await triesOf(plan, 1);
    expect(first).toMatchObject({ id: renewal.id, status: 'failed' });
    expect(second).toMatchObject({ status: 'failed', declineCode: 'authentication_required', paymentIntentId: expect.stringMatching(/^pi_/) });
    expect(second?.paymentIntentId).not.toBe(renewal.paymentIntentId);
    expect(await confirmOnPage(stale)).toEqual({ httpStatus: 400, intentStatus: 'canceled' });

    const fresh = await offered(token);
    expect(fresh.clientSecret.startsWith(`${second?.paymentIntentId}_secret_`)).toBe(true);
    expect(await confirmOnPage(fresh)).toEqual({ httpStatus: 200, intentStatus: 'succeeded' });
    expect((await postConfirmed(token)).statusCode).toBe(200);
    expect((await triesOf(plan, 1)).map((renewalTry) => renewalTry.status)).toEqual(['failed', 'succeeded']);
    expectPaidThrough(await firstPlan(t), plan);
    expect(succeededCharges(plan)).toHaveLength(2);
  });

  it('cancelling the gift cancels the payment awaiting the donor: a page still open on it cannot pay', async () => {
    const plan = await giveMonthly();
    const { renewal } = await renewalNeedsAuthentication(plan);
    const token = await manageTokenOf(t, clock);
    const stale = await offered(token);
    const cancelled = await app.post(managePlanPath(token), { action: 'cancel' });
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.json()).toMatchObject({ data: { status: 'cancelled', paymentToConfirm: null } });
    expect(standIn.paymentIntents.find((intent) => intent.id === renewal.paymentIntentId)?.status).toBe('canceled');
    expect(await confirmOnPage(stale)).toEqual({ httpStatus: 400, intentStatus: 'canceled' });
    expect(succeededCharges(plan)).toHaveLength(1);
  });

  it('paying the period left behind keeps a pause until a date: the plan moves on to its next period, still paused', async () => {
    const plan = await giveMonthly();
    await renewalNeedsAuthentication(plan);
    const token = await manageTokenOf(t, clock);
    const payment = await offered(token);
    const until = toIsoDate(new Date(clock.now().getTime() + 120 * 24 * 60 * 60 * 1000));
    expect((await app.post(managePlanPath(token), { action: 'pause', until })).statusCode).toBe(200);
    expect(await confirmOnPage(payment)).toEqual({ httpStatus: 200, intentStatus: 'succeeded' });
    expect((await postConfirmed(token)).statusCode).toBe(200);
    expect(await firstPlan(t)).toMatchObject({ status: 'paused', pausedUntil: until, period: 2, nextChargeOn: chargeDate(plan.anchorDate, 'monthly', 2) });
    expect(succeededCharges(plan)).toHaveLength(2);
  });

  it('a payment of a period another try already charged is not recorded twice, and the webhook still answers 200', async () => {
    const plan = await giveMonthly();
    const { renewal, pastDue } = await renewalNeedsAuthentication(plan);
    const token = await manageTokenOf(t, clock);
    const stale = await offered(token);
    expect((await updateCardOnPage(app, token, '4242424242424242')).answer.statusCode).toBe(200);
    // A gateway that says it cancelled the intent but did not: the donor's intent stays payable beside the retry.
    const gateway: PaymentGateway = {
      ...t.gateway,
      async cancelPaymentIntent(id) {
        const intent = await t.gateway.retrievePaymentIntent(id);
        return intent && { ...intent, status: 'canceled' };
      },
    };
    clock.set(pastDue.nextAttemptAt);
    expect(await runBillingThrough(gateway)).toEqual({ charged: 1, failed: 0, skipped: 0 });
    expect(await confirmOnPage(stale)).toEqual({ httpStatus: 200, intentStatus: 'succeeded' });

    expect(await deliverSucceeded(renewal.paymentIntentId ?? '')).toEqual([200]);
    const posted = await postConfirmed(token);
    expect(posted.statusCode).toBe(409);
    expect((await triesOf(plan, 1)).map((renewalTry) => [renewalTry.status, renewalTry.cardLast4])).toEqual([['failed', '3184'], ['succeeded', '4242']]);
    expectPaidThrough(await firstPlan(t), plan);
    expect(await receiptCounts()).toEqual({ receipts: 2, mails: 2 });
  });
});
