/**
 * Tests of the Stripe.js stand-in in Chromium (playwright-core, Debian's /usr/bin/chromium): a tiny
 * page on another origin loads `${url}/v3/stripe.js`, mounts a Payment Element in deferred mode, a
 * donor types a test card into the iframe, and the page confirms a PaymentIntent created with the SDK.
 */
import { build } from 'esbuild';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type FrameLocator, type Page } from 'playwright-core';
import Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, it } from 'vitest';
import { startStripeApiStandIn, type StripeApiStandIn } from './stripe-api/index.js';

let standIn: StripeApiStandIn;
let stripe: Stripe;
let site: Server;
let siteUrl: string;
let browser: Browser;
let page: Page;

/** The site's page: loads the stand-in's Stripe.js, mounts the Payment Element and exposes `pay(clientSecret)`. */
function sitePage(): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Donate</title>
<script src="${standIn.stripeJsUrl}"></script></head>
<body><main><button id="before" type="button">Before</button><form id="form"><div id="payment"></div></form></main>
<script>
  const stripe = Stripe(${JSON.stringify(standIn.publishableKey)});
  const elements = stripe.elements({ mode: 'payment', amount: 2500, currency: 'usd', appearance: { theme: 'stripe' } });
  const element = elements.create('payment', { layout: 'tabs' });
  window.standInEvents = [];
  element.on('ready', () => window.standInEvents.push('ready'));
  element.on('change', (event) => window.standInEvents.push('change:' + event.complete + ':' + event.value.type));
  element.mount('#payment');
  window.pay = async (clientSecret) => {
    const submitted = await elements.submit();
    if (submitted.error) return { submitError: submitted.error };
    return stripe.confirmPayment({ elements, clientSecret, confirmParams: { return_url: location.href }, redirect: 'if_required' });
  };
  window.confirmSaved = (clientSecret, paymentMethod) =>
    stripe.confirmPayment({ clientSecret, confirmParams: { payment_method: paymentMethod }, redirect: 'if_required' });
  window.confirmWithoutSubmit = (clientSecret) =>
    stripe.confirmPayment({ elements, clientSecret, confirmParams: { return_url: location.href }, redirect: 'if_required' }).then(
      () => 'resolved', (error) => error.name + ': ' + error.message);
</script></body></html>`;
}

/** The same page written with @stripe/react-stripe-js: Stripe.js is loaded first, so `loadStripe` finds `window.Stripe`. */
function reactPage(): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Donate (React)</title>
<script src="${standIn.stripeJsUrl}"></script>
<script>window.standInPublishableKey = ${JSON.stringify(standIn.publishableKey)};</script></head>
<body><div id="root"></div><script src="/react-form.js"></script></body></html>`;
}

interface PayResult {
  submitError?: { type: string; code: string; message: string };
  paymentIntent?: { id: string; status: string };
  error?: { type: string; code?: string; decline_code?: string; message: string; payment_intent?: { id: string; status: string } };
}

declare global {
  interface Window {
    pay(clientSecret: string): Promise<PayResult>;
    confirmWithoutSubmit(clientSecret: string): Promise<string>;
    confirmSaved(clientSecret: string, paymentMethod: string): Promise<PayResult>;
    standInEvents: string[];
  }
}

beforeAll(async () => {
  standIn = await startStripeApiStandIn();
  stripe = new Stripe(standIn.secretKey, { host: '127.0.0.1', port: standIn.port, protocol: 'http', maxNetworkRetries: 0 });
  const reactBundle = await build({
    entryPoints: [new URL('./fixtures/react-payment-form.tsx', import.meta.url).pathname],
    bundle: true,
    write: false,
    format: 'iife',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"development"' },
    logLevel: 'silent',
  });
  site = createServer((request, response) => {
    if (request.url === '/react-form.js') {
      response.writeHead(200, { 'Content-Type': 'text/javascript' }).end(reactBundle.outputFiles[0]?.text);
      return;
    }
    response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(request.url === '/react' ? reactPage() : sitePage());
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/donate`;
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => (site ? site.close(() => resolve()) : resolve()));
  await standIn?.close();
});

let pageRequests: { url: string; body: string; fromSitePage: boolean }[];

beforeEach(async () => {
  page = await browser.newPage();
  pageRequests = [];
  page.on('request', (request) => pageRequests.push({ url: request.url(), body: request.postData() ?? '', fromSitePage: request.frame() === page.mainFrame() }));
  await page.goto(siteUrl);
  await page.waitForFunction(() => window.standInEvents?.includes('ready'));
});

afterEach(async () => {
  await page?.close();
});

function cardFrame(): FrameLocator {
  return page.frameLocator('iframe[title="Secure payment input frame"]');
}

async function typeCard(number: string): Promise<void> {
  const frame = cardFrame();
  await frame.getByLabel('Card number').fill(number);
  await frame.getByLabel('Expiration date').fill(`12 / ${String(new Date().getFullYear() + 3).slice(2)}`);
  await frame.getByLabel('Security code').fill('123');
}

async function newIntent(): Promise<Stripe.PaymentIntent> {
  return stripe.paymentIntents.create({ amount: 2500, currency: 'usd', automatic_payment_methods: { enabled: true } });
}

describe('Stripe.js stand-in', () => {
  it('confirms a payment with 4242 4242 4242 4242 typed into the iframe, and the page never sends the number', async () => {
    await typeCard('4242 4242 4242 4242');
    expect(await page.evaluate(() => window.standInEvents.at(-1))).toBe('change:true:card');
    const intent = await newIntent();
    const result = await page.evaluate((secret) => window.pay(secret), intent.client_secret ?? '');
    expect(result.paymentIntent).toMatchObject({ id: intent.id, status: 'succeeded' });
    const charge = (await stripe.paymentIntents.retrieve(intent.id, { expand: ['latest_charge'] })).latest_charge as Stripe.Charge;
    expect(charge.payment_method_details?.card).toMatchObject({ brand: 'visa', last4: '4242' });
    const confirmCall = pageRequests.find((request) => request.url.endsWith(`/v1/payment_intents/${intent.id}/confirm`));
    expect(confirmCall?.fromSitePage).toBe(false);
    expect(pageRequests.filter((request) => request.fromSitePage).every((request) => !request.body.includes('4242424242424242'))).toBe(true);
  });

  it('answers a declined card with Stripe error and message', async () => {
    await typeCard('4000 0000 0000 9995');
    const intent = await newIntent();
    const result = await page.evaluate((secret) => window.pay(secret), intent.client_secret ?? '');
    expect(result.error).toMatchObject({ type: 'card_error', code: 'card_declined', decline_code: 'insufficient_funds', message: 'Your card has insufficient funds.' });
    expect(result.error?.payment_intent).toMatchObject({ id: intent.id, status: 'requires_payment_method' });
  });

  it('validates the fields on submit, as Stripe.js words it, and requires submit() before confirmPayment in deferred mode', async () => {
    await cardFrame().getByLabel('Card number').fill('4242 4242');
    const intent = await newIntent();
    const result = await page.evaluate((secret) => window.pay(secret), intent.client_secret ?? '');
    expect(result.submitError).toMatchObject({ type: 'validation_error', code: 'incomplete_number', message: 'Your card number is incomplete.' });
    await expect(cardFrame().getByText('Your card number is incomplete.').textContent()).resolves.toBe('Your card number is incomplete.');
    expect(await page.evaluate((secret) => window.confirmWithoutSubmit(secret), intent.client_secret ?? '')).toMatch(/^IntegrationError: elements.submit\(\) must be called/);
  });

  it('shows a 3-D Secure challenge in the frame; completing it succeeds', async () => {
    await typeCard('4000 0027 6000 3184');
    const intent = await newIntent();
    const paying = page.evaluate((secret) => window.pay(secret), intent.client_secret ?? '');
    await cardFrame().getByRole('button', { name: 'Complete authentication' }).click();
    expect((await paying).paymentIntent).toMatchObject({ id: intent.id, status: 'succeeded' });
  });

  it('confirms an off-session payment declined authentication_required with its saved card, without Elements: 3-D Secure in an overlay', async () => {
    const customer = await stripe.customers.create({});
    const declined = await stripe.paymentIntents
      .create({
        amount: 3000,
        currency: 'usd',
        customer: customer.id,
        payment_method: 'pm_card_authenticationRequired',
        off_session: true,
        confirm: true,
        automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
      })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    if (!(declined instanceof Stripe.errors.StripeCardError) || !declined.payment_intent || !declined.payment_method) throw new Error('no authentication_required decline');
    expect(declined.code).toBe('authentication_required');
    const { client_secret: clientSecret, id } = declined.payment_intent;
    const confirming = page.evaluate(([secret, method]) => window.confirmSaved(secret, method), [clientSecret ?? '', declined.payment_method.id] as const);
    await page.frameLocator('iframe[title="3D Secure authentication"]').getByRole('button', { name: 'Complete authentication' }).click();
    expect((await confirming).paymentIntent).toMatchObject({ id, status: 'succeeded' });
    expect(await page.locator('iframe[title="3D Secure authentication"]').count(), 'the overlay is gone').toBe(0);
    expect(pageRequests.find((request) => request.url.endsWith(`/v1/payment_intents/${id}/confirm`))?.fromSitePage).toBe(true);
  });

  it('is reachable by keyboard: Tab from the page moves into the card number field', async () => {
    await page.focus('#before');
    await page.keyboard.press('Tab');
    const focused = await cardFrame().getByLabel('Card number').evaluate((input) => input === document.activeElement && document.hasFocus());
    expect(focused).toBe(true);
  });

  it('works under @stripe/react-stripe-js: <Elements> with loadStripe, <PaymentElement>, useStripe and useElements', async () => {
    const warnings: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'warning' || message.type() === 'error') warnings.push(message.text());
    });
    await page.goto(siteUrl.replace('/donate', '/react'));
    await page.waitForFunction(() => window.reactReady === true && typeof window.reactPay === 'function');
    await typeCard('5555 5555 5555 4444');
    const intent = await newIntent();
    const result = (await page.evaluate((secret) => window.reactPay?.(secret), intent.client_secret ?? '')) as PayResult;
    expect(result.paymentIntent).toMatchObject({ id: intent.id, status: 'succeeded' });
    expect(await page.locator('iframe[title="Secure payment input frame"]').count()).toBe(1);
    expect(warnings).toEqual([]);
  });
});
