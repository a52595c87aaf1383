import { readFile } from 'node:fs/promises';
import { eq, sql } from 'drizzle-orm';
import Stripe from 'stripe';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { API_PATHS, CreatePaymentIntentSuccessSchema, ProcessDonationSuccessSchema } from '../../src/shared/api';
import { gatewayRefundKey, refundDonation } from '../../src/server/admin/refund';
import { donationRefunds, donations, mailOutbox, receipts, webhookEvents } from '../../src/server/db/schema';
import { CARD_DATA_REFUSED_MESSAGE } from '../../src/server/http/errors';
import { HANDLED_STRIPE_EVENTS, INVALID_SIGNATURE_MESSAGE } from '../../src/server/payments/stripe/webhook-route';
import { cardlessDetails, validSubmission, type TestApp } from '../../src/server/testing/test-app';
import type { StripeApiStandIn } from '../stand-ins/stripe-api/index.js';
import { confirmInBrowser, latestEventOf, useStripeModeApp } from './stripe-mode';

/**
 * Stripe mode against the Stripe API stand-in (issue #11): the payment-intent endpoints with card data refused,
 * and `POST /api/webhooks/stripe` with events signed by `stripe.webhooks.generateTestHeaderString`: valid,
 * tampered, wrong secret, too old, replayed, duplicated, out of order; 0 rows written on a bad signature.
 * Runs on the embedded PostgreSQL test server, and on DATABASE_URL's when it is set.
 */

const WEBHOOK_SECRET = 'whsec_test_reef_donations_webhooks';
const sdk = new Stripe('sk_test_unused');
const app = useStripeModeApp({ webhookSecret: WEBHOOK_SECRET });
const { post } = app;
let standIn: StripeApiStandIn;
let t: TestApp;
beforeAll(() => {
  ({ standIn, t } = app);
});
beforeEach(async () => {
  await t.db.delete(webhookEvents);
});

/** A donor's Stripe-mode payment: create-payment-intent with the donor, then the browser confirms with `cardNumber`. */
async function payInBrowser(cardNumber: string, submission = validSubmission()): Promise<string> {
  const created = await post(API_PATHS.createPaymentIntent, { amount: submission.amount, donation: cardlessDetails(submission) });
  const { paymentIntentId, clientSecret } = CreatePaymentIntentSuccessSchema.parse(created.json()).data;
  await confirmInBrowser(standIn, paymentIntentId, clientSecret, cardNumber);
  return paymentIntentId;
}

/** The stand-in's latest event of `type` about payment intent `paymentIntentId` (latestEventOf). */
function eventOf(type: string, paymentIntentId: string): Stripe.Event {
  return latestEventOf(standIn, type, paymentIntentId);
}

/** POSTs `event` to the webhook as Stripe does, signed with `secret` at `timestamp` (seconds), or with `payload` as given. */
function deliver(event: Stripe.Event, options: { secret?: string; timestamp?: number; payload?: string; signature?: string | null } = {}) {
  const payload = options.payload ?? JSON.stringify(event);
  const signature =
    options.signature === undefined
      ? sdk.webhooks.generateTestHeaderString({ payload: JSON.stringify(event), secret: options.secret ?? WEBHOOK_SECRET, timestamp: options.timestamp })
      : options.signature;
  return t.app.inject({
    method: 'POST',
    url: API_PATHS.stripeWebhook,
    headers: { 'content-type': 'application/json', ...(signature === null ? {} : { 'stripe-signature': signature }) },
    payload,
  });
}

/** The id of the charge (`ch_...`) that paid payment intent `paymentIntentId`, from the stand-in. */
const chargeOf = (paymentIntentId: string) => String(standIn.paymentIntents.find((intent) => intent.id === paymentIntentId)?.latest_charge);
const donationOf = async (paymentIntentId: string) =>
  (await t.db.select().from(donations).where(eq(donations.paymentIntentId, paymentIntentId)))[0];
const processedEvents = async () => (await t.db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(webhookEvents))[0]?.n;

describe('Stripe mode: card data never reaches the server', () => {
  it('refuses process-donation and a confirm-donation that carries a card, with 400 and nothing written', async () => {
    const processed = await post(API_PATHS.processDonation, validSubmission());
    expect(processed.statusCode).toBe(400);
    expect(processed.json()).toMatchObject({ error: CARD_DATA_REFUSED_MESSAGE });
    const confirmed = await post(API_PATHS.confirmDonation, { paymentIntentId: 'pi_x1', donationData: validSubmission() });
    expect(confirmed.statusCode).toBe(400);
    expect(confirmed.json()).toMatchObject({ fieldErrors: { 'donationData.creditCard': CARD_DATA_REFUSED_MESSAGE } });
    expect(await t.countDonations()).toBe(0);
  });

  it('a browser that confirmed with Stripe.js and came back: confirm-donation records it succeeded, with brand and last4', async () => {
    const paymentIntentId = await payInBrowser('4242424242424242');
    const { creditCard: _card, ...donationData } = validSubmission();
    const response = await post(API_PATHS.confirmDonation, { paymentIntentId, donationData });
    expect(response.statusCode, response.body).toBe(200);
    expect(ProcessDonationSuccessSchema.parse(response.json()).data).toMatchObject({ amount: 25, donorName: 'Ana Reef', isTestPayment: true });
    expect(await donationOf(paymentIntentId)).toMatchObject({ status: 'succeeded', gateway: 'stripe', cardBrand: 'visa', cardLast4: '4242' });
  });
});

describe('3-D Secure (requires_action)', () => {
  it('handled by Stripe.js in the browser; the donation stays pending until the intent settles, then the webhook records it', async () => {
    const paymentIntentId = await payInBrowser('4000002760003184');
    const { creditCard: _card, ...donationData } = validSubmission();
    const pending = await post(API_PATHS.confirmDonation, { paymentIntentId, donationData });
    expect(pending.statusCode).toBe(503);
    expect(await donationOf(paymentIntentId)).toMatchObject({ status: 'pending' });
    standIn.authenticate(paymentIntentId, 'complete');
    expect((await deliver(eventOf('payment_intent.succeeded', paymentIntentId))).statusCode).toBe(200);
    expect(await donationOf(paymentIntentId)).toMatchObject({ status: 'succeeded' });
    const replay = await post(API_PATHS.confirmDonation, { paymentIntentId, donationData });
    expect(replay.statusCode).toBe(200);
  });
});

describe('POST /api/webhooks/stripe', () => {
  it('a valid payment_intent.succeeded marks the donation of a browser that never came back succeeded, once', async () => {
    const paymentIntentId = await payInBrowser('5555555555554444');
    expect(await donationOf(paymentIntentId)).toMatchObject({ status: 'pending', cardBrand: null });
    const event = eventOf('payment_intent.succeeded', paymentIntentId);
    const answers = await Promise.all([deliver(event), deliver(event)]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
    expect((await deliver(event)).json()).toEqual({ received: true });
    expect(await donationOf(paymentIntentId)).toMatchObject({ status: 'succeeded', cardBrand: 'mastercard', cardLast4: '4444' });
    expect(await processedEvents()).toBe(1);
    const stats = (await t.app.inject({ method: 'GET', url: API_PATHS.donationStats })).json();
    expect(stats).toMatchObject({ donationCount: 1, totalRaised: 25 });
  });

  it('a bad signature (tampered body, wrong secret, too old, none, garbage): 400 and nothing written', async () => {
    const paymentIntentId = await payInBrowser('4242424242424242');
    const event = eventOf('payment_intent.succeeded', paymentIntentId);
    const tampered = JSON.stringify({ ...event, data: { object: { ...event.data.object, amount: 1 } } });
    const answers = [
      await deliver(event, { payload: tampered }),
      await deliver(event, { secret: 'whsec_somebody_else' }),
      await deliver(event, { timestamp: Math.floor(Date.now() / 1000) - 3600 }),
      await deliver(event, { signature: null }),
      await deliver(event, { signature: 't=1,v1=deadbeef' }),
    ];
    for (const answer of answers) {
      expect(answer.statusCode).toBe(400);
      expect(answer.json()).toMatchObject({ error: INVALID_SIGNATURE_MESSAGE });
    }
    expect(await processedEvents()).toBe(0);
    expect(await donationOf(paymentIntentId)).toMatchObject({ status: 'pending' });
  });

  it('a decline marks the donation failed; the same intent paid later with another card still succeeds', async () => {
    const paymentIntentId = await payInBrowser('4000000000000002');
    expect((await deliver(eventOf('payment_intent.payment_failed', paymentIntentId))).statusCode).toBe(200);
    expect(await donationOf(paymentIntentId)).toMatchObject({ status: 'failed', declineCode: 'generic_decline' });
    const clientSecret = standIn.paymentIntents.find((intent) => intent.id === paymentIntentId)?.client_secret ?? '';
    await confirmInBrowser(standIn, paymentIntentId, clientSecret, '4242424242424242');
    expect((await deliver(eventOf('payment_intent.succeeded', paymentIntentId))).statusCode).toBe(200);
    expect(await donationOf(paymentIntentId)).toMatchObject({ status: 'succeeded', cardLast4: '4242' });
  });

  it('a refund voids the receipt and queues the notice to the donor, once', async () => {
    const paymentIntentId = await payInBrowser('4242424242424242');
    await deliver(eventOf('payment_intent.succeeded', paymentIntentId));
    await t.gateway.refund({ transactionId: chargeOf(paymentIntentId), idempotencyKey: `refund-${paymentIntentId}` });
    const refunded = eventOf('charge.refunded', paymentIntentId);
    await Promise.all([deliver(refunded), deliver(refunded)]);
    const donation = await donationOf(paymentIntentId);
    expect(donation).toMatchObject({ status: 'refunded' });
    const [receipt] = await t.db.select().from(receipts).where(eq(receipts.donationId, donation?.id ?? ''));
    expect(receipt?.voidedAt).toBeInstanceOf(Date);
    const mail = await t.db.select({ kind: mailOutbox.kind }).from(mailOutbox).where(eq(mailOutbox.donationId, donation?.id ?? ''));
    expect(mail.map((message) => message.kind).sort()).toEqual(['receipt', 'receipt_void']);
  });

  it('out of order: a refund delivered before the success leaves the donation refunded', async () => {
    const paymentIntentId = await payInBrowser('4242424242424242');
    const succeeded = eventOf('payment_intent.succeeded', paymentIntentId);
    await t.gateway.refund({ transactionId: chargeOf(paymentIntentId), idempotencyKey: `refund-${paymentIntentId}` });
    const refunded = eventOf('charge.refunded', paymentIntentId);
    expect((await deliver(refunded)).statusCode).toBe(200);
    expect((await deliver(succeeded)).statusCode).toBe(200);
    expect(await donationOf(paymentIntentId)).toMatchObject({ status: 'refunded' });
    expect(await processedEvents()).toBe(2);
    expect((await t.app.inject({ method: 'GET', url: API_PATHS.donationStats })).json()).toMatchObject({ donationCount: 0 });
  });

  it('a dispute takes the donation out of the totals; won, it counts again', async () => {
    const paymentIntentId = await payInBrowser('4242424242424242');
    await deliver(eventOf('payment_intent.succeeded', paymentIntentId));
    const dispute = standIn.createDispute(paymentIntentId);
    await deliver(eventOf('charge.dispute.created', paymentIntentId));
    expect(await donationOf(paymentIntentId)).toMatchObject({ status: 'disputed', disputeStatus: 'needs_response' });
    expect((await t.app.inject({ method: 'GET', url: API_PATHS.donationStats })).json()).toMatchObject({ donationCount: 0 });
    standIn.closeDispute(dispute.id, 'won');
    await deliver(eventOf('charge.dispute.closed', paymentIntentId));
    expect(await donationOf(paymentIntentId)).toMatchObject({ status: 'succeeded', disputeStatus: 'won' });
  });
});

describe("refunds made in Stripe's Dashboard (refund.created; issue #14, decision 0058)", () => {
  /** A paid $50 gift, recorded succeeded by its webhook; resolves with its intent, charge and donation ids. */
  async function paidGift() {
    const paymentIntentId = await payInBrowser('4242424242424242', validSubmission({ amount: 50 }));
    await deliver(eventOf('payment_intent.succeeded', paymentIntentId));
    const donation = await donationOf(paymentIntentId);
    if (!donation) throw new Error('The gift was not recorded');
    return { paymentIntentId, chargeId: chargeOf(paymentIntentId), donationId: donation.id };
  }
  const refundRowsOf = (donationId: string) => t.db.select().from(donationRefunds).where(eq(donationRefunds.donationId, donationId));
  /** The kinds of the mail about `donationId`: its receipt, void notice, and the notices of its partial refunds. */
  async function mailKindsOf(donationId: string): Promise<string[]> {
    const refundIds = (await refundRowsOf(donationId)).map((row) => row.id);
    const mail = await t.db.select({ kind: mailOutbox.kind, donationId: mailOutbox.donationId, refundId: mailOutbox.refundId }).from(mailOutbox);
    return mail
      .filter((message) => message.donationId === donationId || (message.refundId !== null && refundIds.includes(message.refundId)))
      .map((message) => message.kind)
      .sort();
  }

  it('a partial refund is recorded once, however often delivered: the gift counts for the rest and the donor is told', async () => {
    const gift = await paidGift();
    const made = await app.stripe.refunds.create({ charge: gift.chargeId, amount: 1250 });
    const created = eventOf('refund.created', gift.paymentIntentId);
    expect((await Promise.all([deliver(created), deliver(created)])).map((answer) => answer.statusCode)).toEqual([200, 200]);
    expect((await deliver(eventOf('charge.refunded', gift.paymentIntentId))).statusCode).toBe(200);

    expect(await donationOf(gift.paymentIntentId)).toMatchObject({ status: 'succeeded', amountCents: 5000, refundedCents: 1250 });
    expect(await refundRowsOf(gift.donationId)).toEqual([
      expect.objectContaining({ gatewayRefundId: made.id, amountCents: 1250, gateway: 'stripe', idempotencyKey: `stripe-refund-${made.id}` }),
    ]);
    expect(await mailKindsOf(gift.donationId)).toEqual(['partial_refund', 'receipt']);
    expect((await t.app.inject({ method: 'GET', url: API_PATHS.donationStats })).json()).toMatchObject({ totalRaised: 37.5, donationCount: 1 });
  });

  it('the rest refunded too: the gift is refunded once with one void notice, whichever of refund.created and charge.refunded comes first', async () => {
    for (const order of [['refund.created', 'charge.refunded'], ['charge.refunded', 'refund.created']] as const) {
      const gift = await paidGift();
      await app.stripe.refunds.create({ charge: gift.chargeId, amount: 1000 });
      await deliver(eventOf('refund.created', gift.paymentIntentId));
      await app.stripe.refunds.create({ charge: gift.chargeId });
      for (const type of order) expect((await deliver(eventOf(type, gift.paymentIntentId))).statusCode).toBe(200);

      expect(await donationOf(gift.paymentIntentId), order.join(' then ')).toMatchObject({ status: 'refunded', refundedCents: 5000 });
      expect(await mailKindsOf(gift.donationId), order.join(' then ')).toEqual(['partial_refund', 'receipt', 'receipt_void']);
      // Both refunds are in the ledger, whichever event came first: they add up to the gift.
      expect((await refundRowsOf(gift.donationId)).map((row) => row.amountCents).sort(), order.join(' then ')).toEqual([1000, 4000]);
      // A second delivery of the last refund.created changes nothing.
      expect(await app.deliverEvent('refund.created', gift.paymentIntentId)).toEqual([200]);
      expect(await refundRowsOf(gift.donationId)).toHaveLength(2);
    }
  });

  it("the operator's own refund is not recorded a second time by its refund.created, nor when a retry meets the webhook's record", async () => {
    const gift = await paidGift();
    const asked = { donationId: gift.donationId, amountCents: 500, idempotencyKey: 'operator-key-1' };
    expect(await refundDonation({ db: t.db, gateway: t.gateway }, asked)).toMatchObject({ kind: 'refunded', replayed: false });
    await deliver(eventOf('refund.created', gift.paymentIntentId));
    expect(await refundRowsOf(gift.donationId)).toHaveLength(1);

    // A second refund whose answer the route never got (503): Stripe made it, as the route asked (with the operator's
    // key in its metadata), and its webhook recorded it under that key before the operator's retry.
    const retried = { ...asked, amountCents: 700, idempotencyKey: 'operator-key-2' };
    const gatewayKey = gatewayRefundKey(gift.donationId, retried.idempotencyKey, 700);
    await t.gateway.refund({ transactionId: gift.chargeId, amountCents: 700, idempotencyKey: gatewayKey, operatorKey: retried.idempotencyKey });
    await deliver(eventOf('refund.created', gift.paymentIntentId));
    expect((await refundRowsOf(gift.donationId)).map((row) => row.idempotencyKey).sort()).toEqual(['operator-key-1', 'operator-key-2']);
    expect(await refundDonation({ db: t.db, gateway: t.gateway }, retried)).toMatchObject({ kind: 'refunded', replayed: true, refund: { amountCents: 700 } });
    expect(await refundDonation({ db: t.db, gateway: t.gateway }, { ...retried, amountCents: undefined })).toMatchObject({ kind: 'refunded', replayed: true });

    expect((await refundRowsOf(gift.donationId)).map((row) => row.amountCents).sort()).toEqual([500, 700]);
    expect(await donationOf(gift.paymentIntentId)).toMatchObject({ status: 'succeeded', refundedCents: 1200 });
    expect(await mailKindsOf(gift.donationId)).toEqual(['partial_refund', 'partial_refund', 'receipt']);
    expect(standIn.refunds.filter((made) => made.charge === gift.chargeId)).toHaveLength(2);
  });
});

describe('the events an operator subscribes the endpoint to', () => {
  it("are the ones the webhook handles, as the README's 'Going live with Stripe' lists them", async () => {
    const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
    const step = readme.slice(readme.indexOf('create a webhook endpoint'), readme.indexOf('Take its signing secret.'));
    const listed = new Set([...step.matchAll(/`([a-z_]+(?:\.[a-z_]+)+)`/g)].map((match) => match[1]));
    expect([...listed].sort()).toEqual([...HANDLED_STRIPE_EVENTS].sort());
  });
});
