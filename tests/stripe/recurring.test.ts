import { eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS, CreatePaymentIntentSuccessSchema } from '../../src/shared/api';
import { MANAGE_CARD_SETUP_API_PATH } from '../../src/shared/recurring';
import { SETUP_INTENT_NOT_SAVED_MESSAGE } from '../../src/shared/recurring-api';
import { donations, mailOutbox, recurringPlans } from '../../src/server/db/schema';
import { manualClock } from '../../src/server/platform/clock';
import { toIsoDate } from '../../src/server/recurring/calendar';
import { cardlessDetails, validSubmission, type TestApp } from '../../src/server/testing/test-app';
import type { StripeApiStandIn } from '../stand-ins/stripe-api/index.js';
import { browserCard, firstPlan, managePlanPath, manageTokenOf, updateCardOnPage } from './recurring-helpers';
import { confirmInBrowser, useStripeModeApp } from './stripe-mode';

/**
 * Recurring gifts in Stripe mode against the Stripe API stand-in (issue #13): the first payment saves the card on a
 * Stripe Customer (`setup_future_usage: 'off_session'`), the plan names that Customer and PaymentMethod, the billing
 * runner's renewal is an off-session payment intent our server creates and confirms, and a card whose bank asks for
 * authentication (`authentication_required`) leaves the plan past due and e-mails the donor. A donor's new card is
 * saved with a SetupIntent the page confirms with Stripe.js, which the server retrieves from Stripe itself.
 */

const WEBHOOK_SECRET = 'whsec_test_reef_donations_recurring';
const clock = manualClock();
const app = useStripeModeApp({ webhookSecret: WEBHOOK_SECRET, clock });
const { post } = app;
let standIn: StripeApiStandIn;
let t: TestApp;
let stripe: Stripe;

beforeAll(() => {
  ({ standIn, t, stripe } = app);
});

/** A monthly gift paid in the browser (Stripe.js confirms with `cardNumber`); returns the intent and the page's confirmation. */
async function payMonthly(cardNumber: string) {
  const submission = validSubmission({ amount: 30, frequency: 'monthly' });
  const created = await post(API_PATHS.createPaymentIntent, { amount: submission.amount, donation: cardlessDetails(submission) });
  const { paymentIntentId, clientSecret } = CreatePaymentIntentSuccessSchema.parse(created.json()).data;
  await confirmInBrowser(standIn, paymentIntentId, clientSecret, cardNumber);
  return { paymentIntentId, confirm: () => post(API_PATHS.confirmDonation, { paymentIntentId, donationData: { ...cardlessDetails(submission), amount: submission.amount } }) };
}

/** A monthly gift paid in the browser and confirmed by the page; returns the page's answer. */
async function giveMonthly(cardNumber: string) {
  return (await payMonthly(cardNumber)).confirm();
}

/** The one plan. */
const thePlan = () => firstPlan(t);

describe('a monthly gift in Stripe mode', () => {
  it('saves the card on a Stripe Customer with the first payment, and the renewal is an off-session payment intent on it', async () => {
    const confirmed = await giveMonthly('4242424242424242');
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toMatchObject({ data: { amount: 30, recurring: { frequency: 'monthly' } } });
    const plan = await thePlan();
    expect(plan).toMatchObject({ status: 'active', gateway: 'stripe', cardBrand: 'visa', cardLast4: '4242', anchorDate: toIsoDate(clock.now()) });
    expect(plan?.customerId).toMatch(/^cus_/);
    expect(plan?.paymentMethodId).toMatch(/^pm_/);
    const saved = await stripe.customers.listPaymentMethods(plan?.customerId ?? '');
    expect(saved.data.map((method) => method.id)).toContain(plan?.paymentMethodId);

    clock.set(new Date(`${plan?.nextChargeOn}T00:00:00Z`));
    expect(await t.app.billing.run()).toEqual({ charged: 1, failed: 0, skipped: 0 });
    const [renewal] = await t.db.select().from(donations).where(eq(donations.recurringPeriod, 1));
    expect(renewal).toMatchObject({ status: 'succeeded', amountCents: 3000, gateway: 'stripe', cardLast4: '4242' });
    expect(renewal?.gatewayTransactionId).toMatch(/^(ch|py)_/);
    // The same run again charges nothing (the plan moved to its next period; the key would replay anyway).
    expect(await t.app.billing.run()).toEqual({ charged: 0, failed: 0, skipped: 0 });

    // The renewal keeps its off-session payment intent, so Stripe's later events about it find it: its own success
    // changes nothing, and a refund made in Stripe's Dashboard is recorded.
    const paymentIntentId = renewal?.paymentIntentId ?? '';
    expect(paymentIntentId).toMatch(/^pi_/);
    expect(await app.deliverEvent('payment_intent.succeeded', paymentIntentId)).toEqual([200]);
    await stripe.refunds.create({ payment_intent: paymentIntentId, amount: 1000 });
    expect(await app.deliverEvent('refund.created', paymentIntentId)).toEqual([200]);
    expect((await t.db.select().from(donations).where(eq(donations.id, renewal?.id ?? '')))[0]).toMatchObject({ status: 'succeeded', refundedCents: 1000 });
  });

  it('a renewal the bank wants authenticated (authentication_required) charges nothing, keeps its payment intent, leaves the plan past due and asks the donor to confirm', async () => {
    expect((await giveMonthly('4242424242424242')).statusCode).toBe(200);
    const plan = await thePlan();
    // The donor's card becomes one whose bank asks for 3-D Secure on every payment (Stripe's 4000 0027 6000 3184).
    const card = new URLSearchParams({
      key: standIn.publishableKey,
      type: 'card',
      'card[number]': '4000002760003184',
      'card[exp_month]': '12',
      'card[exp_year]': String(new Date().getFullYear() + 2),
      'card[cvc]': '123',
    });
    const method = (await (await fetch(`${standIn.url}/v1/payment_methods`, { method: 'POST', body: card })).json()) as { id: string };
    const attached = await stripe.paymentMethods.attach(method.id, { customer: plan?.customerId ?? '' });
    await t.db.update(recurringPlans).set({ paymentMethodId: attached.id }).where(eq(recurringPlans.id, plan?.id ?? ''));

    clock.set(new Date(`${plan?.nextChargeOn}T00:00:00Z`));
    expect(await t.app.billing.run()).toEqual({ charged: 0, failed: 1, skipped: 0 });
    expect(await thePlan()).toMatchObject({ status: 'past_due', retryCount: 1 });
    const [renewal] = await t.db.select().from(donations).where(eq(donations.recurringPeriod, 1));
    expect(renewal).toMatchObject({ status: 'failed', declineCode: 'authentication_required', paymentIntentId: expect.stringMatching(/^pi_/) });
    expect(standIn.paymentIntents.find((intent) => intent.id === renewal?.paymentIntentId)).toMatchObject({ status: 'requires_payment_method' });
    // One e-mail: the one that asks the donor to confirm on the manage page, not also 'we will try again'.
    const kinds = (await t.db.select({ kind: mailOutbox.kind }).from(mailOutbox).where(eq(mailOutbox.recurringPlanId, plan?.id ?? ''))).map((row) => row.kind);
    expect(kinds).toEqual(['renewal_needs_authentication']);
  });

  it('a donor who closes the page after paying still gets the plan: the webhook records the success and creates it', async () => {
    const { paymentIntentId } = await payMonthly('5555555555554444');
    expect(await app.deliverEvent('payment_intent.succeeded', paymentIntentId)).toEqual([200]);
    expect(await thePlan()).toMatchObject({ status: 'active', gateway: 'stripe', cardBrand: 'mastercard', cardLast4: '4444', customerId: expect.stringMatching(/^cus_/) });
  });
});

describe('a new card in Stripe mode (the manage page)', () => {
  const tokenOf = () => manageTokenOf(t, clock);
  const planPath = managePlanPath;
  const updateCard = (token: string, number: string) => updateCardOnPage(app, token, number);

  it('saves the card of a confirmed SetupIntent on the plan, e-mails the donor, and a past-due plan is charged with it at the next retry', async () => {
    expect((await giveMonthly('4242424242424242')).statusCode).toBe(200);
    const token = await tokenOf();
    const before = await thePlan();
    // First a card that attaches but declines every charge (4000 0000 0000 0341): the renewal fails, the plan is past due.
    const failing = await updateCard(token, '4000000000000341');
    expect(failing.answer.statusCode).toBe(200);
    expect(failing.answer.json()).toMatchObject({ data: { card: { brand: 'visa', last4: '0341', expiryMonth: 11 } } });
    const withFailing = await thePlan();
    expect(withFailing?.customerId).toBe(before?.customerId);
    expect(withFailing?.paymentMethodId).not.toBe(before?.paymentMethodId);
    clock.set(new Date(`${before?.nextChargeOn}T00:00:00Z`));
    expect(await t.app.billing.run()).toEqual({ charged: 0, failed: 1, skipped: 0 });
    const pastDue = await thePlan();
    expect(pastDue).toMatchObject({ status: 'past_due' });

    // The donor gives a working card: the next retry charges it.
    const working = await updateCard(token, '5555555555554444');
    expect(working.answer.statusCode).toBe(200);
    expect(working.answer.json()).toMatchObject({ data: { status: 'past_due', card: { brand: 'mastercard', last4: '4444' } } });
    clock.set(pastDue?.nextAttemptAt ?? new Date());
    expect(await t.app.billing.run()).toEqual({ charged: 1, failed: 0, skipped: 0 });
    expect(await thePlan()).toMatchObject({ status: 'active', cardLast4: '4444' });
    const renewals = await t.db.select().from(donations).where(eq(donations.recurringPeriod, 1));
    expect(renewals.map((renewal) => [renewal.status, renewal.cardLast4]).sort()).toEqual([['failed', '0341'], ['succeeded', '4444']]);
    const kinds = (await t.db.select({ kind: mailOutbox.kind }).from(mailOutbox).where(eq(mailOutbox.recurringPlanId, before?.id ?? ''))).map((row) => row.kind);
    expect(kinds.filter((kind) => kind === 'plan_changed')).toHaveLength(2);
  });

  it('refuses a SetupIntent that has not succeeded or belongs to another Customer, and changes nothing', async () => {
    expect((await giveMonthly('4242424242424242')).statusCode).toBe(200);
    const token = await tokenOf();
    const before = await thePlan();
    const refusal = { fieldErrors: { setupIntentId: SETUP_INTENT_NOT_SAVED_MESSAGE } };

    const unconfirmed = await stripe.setupIntents.create({ customer: before?.customerId ?? '' });
    const notConfirmed = await post(planPath(token), { action: 'use_setup_intent', setupIntentId: unconfirmed.id });
    expect(notConfirmed.statusCode).toBe(400);
    expect(notConfirmed.json()).toMatchObject(refusal);

    const stranger = await stripe.customers.create({});
    const theirs = await stripe.setupIntents.create({ customer: stranger.id });
    await fetch(`${standIn.url}/v1/setup_intents/${theirs.id}/confirm`, { method: 'POST', body: browserCard(standIn, '5555555555554444', theirs.client_secret ?? '') });
    expect((await stripe.setupIntents.retrieve(theirs.id)).status).toBe('succeeded');
    const otherCustomer = await post(planPath(token), { action: 'use_setup_intent', setupIntentId: theirs.id });
    expect(otherCustomer.statusCode).toBe(400);
    expect(otherCustomer.json()).toMatchObject(refusal);

    const unknown = await post(planPath(token), { action: 'use_setup_intent', setupIntentId: 'seti_unknown' });
    expect(unknown.statusCode).toBe(400);
    expect(await thePlan()).toMatchObject({ paymentMethodId: before?.paymentMethodId, cardLast4: '4242' });
  });

  it('asks for the CSRF token and a valid link before creating a SetupIntent, and never for a cancelled plan', async () => {
    expect((await giveMonthly('4242424242424242')).statusCode).toBe(200);
    const token = await tokenOf();
    const setupPath = MANAGE_CARD_SETUP_API_PATH.replace(':token', token);
    expect((await t.app.inject({ method: 'POST', url: setupPath, payload: {} })).statusCode).toBe(403);
    expect((await post(MANAGE_CARD_SETUP_API_PATH.replace(':token', `${token}x`), {})).statusCode).toBe(404);
    expect((await post(planPath(token), { action: 'cancel' })).statusCode).toBe(200);
    expect((await post(setupPath, {})).statusCode).toBe(409);
  });
});
