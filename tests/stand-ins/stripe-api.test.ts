/**
 * Tests of the Stripe API stand-in, driven by the official `stripe` SDK exactly as the server drives
 * Stripe: payment intents, declines, idempotency, refunds, saved cards and off-session renewals,
 * disputes, signed webhooks (duplicates, reversed order), injected failures and timeouts.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startStripeApiStandIn, type StripeApiStandIn } from './stripe-api/index.js';

const WEBHOOK_SECRET = 'whsec_stand_in_test_secret';

/** A webhook endpoint that verifies each delivery with the SDK and keeps the verified events. */
interface Receiver {
  url: string;
  events: Stripe.Event[];
  rejected: number;
  close(): Promise<void>;
}

async function startReceiver(stripe: Stripe): Promise<Receiver> {
  const receiver: Omit<Receiver, 'url' | 'close'> = { events: [], rejected: 0 };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      try {
        const event = stripe.webhooks.constructEvent(Buffer.concat(chunks), String(request.headers['stripe-signature']), WEBHOOK_SECRET);
        receiver.events.push(event);
        response.writeHead(200).end();
      } catch {
        receiver.rejected += 1;
        response.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    ...receiver,
    get events() {
      return receiver.events;
    },
    get rejected() {
      return receiver.rejected;
    },
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let standIn: StripeApiStandIn;
let stripe: Stripe;
let receiver: Receiver;

beforeAll(async () => {
  standIn = await startStripeApiStandIn({ webhookSecret: WEBHOOK_SECRET });
  stripe = new Stripe(standIn.secretKey, { host: '127.0.0.1', port: standIn.port, protocol: 'http', maxNetworkRetries: 0 });
  receiver = await startReceiver(stripe);
  standIn.setWebhook({ url: receiver.url });
});

afterAll(async () => {
  await standIn?.close();
  await receiver?.close();
});

beforeEach(async () => {
  await standIn.deliveriesSettled();
});

function eventsFor(objectId: string): Stripe.Event[] {
  return receiver.events.filter((event) => (event.data.object as { id?: string }).id === objectId);
}

/** Confirms from the browser as Stripe.js does: publishable key and client secret in the form body. */
async function browserConfirm(intent: Stripe.PaymentIntent, fields: Record<string, string>): Promise<{ status: number; body: { error?: { code?: string; decline_code?: string; message: string }; status?: string } }> {
  const body = new URLSearchParams({ key: standIn.publishableKey, client_secret: intent.client_secret ?? '', ...fields });
  const response = await fetch(`${standIn.url}/v1/payment_intents/${intent.id}/confirm`, { method: 'POST', body, headers: { Origin: 'http://localhost:5173' } });
  return { status: response.status, body: (await response.json()) as never };
}

const cardFields = (number: string): Record<string, string> => ({
  'payment_method_data[type]': 'card',
  'payment_method_data[card][number]': number,
  'payment_method_data[card][exp_month]': '12',
  'payment_method_data[card][exp_year]': String(new Date().getFullYear() + 2),
  'payment_method_data[card][cvc]': '123',
  return_url: 'http://localhost:5173/thank-you',
});

describe('payment intents', () => {
  it('creates an intent awaiting a payment method, with a client secret and metadata', async () => {
    const intent = await stripe.paymentIntents.create({ amount: 2500, currency: 'usd', automatic_payment_methods: { enabled: true }, metadata: { cause: 'reef' }, description: 'Gift' });
    expect(intent).toMatchObject({ object: 'payment_intent', amount: 2500, currency: 'usd', status: 'requires_payment_method', metadata: { cause: 'reef' }, latest_charge: null });
    expect(intent.client_secret).toMatch(new RegExp(`^${intent.id}_secret_\\w+$`));
    expect((await stripe.paymentIntents.retrieve(intent.id)).id).toBe(intent.id);
  });

  it('succeeds with pm_card_visa and shows the charge card brand, last4 and expiry with expand[]=latest_charge', async () => {
    const created = await stripe.paymentIntents.create({ amount: 1000, currency: 'usd', allowed_payment_method_types: ['card'] });
    const confirmed = await stripe.paymentIntents.confirm(created.id, { payment_method: 'pm_card_visa' });
    expect(confirmed).toMatchObject({ status: 'succeeded', amount_received: 1000 });
    const intent = await stripe.paymentIntents.retrieve(created.id, { expand: ['latest_charge', 'payment_method'] });
    const charge = intent.latest_charge as Stripe.Charge;
    expect(charge).toMatchObject({ object: 'charge', status: 'succeeded', paid: true, amount: 1000, payment_intent: created.id });
    expect(charge.payment_method_details?.card).toMatchObject({ brand: 'visa', last4: '4242', exp_month: 12 });
    expect((intent.payment_method as Stripe.PaymentMethod).card?.fingerprint).toMatch(/^\S{16}$/);
  });

  it.each([
    ['pm_card_chargeDeclined', 'card_declined', 'generic_decline', 'Your card was declined.'],
    ['pm_card_chargeDeclinedInsufficientFunds', 'card_declined', 'insufficient_funds', 'Your card has insufficient funds.'],
    ['pm_card_chargeDeclinedLostCard', 'card_declined', 'lost_card', 'Your card was declined.'],
    ['pm_card_chargeDeclinedStolenCard', 'card_declined', 'stolen_card', 'Your card was declined.'],
    ['pm_card_chargeDeclinedExpiredCard', 'expired_card', 'expired_card', 'Your card has expired.'],
    ['pm_card_chargeDeclinedIncorrectCvc', 'incorrect_cvc', 'incorrect_cvc', "Your card's security code is incorrect."],
    ['pm_card_chargeDeclinedProcessingError', 'processing_error', 'processing_error', 'An error occurred while processing your card. Try again in a little bit.'],
  ])('declines %s with 402 %s / %s', async (paymentMethod, code, declineCode, message) => {
    const created = await stripe.paymentIntents.create({ amount: 1000, currency: 'usd', allowed_payment_method_types: ['card'] });
    const error = await stripe.paymentIntents.confirm(created.id, { payment_method: paymentMethod }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Stripe.errors.StripeCardError);
    const cardError = error as Stripe.errors.StripeCardError;
    expect(cardError).toMatchObject({ statusCode: 402, type: 'StripeCardError', code, decline_code: declineCode, message });
    expect(cardError.payment_intent).toMatchObject({ id: created.id, status: 'requires_payment_method', last_payment_error: { code, decline_code: declineCode } });
    const after = await stripe.paymentIntents.retrieve(created.id, { expand: ['latest_charge'] });
    expect(after.latest_charge).toMatchObject({ status: 'failed', failure_code: code });
  });

  it('confirms from the browser by card number: succeeds, declines by test number, refuses a bad Luhn and a live card', async () => {
    const create = () => stripe.paymentIntents.create({ amount: 2000, currency: 'usd', automatic_payment_methods: { enabled: true } });
    const ok = await browserConfirm(await create(), cardFields('4242424242424242'));
    expect(ok).toMatchObject({ status: 200, body: { status: 'succeeded' } });
    expect(ok.body).not.toHaveProperty('metadata');
    for (const [number, declineCode] of [['4000000000000002', 'generic_decline'], ['4000000000009995', 'insufficient_funds'], ['4000000000009987', 'lost_card'], ['4000000000009979', 'stolen_card'], ['4000000000000069', 'expired_card'], ['4000000000000127', 'incorrect_cvc'], ['4000000000000119', 'processing_error']] as const) {
      const declined = await browserConfirm(await create(), cardFields(number));
      expect(declined.status).toBe(402);
      expect(declined.body.error?.decline_code).toBe(declineCode);
    }
    expect((await browserConfirm(await create(), cardFields('4242424242424241'))).body.error).toMatchObject({ code: 'incorrect_number', message: 'Your card number is incorrect.' });
    expect((await browserConfirm(await create(), cardFields('4111111111111111'))).body.error).toMatchObject({ decline_code: 'test_mode_live_card' });
    const wrongSecret = await browserConfirm({ ...(await create()), client_secret: 'pi_x_secret_y' }, cardFields('4242424242424242'));
    expect(wrongSecret.status).toBe(400);
    expect(standIn.requests.every((request) => !JSON.stringify(request).includes('4242424242424242'))).toBe(true);
    expect(JSON.stringify(standIn.paymentIntents) + JSON.stringify(standIn.charges)).not.toContain('4242424242424242');
  });

  it('refuses raw card numbers from the secret key, unknown parameters, a bad key and an unknown id', async () => {
    await expect(stripe.paymentMethods.create({ type: 'card', card: { number: '4242424242424242', exp_month: 12, exp_year: 2040 } })).rejects.toMatchObject({ statusCode: 402 });
    await expect(stripe.paymentIntents.create({ amount: 1000, currency: 'usd', colour: 'blue' } as Stripe.PaymentIntentCreateParams)).rejects.toMatchObject({ statusCode: 400, code: 'parameter_unknown', param: 'colour' });
    await expect(stripe.paymentIntents.create({ amount: 10, currency: 'usd' })).rejects.toMatchObject({ statusCode: 400, code: 'amount_too_small', message: 'Amount must be at least $0.50 usd' });
    const wrongKey = new Stripe('sk_test_wrong_key_123456789', { host: '127.0.0.1', port: standIn.port, protocol: 'http', maxNetworkRetries: 0 });
    await expect(wrongKey.paymentIntents.retrieve('pi_x')).rejects.toBeInstanceOf(Stripe.errors.StripeAuthenticationError);
    await expect(stripe.paymentIntents.retrieve('pi_missing')).rejects.toMatchObject({ statusCode: 404, code: 'resource_missing', message: "No such payment_intent: 'pi_missing'" });
  });

  it('cancels an open intent and refuses to cancel or confirm a succeeded one', async () => {
    const open = await stripe.paymentIntents.create({ amount: 1000, currency: 'usd' });
    expect(await stripe.paymentIntents.cancel(open.id, { cancellation_reason: 'abandoned' })).toMatchObject({ status: 'canceled', cancellation_reason: 'abandoned' });
    const paid = await stripe.paymentIntents.create({ amount: 1000, currency: 'usd', payment_method: 'pm_card_visa', confirm: true, return_url: 'https://example.org/done' });
    await expect(stripe.paymentIntents.cancel(paid.id)).rejects.toMatchObject({ statusCode: 400, code: 'payment_intent_unexpected_state' });
    await expect(stripe.paymentIntents.confirm(paid.id)).rejects.toMatchObject({ statusCode: 400, code: 'payment_intent_unexpected_state' });
    await expect(stripe.paymentIntents.update(paid.id, { amount: 2000 })).rejects.toMatchObject({ statusCode: 400 });
    expect(await stripe.paymentIntents.update(paid.id, { metadata: { note: 'x' } })).toMatchObject({ metadata: { note: 'x' } });
  });

  it('asks for 3-D Secure on session, then succeeds or fails as the donor answers the challenge', async () => {
    const first = await stripe.paymentIntents.create({ amount: 1500, currency: 'usd', payment_method: 'pm_card_authenticationRequired', confirm: true, return_url: 'https://example.org/done' });
    expect(first).toMatchObject({ status: 'requires_action', next_action: { type: 'redirect_to_url' } });
    expect(standIn.authenticate(first.id, 'complete')).toMatchObject({ status: 'succeeded' });
    const second = await stripe.paymentIntents.create({ amount: 1500, currency: 'usd', payment_method: 'pm_card_authenticationRequired', confirm: true, return_url: 'https://example.org/done' });
    expect(standIn.authenticate(second.id, 'fail')).toMatchObject({ status: 'requires_payment_method', last_payment_error: { code: 'payment_intent_authentication_failure' } });
  });
});

describe('idempotency', () => {
  it('replays the first answer for the same key and parameters, with Idempotent-Replayed: true', async () => {
    const params = { amount: 3000, currency: 'usd', payment_method: 'pm_card_visa', confirm: true, return_url: 'https://example.org/done' };
    const first = await stripe.paymentIntents.create(params, { idempotencyKey: 'donation-1' });
    const again = await stripe.paymentIntents.create(params, { idempotencyKey: 'donation-1' });
    expect(again.id).toBe(first.id);
    expect(again.lastResponse.headers['idempotent-replayed']).toBe('true');
    expect(standIn.charges.filter((charge) => charge.payment_intent === first.id)).toHaveLength(1);
  });

  it('replays a decline too, and refuses the same key with other parameters (400 idempotency_error)', async () => {
    const params = { amount: 3000, currency: 'usd', payment_method: 'pm_card_chargeDeclined', confirm: true, return_url: 'https://example.org/done' };
    const first = (await stripe.paymentIntents.create(params, { idempotencyKey: 'donation-2' }).catch((error: unknown) => error)) as Stripe.errors.StripeCardError;
    const again = (await stripe.paymentIntents.create(params, { idempotencyKey: 'donation-2' }).catch((error: unknown) => error)) as Stripe.errors.StripeCardError;
    expect(again.payment_intent?.id).toBe(first.payment_intent?.id);
    const mismatch = await stripe.paymentIntents.create({ ...params, amount: 4000 }, { idempotencyKey: 'donation-2' }).catch((error: unknown) => error);
    expect(mismatch).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    expect(mismatch).toMatchObject({ statusCode: 400 });
  });
});

describe('refunds and disputes', () => {
  it('refunds part then the rest, marks the charge refunded, and refuses a third refund', async () => {
    const paid = await stripe.paymentIntents.create({ amount: 5000, currency: 'usd', payment_method: 'pm_card_visa', confirm: true, return_url: 'https://example.org/done' });
    expect(await stripe.refunds.create({ payment_intent: paid.id, amount: 2000 })).toMatchObject({ object: 'refund', amount: 2000, status: 'succeeded', payment_intent: paid.id });
    await stripe.refunds.create({ payment_intent: paid.id });
    const charge = await stripe.charges.retrieve(String(paid.latest_charge));
    expect(charge).toMatchObject({ amount_refunded: 5000, refunded: true });
    await expect(stripe.refunds.create({ payment_intent: paid.id })).rejects.toMatchObject({ code: 'charge_already_refunded' });
    await standIn.deliveriesSettled();
    expect(eventsFor(charge.id).filter((event) => event.type === 'charge.refunded')).toHaveLength(2);
  });

  it('opens and closes a dispute with charge.dispute.created and charge.dispute.closed', async () => {
    const paid = await stripe.paymentIntents.create({ amount: 5000, currency: 'usd', payment_method: 'pm_card_visa', confirm: true, return_url: 'https://example.org/done' });
    const dispute = standIn.createDispute(paid.id);
    expect(dispute).toMatchObject({ object: 'dispute', status: 'needs_response', amount: 5000, payment_intent: paid.id });
    await expect(stripe.refunds.create({ payment_intent: paid.id })).rejects.toMatchObject({ code: 'charge_disputed' });
    standIn.closeDispute(dispute.id, 'lost');
    await standIn.deliveriesSettled();
    expect(eventsFor(dispute.id).map((event) => event.type)).toEqual(['charge.dispute.created', 'charge.dispute.closed']);
    expect((eventsFor(dispute.id)[1]?.data.object as Stripe.Dispute).status).toBe('lost');
  });
});

describe('saved cards and off-session renewals', () => {
  async function firstGift(customer: string, paymentMethod: string): Promise<Stripe.PaymentIntent> {
    const intent = await stripe.paymentIntents.create({ amount: 2500, currency: 'usd', customer, setup_future_usage: 'off_session', automatic_payment_methods: { enabled: true } });
    return stripe.paymentIntents.confirm(intent.id, { payment_method: paymentMethod, return_url: 'https://example.org/done' });
  }

  function renewal(customer: string, paymentMethod: string): Promise<Stripe.PaymentIntent> {
    return stripe.paymentIntents.create({ amount: 2500, currency: 'usd', customer, payment_method: paymentMethod, off_session: true, confirm: true, automatic_payment_methods: { enabled: true, allow_redirects: 'never' } });
  }

  it('saves the card of a first gift to the customer and charges it off session', async () => {
    const customer = await stripe.customers.create({ email: 'donor@example.org', name: 'Ana Donor' });
    expect(await stripe.customers.retrieve(customer.id)).toMatchObject({ email: 'donor@example.org' });
    const first = await firstGift(customer.id, 'pm_card_visa');
    const method = await stripe.paymentMethods.retrieve(String(first.payment_method));
    expect(method.customer).toBe(customer.id);
    expect(await renewal(customer.id, method.id)).toMatchObject({ status: 'succeeded', customer: customer.id });
  });

  it('needs a return_url (or allow_redirects=never) to confirm with automatic payment methods from the server', async () => {
    const customer = await stripe.customers.create({});
    await expect(stripe.paymentIntents.create({ amount: 2500, currency: 'usd', customer: customer.id, payment_method: 'pm_card_visa', confirm: true })).rejects.toMatchObject({ statusCode: 400, param: 'return_url' });
  });

  it('refuses to reuse a card that was used without a customer', async () => {
    const paid = await stripe.paymentIntents.create({ amount: 1000, currency: 'usd', payment_method: 'pm_card_visa', confirm: true, return_url: 'https://example.org/done' });
    const customer = await stripe.customers.create({});
    await expect(renewal(customer.id, String(paid.payment_method))).rejects.toMatchObject({ statusCode: 400 });
  });

  it('declines an off-session renewal of a card that always needs authentication (402 authentication_required)', async () => {
    const customer = await stripe.customers.create({});
    const first = await firstGift(customer.id, 'pm_card_authenticationRequired');
    expect(first.status).toBe('requires_action');
    standIn.authenticate(first.id, 'complete');
    const saved = (await stripe.paymentIntents.retrieve(first.id)).payment_method as string;
    const error = (await renewal(customer.id, saved).catch((caught: unknown) => caught)) as Stripe.errors.StripeCardError;
    expect(error).toMatchObject({ statusCode: 402, code: 'authentication_required', decline_code: 'authentication_required' });
    expect(error.payment_intent?.status).toBe('requires_payment_method');
  });

  it('charges off session, without authentication, a card authenticated when it was saved (4000002500003155)', async () => {
    const customer = await stripe.customers.create({});
    const setup = await stripe.setupIntents.create({ customer: customer.id, allowed_payment_method_types: ['card'] });
    const confirmed = await stripe.setupIntents.confirm(setup.id, { payment_method: 'pm_card_authenticationRequiredOnSetup' });
    expect(confirmed.status).toBe('requires_action');
    expect(standIn.authenticate(setup.id, 'complete')).toMatchObject({ status: 'succeeded' });
    const saved = (await stripe.setupIntents.retrieve(setup.id)).payment_method as string;
    expect(await renewal(customer.id, saved)).toMatchObject({ status: 'succeeded' });
    const list = await stripe.customers.listPaymentMethods(customer.id);
    expect(list.data.map((method) => method.id)).toEqual([saved]);
  });

  it('attaches 4000000000000341 but declines its charge', async () => {
    const customer = await stripe.customers.create({});
    const setup = await stripe.setupIntents.create({ customer: customer.id, payment_method: 'pm_card_chargeCustomerFail', confirm: true, allowed_payment_method_types: ['card'] });
    expect(setup.status).toBe('succeeded');
    await expect(renewal(customer.id, String(setup.payment_method))).rejects.toMatchObject({ statusCode: 402, code: 'card_declined' });
  });
});

describe('webhooks', () => {
  it('signs every event so stripe.webhooks.constructEvent verifies it, and a wrong secret does not', async () => {
    const paid = await stripe.paymentIntents.create({ amount: 1200, currency: 'usd', payment_method: 'pm_card_visa', confirm: true, return_url: 'https://example.org/done' }, { idempotencyKey: 'hook-1' });
    await standIn.deliveriesSettled();
    const types = eventsFor(paid.id).map((event) => event.type);
    expect(types).toEqual(['payment_intent.created', 'payment_intent.succeeded']);
    const succeeded = eventsFor(paid.id)[1];
    expect(succeeded).toMatchObject({ object: 'event', api_version: Stripe.API_VERSION, livemode: false, request: { idempotency_key: 'hook-1' } });
    expect(receiver.rejected).toBe(0);
    const payload = JSON.stringify(succeeded);
    const header = stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_other' });
    expect(() => stripe.webhooks.constructEvent(payload, header, WEBHOOK_SECRET)).toThrow(Stripe.errors.StripeSignatureVerificationError);
  });

  it('redelivers an event as duplicates and releases held events in reverse order', async () => {
    standIn.holdDeliveries();
    const intent = await stripe.paymentIntents.create({ amount: 1200, currency: 'usd', payment_method: 'pm_card_visa', confirm: true, return_url: 'https://example.org/done' });
    await stripe.refunds.create({ payment_intent: intent.id });
    expect(eventsFor(intent.id)).toHaveLength(0);
    await standIn.releaseDeliveries({ order: 'reverse' });
    const delivered = receiver.events.slice(-5).map((event) => event.type);
    expect(delivered).toEqual(['refund.created', 'charge.refunded', 'payment_intent.succeeded', 'charge.succeeded', 'payment_intent.created']);
    const succeeded = standIn.events.find((event) => event.type === 'payment_intent.succeeded' && (event.data.object as Stripe.PaymentIntent).id === intent.id);
    if (!succeeded) throw new Error('no payment_intent.succeeded');
    await standIn.deliver(succeeded, { times: 2 });
    expect(receiver.events.filter((event) => event.id === succeeded.id)).toHaveLength(3);
  });
});

describe('injected failures', () => {
  it('answers 500 without executing, and the SDK retry with the same idempotency key then succeeds once', async () => {
    const retrying = new Stripe(standIn.secretKey, { host: '127.0.0.1', port: standIn.port, protocol: 'http', maxNetworkRetries: 1 });
    const before = standIn.paymentIntents.length;
    standIn.failNextRequests(1, { status: 500 });
    const intent = await retrying.paymentIntents.create({ amount: 1000, currency: 'usd' }, { idempotencyKey: 'outage-1' });
    expect(standIn.paymentIntents.length).toBe(before + 1);
    expect(standIn.requests.filter((request) => request.idempotencyKey === 'outage-1').map((request) => request.status)).toEqual([500, 200]);
    standIn.failNextRequests(1, { status: 500, shouldRetry: false });
    await expect(retrying.paymentIntents.retrieve(intent.id)).rejects.toBeInstanceOf(Stripe.errors.StripeAPIError);
  });

  it('drops a connection: the SDK retries a closed connection once, with the same idempotency key, and it succeeds', async () => {
    standIn.failNextRequests(1, { dropConnection: true });
    const intent = await stripe.paymentIntents.create({ amount: 1000, currency: 'usd' }, { idempotencyKey: 'dropped-1' });
    expect(intent.status).toBe('requires_payment_method');
    expect(standIn.requests.filter((request) => request.idempotencyKey === 'dropped-1').map((request) => request.status)).toEqual([0, 200]);
  });

  it('executes a delayed request although the client timed out, so a retry with the key replays it', async () => {
    const impatient = new Stripe(standIn.secretKey, { host: '127.0.0.1', port: standIn.port, protocol: 'http', maxNetworkRetries: 0, timeout: 200 });
    standIn.delayNextRequests(1, 2_000);
    const params = { amount: 1000, currency: 'usd', payment_method: 'pm_card_visa', confirm: true, return_url: 'https://example.org/done' };
    await expect(impatient.paymentIntents.create(params, { idempotencyKey: 'timeout-1' })).rejects.toBeInstanceOf(Stripe.errors.StripeConnectionError);
    const replay = await stripe.paymentIntents.create(params, { idempotencyKey: 'timeout-1' });
    expect(replay.status).toBe('succeeded');
    expect(replay.lastResponse.headers['idempotent-replayed']).toBe('true');
  });

  it('holds the answers of matching requests until they are released, other requests answered meanwhile', async () => {
    const created = await stripe.paymentIntents.create({ amount: 1000, currency: 'usd' });
    const held = standIn.holdNextRequests(1, { match: ({ method, path }) => method === 'GET' && path.startsWith('/v1/payment_intents/') });
    let answered = false;
    const retrieving = stripe.paymentIntents.retrieve(created.id).then((intent) => {
      answered = true;
      return intent;
    });
    await held.arrived;
    expect((await stripe.paymentIntents.create({ amount: 500, currency: 'usd' })).amount).toBe(500);
    expect(answered).toBe(false);
    held.release();
    expect((await retrieving).id).toBe(created.id);
  });
});
