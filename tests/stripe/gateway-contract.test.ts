import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStripeApiStandIn, type StripeApiStandIn } from '../stand-ins/stripe-api/index.js';
import { confirmInBrowser } from './stripe-mode';
import { GatewayTimeoutError, RefundRefusedError, type PaymentGateway, type PaymentIntent } from '../../src/server/payments/gateway';
import { createStripeGateway } from '../../src/server/payments/stripe/stripe-gateway';
import { createTestGateway, DECLINE_MESSAGES } from '../../src/server/payments/test-gateway';
import { withGatewayTimeout } from '../../src/server/payments/with-timeout';

/**
 * The PaymentGateway contract (issue #11: "contract tests that the test gateway and the Stripe gateway both
 * pass: charge, decline, retrieve by idempotency key, refund, timeouts"), run against the test gateway and the
 * Stripe gateway talking to the Stripe API stand-in. Each gateway pays an intent the way its mode does: the test
 * gateway on the server with the card, Stripe in the browser (Stripe.js confirms with the publishable key and
 * client secret; here the same request, sent as Stripe.js sends it).
 */

/** One gateway under test, and how a donor pays one of its intents with a card number. */
interface Subject {
  gateway: PaymentGateway;
  pay(intent: PaymentIntent, cardNumber: string): Promise<void>;
  /** Makes the gateway's next call take `delayMs` (the outcome is then unknown to a caller with a shorter timeout). */
  slowDown(delayMs: number): void;
}

const EXPIRY_YEAR = new Date().getFullYear() + 2;
let standIn: StripeApiStandIn;
let slowTest = 0;

const subjects: Record<'test' | 'stripe', () => Subject> = {
  test: () => {
    const inner = createTestGateway();
    const slow = <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
      async (...args: A): Promise<R> => {
        const delayMs = slowTest;
        slowTest = 0;
        if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
        return call(...args);
      };
    const gateway: PaymentGateway = { ...inner, createPaymentIntent: slow(inner.createPaymentIntent), retrievePaymentIntent: slow(inner.retrievePaymentIntent) };
    return {
      gateway,
      pay: async (intent, number) => {
        await inner.confirmPaymentIntent(intent.id, { number, expiryMonth: 12, expiryYear: EXPIRY_YEAR, cvc: '123' });
      },
      slowDown: (delayMs) => (slowTest = delayMs),
    };
  },
  stripe: () => ({
    gateway: createStripeGateway({ secretKey: standIn.secretKey, apiUrl: standIn.url, timeoutMs: 10_000 }),
    pay: (intent, number) => confirmInBrowser(standIn, intent.id, intent.clientSecret, number),
    slowDown: (delayMs) => standIn.delayNextRequests(1, delayMs),
  }),
};

beforeAll(async () => {
  standIn = await startStripeApiStandIn();
});
afterAll(async () => {
  await standIn?.close();
});

describe.each(['test', 'stripe'] as const)('the %s gateway', (name) => {
  let subject: Subject;
  beforeAll(() => {
    subject = subjects[name]();
  });
  const create = (amountCents = 2500, idempotencyKey = `donation-${randomUUID()}`) =>
    subject.gateway.createPaymentIntent({ amountCents, currency: 'USD', description: 'Donation', idempotencyKey, metadata: { donationId: 'x' } });

  it('creates an intent awaiting payment, and answers the same intent for the same idempotency key', async () => {
    const key = `donation-${randomUUID()}`;
    const intent = await create(4250, key);
    expect(intent).toMatchObject({ amountCents: 4250, currency: 'USD', status: 'requires_payment_method', charge: undefined, isTestPayment: true });
    expect(intent.clientSecret).toMatch(new RegExp(`^${intent.id}_secret_`));
    expect((await create(4250, key)).id).toBe(intent.id);
    expect(await subject.gateway.retrievePaymentIntent(intent.id)).toMatchObject({ id: intent.id, status: 'requires_payment_method' });
  });

  it('a charge: succeeded with its transaction id, card brand and last4', async () => {
    const intent = await create();
    await subject.pay(intent, '5555555555554444');
    const paid = await subject.gateway.retrievePaymentIntent(intent.id);
    expect(paid).toMatchObject({ status: 'succeeded', amountCents: 2500, charge: { cardBrand: 'mastercard', last4: '4444' }, lastDecline: undefined });
    expect(paid?.charge?.transactionId).toMatch(/^ch_/);
  });

  it("a decline: awaiting another card, with Stripe's decline code and message", async () => {
    const intent = await create();
    await subject.pay(intent, '4000000000009995');
    expect(await subject.gateway.retrievePaymentIntent(intent.id)).toMatchObject({
      status: 'requires_payment_method',
      charge: undefined,
      lastDecline: { declineCode: 'insufficient_funds', message: DECLINE_MESSAGES.insufficientFunds },
    });
  });

  it('an unknown intent: undefined', async () => {
    expect(await subject.gateway.retrievePaymentIntent('pi_doesnotexist0000000000')).toBeUndefined();
  });

  it('a refund of a charge, in part then the rest, once per idempotency key; refused (RefundRefusedError) past the charge or of an unknown charge', async () => {
    const intent = await create(3000);
    await subject.pay(intent, '4242424242424242');
    const transactionId = (await subject.gateway.retrievePaymentIntent(intent.id))?.charge?.transactionId ?? '';
    const key = `refund-${randomUUID()}`;
    const part = await subject.gateway.refund({ transactionId, amountCents: 1000, idempotencyKey: key });
    expect(part).toMatchObject({ amountCents: 1000, status: 'succeeded' });
    expect(part.refundId).toMatch(/^re_/);
    expect(await subject.gateway.refund({ transactionId, amountCents: 1000, idempotencyKey: key })).toEqual(part);
    await expect(subject.gateway.refund({ transactionId, amountCents: 2001, idempotencyKey: `refund-${randomUUID()}` })).rejects.toMatchObject({
      name: 'RefundRefusedError',
      code: 'amount_too_large',
    });
    expect(await subject.gateway.refund({ transactionId, idempotencyKey: `refund-${randomUUID()}` })).toMatchObject({ amountCents: 2000 });
    await expect(subject.gateway.refund({ transactionId, idempotencyKey: `refund-${randomUUID()}` })).rejects.toMatchObject({ code: 'charge_already_refunded' });
    await expect(subject.gateway.refund({ transactionId: 'ch_doesnotexist000000000', idempotencyKey: `refund-${randomUUID()}` })).rejects.toBeInstanceOf(
      RefundRefusedError,
    );
  });

  it('a call slower than GATEWAY_TIMEOUT_MS rejects with GatewayTimeoutError (outcome unknown)', async () => {
    const intent = await create();
    const bounded = withGatewayTimeout(subject.gateway, 100);
    subject.slowDown(1000);
    await expect(bounded.retrievePaymentIntent(intent.id)).rejects.toBeInstanceOf(GatewayTimeoutError);
  });

  it('never takes card data on the server in Stripe mode', async () => {
    expect(subject.gateway.acceptsCardData).toBe(name === 'test');
    if (name === 'stripe') {
      const card = { number: '4242424242424242', expiryMonth: 12, expiryYear: EXPIRY_YEAR, cvc: '123' };
      await expect(subject.gateway.confirmPaymentIntent('pi_x', card)).rejects.toThrow(/never takes card data/);
      await expect(subject.gateway.charge({ amountCents: 100, currency: 'USD', card, description: 'x', idempotencyKey: 'k' })).rejects.toThrow(/never takes card data/);
    }
  });
});
