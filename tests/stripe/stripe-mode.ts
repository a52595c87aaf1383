import type { LightMyRequestResponse } from 'fastify';
import type Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { API_PATHS } from '../../src/shared/api';
import type { ManualClock } from '../../src/server/platform/clock';
import { createStripeClient, createStripeGateway } from '../../src/server/payments/stripe/stripe-gateway';
import { createTestApp, type TestApp } from '../../src/server/testing/test-app';
import { startStripeApiStandIn, type StripeApiStandIn } from '../stand-ins/stripe-api/index.js';

/**
 * What the Stripe-mode server tests share (issues #11 and #13): the app in Stripe mode on the Stripe API stand-in,
 * and a card confirmation sent as Stripe.js sends it from the browser.
 */

/** The app in Stripe mode, its stand-in of Stripe's API, and a POST with a visitor's CSRF credentials. */
export interface StripeModeApp {
  readonly standIn: StripeApiStandIn;
  readonly t: TestApp;
  /** Stripe's SDK on the stand-in (the app's own createStripeClient), for a test to see what Stripe holds. */
  readonly stripe: Stripe;
  /** POSTs `body` as JSON to `url` with the CSRF cookie pair and header a page would send. */
  post(url: string, body: unknown): Promise<LightMyRequestResponse>;
  /**
   * Delivers to our webhook, `times` at once and signed as Stripe signs it, the stand-in's latest event of `type`
   * about payment intent `paymentIntentId` (latestEventOf); resolves with the statuses.
   */
  deliverEvent(type: string, paymentIntentId: string, times?: number): Promise<number[]>;
}

/**
 * Starts, in a `beforeAll` of the calling file, the Stripe API stand-in and the app in Stripe mode on it
 * (PAYMENT_GATEWAY=stripe with the stand-in's keys, `webhookSecret`, STRIPE_API_URL and STRIPE_JS_URL; the Stripe
 * gateway at the stand-in), with `clock` for its runners and extra `env` (say ADMIN_TOKEN) when given; before each test
 * empties the app's tables and sets `clock` to the present; closes both in an `afterAll`.
 */
export function useStripeModeApp(options: { webhookSecret: string; clock?: ManualClock; env?: Record<string, string> }): StripeModeApp {
  let standIn: StripeApiStandIn | undefined;
  let t: TestApp | undefined;
  let stripe: Stripe | undefined;
  beforeAll(async () => {
    standIn = await startStripeApiStandIn();
    stripe = createStripeClient({ secretKey: standIn.secretKey, apiUrl: standIn.url, timeoutMs: 10_000 });
    t = await createTestApp({
      clock: options.clock,
      env: {
        PAYMENT_GATEWAY: 'stripe',
        STRIPE_SECRET_KEY: standIn.secretKey,
        STRIPE_PUBLISHABLE_KEY: standIn.publishableKey,
        STRIPE_WEBHOOK_SECRET: options.webhookSecret,
        STRIPE_API_URL: standIn.url,
        STRIPE_JS_URL: standIn.stripeJsUrl,
        ...options.env,
      },
      gateway: createStripeGateway({ secretKey: standIn.secretKey, apiUrl: standIn.url, timeoutMs: 10_000 }),
    });
  });
  beforeEach(async () => {
    await t?.reset();
    options.clock?.set(new Date());
  });
  afterAll(async () => {
    await t?.close();
    await standIn?.close();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('The Stripe-mode app is used before its beforeAll ran');
    return value;
  };
  return {
    get standIn() {
      return started(standIn);
    },
    get t() {
      return started(t);
    },
    get stripe() {
      return started(stripe);
    },
    post: (url, body) => started(t).post(url, body),
    async deliverEvent(type, paymentIntentId, times = 1) {
      const payload = JSON.stringify(latestEventOf(started(standIn), type, paymentIntentId));
      const signature = started(stripe).webhooks.generateTestHeaderString({ payload, secret: options.webhookSecret });
      const headers = { 'content-type': 'application/json', 'stripe-signature': signature };
      const answers = await Promise.all(Array.from({ length: times }, () => started(t).app.inject({ method: 'POST', url: API_PATHS.stripeWebhook, headers, payload })));
      return answers.map((answer) => answer.statusCode);
    },
  };
}

/**
 * The stand-in's latest event of `type` about payment intent `paymentIntentId`: the intent itself, or an object of it
 * (its charge, a refund, a dispute). Throws when there is none.
 */
export function latestEventOf(standIn: StripeApiStandIn, type: string, paymentIntentId: string): Stripe.Event {
  const event = [...standIn.events].reverse().find((candidate) => {
    const object = candidate.data.object as { id?: string; payment_intent?: string | { id: string } | null };
    const intent = typeof object.payment_intent === 'string' ? object.payment_intent : object.payment_intent?.id;
    return candidate.type === type && (object.id === paymentIntentId || intent === paymentIntentId);
  });
  if (!event) throw new Error(`No ${type} event of ${paymentIntentId}`);
  return event;
}

/**
 * Confirms payment intent `paymentIntentId` with a card as Stripe.js does from the browser: the publishable key
 * and the client secret, the card fields straight to Stripe (the stand-in), never to our server.
 */
export async function confirmInBrowser(standIn: StripeApiStandIn, paymentIntentId: string, clientSecret: string, cardNumber: string): Promise<void> {
  const body = new URLSearchParams({
    key: standIn.publishableKey,
    client_secret: clientSecret,
    'payment_method_data[type]': 'card',
    'payment_method_data[card][number]': cardNumber,
    'payment_method_data[card][exp_month]': '12',
    'payment_method_data[card][exp_year]': String(new Date().getFullYear() + 2),
    'payment_method_data[card][cvc]': '123',
    return_url: 'http://127.0.0.1/donate/thank-you',
  });
  await fetch(`${standIn.url}/v1/payment_intents/${paymentIntentId}/confirm`, { method: 'POST', body });
}
