import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page, Request } from '@playwright/test';
import { API_PATHS } from '../../src/shared/api';
import { recurringPlans } from '../../src/server/db/schema';
import { openTestDatabase, type TestDatabase } from '../../src/server/testing/test-database';
import { startServerProcess, succeededDonationCount, type ServerProcess } from '../../src/server/testing/server-process';
import { startStripeApiStandIn, type StripeApiStandIn } from '../stand-ins/stripe-api/index.js';
import { expectNoAxeViolations } from './a11y-helpers';
import { chooseDonation, expect, field, TEST_CARDS, test as base } from './fixtures';
import { manageLinkPath, waitForMail, waitForReceipt } from './mail-helpers';
import { expectFocusVisible, tabTo } from './keyboard-helpers';
import { expectNoHorizontalScroll } from './reflow-helpers';
import { CARD_FRAME, STRIPE_FUTURE_EXPIRY, stripeServerEnv, typeCard, WEBHOOK_SECRET } from './stripe-helpers';

/**
 * Issue #11 in a real browser: the site in Stripe mode (PAYMENT_GATEWAY=stripe), its own server process per test
 * (own port and DATA_DIR, the shared build) talking to the Stripe API stand-in, whose Stripe.js stand-in renders the
 * Payment Element's card fields in an iframe of its own origin. The stand-in sends its signed events to the server's
 * webhook, as Stripe would.
 */

/**
 * How long a payment may take to go through: create-payment-intent, Stripe's confirm, confirm-donation (which asks
 * the stand-in again), on this 2-core machine while other specs run.
 */
const PAYMENT_TIMEOUT_MS = 20_000;

/** Stripe's test card whose bank asks for 3-D Secure on every payment, and declines off-session ones `authentication_required`. */
const AUTHENTICATION_ALWAYS_CARD = '4000 0027 6000 3184';

const digits = (cardNumber: string) => cardNumber.replace(/\D/g, '');


/** The server the browser talks to, and the requests the page sent it (every frame's, from the page's context). */
interface StripeSite {
  server: ServerProcess;
  /** Every request the browser sent to our server so far. */
  requests: Request[];
}

const test = base.extend<{ stripeApi: StripeApiStandIn; dataDir: string; database: TestDatabase; stripeServer: ServerProcess; site: StripeSite }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright requires a destructuring pattern, even with no dependencies.
  stripeApi: async ({}, use) => {
    const standIn = await startStripeApiStandIn();
    try {
      await use(standIn);
    } finally {
      await standIn.close();
    }
  },
  /** The server's DATA_DIR (its e-mails in `mail/`), removed after the test. */
  // eslint-disable-next-line no-empty-pattern -- Playwright requires a destructuring pattern, even with no dependencies.
  dataDir: async ({}, use) => {
    const dataDir = await mkdtemp(join(tmpdir(), 'donation-stripe-mode-'));
    try {
      await use(dataDir);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  },
  /** The server's database: a migrated copy of the run's template (playwright.config.ts' global setup), dropped after the test. */
  // eslint-disable-next-line no-empty-pattern -- Playwright requires a destructuring pattern, even with no dependencies.
  database: async ({}, use) => {
    const database = await openTestDatabase();
    try {
      await use(database);
    } finally {
      await database.close();
    }
  },
  // A real server in Stripe mode on its own DATA_DIR and database; stopped after the test.
  stripeServer: async ({ stripeApi, dataDir, database }, use, testInfo) => {
    const server = await startServerProcess(stripeServerEnv(stripeApi, dataDir, database));
    stripeApi.setWebhook({ url: `${server.baseUrl}${API_PATHS.stripeWebhook}`, secret: WEBHOOK_SECRET });
    try {
      await use(server);
    } finally {
      await server.stop();
      if (testInfo.status !== testInfo.expectedStatus) {
        await testInfo.attach('stripe-mode-server.log', { body: [...server.lines, ...server.stderrLines].join('\n'), contentType: 'text/plain' });
      }
    }
  },
  baseURL: async ({ stripeServer }, use) => {
    await use(stripeServer.baseUrl);
  },
  site: async ({ stripeServer, context }, use) => {
    const requests: Request[] = [];
    context.on('request', (request) => {
      if (request.url().startsWith(stripeServer.baseUrl)) requests.push(request);
    });
    await use({ server: stripeServer, requests });
  },
});

/** Fills the donor's required details and types `cardNumber` into the Payment Element's iframe, as a donor would. */
async function fillStripeForm(page: Page, { name, email, cardNumber }: { name: string; email: string; cardNumber: string }): Promise<void> {
  await field(page, 'Full Name').fill(name);
  await field(page, 'Email Address').fill(email);
  await typeCard(page, cardNumber);
}


/**
 * Clicks `button` as a donor does: scrolled into view, then clicked once the page has painted.
 * NOTE: Chromium hit-tests a click made in the same frame as Playwright's scroll against the card iframe's place
 * before the scroll, so the click lands in Stripe's card fields (the page gets no event at all). Two animation
 * frames let it paint the scrolled page first.
 */
async function clickScrolledIntoView(button: Locator): Promise<void> {
  await button.scrollIntoViewIfNeeded();
  await button.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  await button.click();
}

/** Fails when any request the page sent our server carries `cardNumber` (with or without spaces): PCI DSS SAQ A. */
function expectNoCardNumberSentTo(site: StripeSite, cardNumber: string): void {
  expect(site.requests.length, 'the page talked to our server').toBeGreaterThan(0);
  for (const request of site.requests) {
    const sent = `${request.url()} ${request.postData() ?? ''}`;
    expect(sent, `${request.method()} ${request.url()}`).not.toContain(digits(cardNumber));
    expect(sent, `${request.method()} ${request.url()}`).not.toContain(cardNumber);
  }
}

test.describe('in Stripe mode', () => {
  // NOTE: each test starts its own server process (the run's bundle of main.ts) beside the Stripe stand-in: 30-40 s of a
  // story on this 2-core machine while the other workers run; every wait inside is still bounded.
  test.describe.configure({ timeout: 120_000 });
  test('a donor gives $50 through Stripe\'s card fields, lands on the thank-you page, and her card number never reaches our server', async ({
    page,
    site,
    stripeApi,
  }) => {
    await chooseDonation(page, { preset: '$50', frequency: 'one-time', cause: 'marine-protected-areas' });
    await expect(page.getByRole('heading', { name: 'Payment Information' })).toBeVisible();
    await expect(field(page, 'Card Number'), "the spec's own card fields give way to Stripe's").toHaveCount(0);
    await expect(page.getByText('Your payment information is encrypted and secure.')).toBeVisible();
    const submit = page.getByRole('button', { name: 'Complete Donation of $50' });

    await fillStripeForm(page, { name: 'Marisol Chan', email: 'marisol@example.org', cardNumber: TEST_CARDS.visa });
    const paidAtStripe = page.waitForRequest((request) => /\/v1\/payment_intents\/pi_\w+\/confirm$/.test(request.url()));
    await clickScrolledIntoView(submit);
    // The card went from the browser to Stripe (the stand-in) itself...
    expect((await paidAtStripe).postData()).toContain(digits(TEST_CARDS.visa));

    await expect(page).toHaveURL(/\/donate\/thank-you$/, { timeout: PAYMENT_TIMEOUT_MS });
    await expect(page.getByRole('heading', { name: 'Thank You!' })).toBeVisible();
    await expect(page.getByText('$50', { exact: true }).first()).toBeVisible();
    await expect(page.getByText('Marisol Chan').first()).toBeVisible();
    const [intent] = stripeApi.paymentIntents;
    expect(intent).toMatchObject({ status: 'succeeded', amount: 5000, currency: 'usd' });
    await expect(page.getByText(/^(pi|ch|py)_\w+$/)).toBeVisible();
    await expect.poll(() => succeededDonationCount(site.server.baseUrl)).toBe(1);

    // ...and never to ours: not in create-payment-intent, confirm-donation or anything else the page sent.
    expect(site.requests.map((request) => new URL(request.url()).pathname)).toEqual(
      expect.arrayContaining([API_PATHS.createPaymentIntent, API_PATHS.confirmDonation]),
    );
    expect(site.requests.some((request) => request.url().endsWith(API_PATHS.processDonation))).toBe(false);
    expectNoCardNumberSentTo(site, TEST_CARDS.visa);
  });

  test('a donor who covers the card fee is charged the total the server computes: Stripe receives it, and the gift and fee are recorded (issue #23)', async ({
    page,
    site,
    stripeApi,
  }) => {
    await chooseDonation(page, { preset: '$50', frequency: 'one-time', cause: 'research-science' });
    await fillStripeForm(page, { name: 'Marisol Chan', email: 'marisol@example.org', cardNumber: TEST_CARDS.visa });
    // (50.00 + 0.30) / (1 - 2.9 %) = 51.8023..., rounded up: $51.81, of which $1.81 covers the fee.
    await page.getByRole('checkbox', { name: 'Add $1.81 to cover the card processing fee' }).check();
    const created = page.waitForRequest((request) => request.url().endsWith(API_PATHS.createPaymentIntent));
    await clickScrolledIntoView(page.getByRole('button', { name: 'Complete Donation of $51.81' }));
    expect((await created).postDataJSON()).toMatchObject({ amount: 50, coverFee: true });

    await expect(page.getByRole('heading', { name: 'Thank You!' })).toBeVisible({ timeout: PAYMENT_TIMEOUT_MS });
    await expect(page.locator('dl').first()).toContainText('Total charged$51.81');
    const [intent] = stripeApi.paymentIntents;
    expect(intent).toMatchObject({ status: 'succeeded', amount: 5181, currency: 'usd' });
    await expect.poll(() => succeededDonationCount(site.server.baseUrl)).toBe(1);
  });

  test('a donor whose card has insufficient funds sees why, stays on the form, and gives with another card on the same payment intent', async ({
    page,
    site,
    stripeApi,
  }) => {
    await chooseDonation(page, { preset: '$10', frequency: 'monthly', cause: 'research-science' });
    await fillStripeForm(page, { name: 'Andre Young', email: 'andre@example.org', cardNumber: TEST_CARDS.insufficientFunds });
    const submit = page.getByRole('button', { name: 'Complete Donation of $10' });
    await clickScrolledIntoView(submit);

    await expect(page.getByRole('alert')).toHaveText('Error: Your card has insufficient funds.', { timeout: PAYMENT_TIMEOUT_MS });
    await expect(page).toHaveURL(/\/donate\/form$/);
    await expect(submit).toBeEnabled();
    expect(await succeededDonationCount(site.server.baseUrl)).toBe(0);

    await typeCard(page, TEST_CARDS.visa);
    await clickScrolledIntoView(submit);
    await expect(page.getByRole('heading', { name: 'Thank You!' })).toBeVisible({ timeout: PAYMENT_TIMEOUT_MS });
    await expect.poll(() => succeededDonationCount(site.server.baseUrl)).toBe(1);
    expect(stripeApi.paymentIntents.map((intent) => intent.status), 'one intent, declined then paid').toEqual(['succeeded']);
    expectNoCardNumberSentTo(site, TEST_CARDS.insufficientFunds);
    expectNoCardNumberSentTo(site, TEST_CARDS.visa);
  });

  test('a donor whose browser closes right after paying still has her gift recorded, once, by Stripe\'s webhook', async ({
    page,
    site,
    stripeApi,
  }) => {
    await chooseDonation(page, { preset: '$25', frequency: 'one-time', cause: 'education-outreach' });
    await fillStripeForm(page, { name: 'Lucia Martinez', email: 'lucia@example.org', cardNumber: TEST_CARDS.visa });
    // The browser goes away between Stripe's answer and the page's call to confirm-donation, which never leaves.
    let confirmDonationSent = false;
    await page.route(`**${API_PATHS.confirmDonation}`, () => {
      confirmDonationSent = true;
    });
    const paidAtStripe = page.waitForResponse((response) => /\/v1\/payment_intents\/pi_\w+\/confirm$/.test(response.url()));
    await clickScrolledIntoView(page.getByRole('button', { name: 'Complete Donation of $25' }));
    expect((await paidAtStripe).status()).toBe(200);
    await expect.poll(() => confirmDonationSent, { timeout: PAYMENT_TIMEOUT_MS }).toBe(true);
    expectNoCardNumberSentTo(site, TEST_CARDS.visa);
    await page.close();

    const [intent] = stripeApi.paymentIntents;
    expect(intent?.status).toBe('succeeded');
    await expect.poll(() => succeededDonationCount(site.server.baseUrl), { message: 'the webhook recorded the gift', timeout: PAYMENT_TIMEOUT_MS }).toBe(1);

    // Stripe delivers at least once: the same event twice more, at once, records nothing new.
    const succeeded = stripeApi.events.find((event) => event.type === 'payment_intent.succeeded');
    if (!succeeded) throw new Error('the stand-in sent no payment_intent.succeeded event');
    await stripeApi.deliver(succeeded, { times: 2 });
    await stripeApi.deliveriesSettled();
    const deliveries = stripeApi.deliveries.filter((delivery) => delivery.eventId === succeeded.id);
    expect(deliveries.map((delivery) => delivery.status)).toEqual([200, 200, 200]);
    expect(await succeededDonationCount(site.server.baseUrl)).toBe(1);
  });

  test('a dedicated gift (issue #23) recorded by both confirm-donation and the webhook sends exactly one card, with the honoree and no amount', async ({
    page,
    site,
    stripeApi,
    dataDir,
  }) => {
    const mailDir = join(dataDir, 'mail');
    await chooseDonation(page, { preset: '$50', frequency: 'one-time', cause: 'marine-protected-areas' });
    await fillStripeForm(page, { name: 'Marisol Chan', email: 'marisol@example.org', cardNumber: TEST_CARDS.visa });
    await page.getByRole('checkbox', { name: 'Give this gift in honour or in memory of someone' }).check();
    await page.getByRole('radio', { name: 'In memory of' }).check();
    await field(page, "Honoree's Name").fill('Grandma Rosa');
    await page.getByRole('checkbox', { name: 'Send a card about this gift by e-mail' }).check();
    await field(page, "Recipient's Name").fill('Luis Chan');
    await field(page, "Recipient's Email").fill('luis@example.org');
    await clickScrolledIntoView(page.getByRole('button', { name: 'Complete Donation of $50' }));
    await expect(page.getByRole('heading', { name: 'Thank You!' })).toBeVisible({ timeout: PAYMENT_TIMEOUT_MS });
    await expect.poll(() => succeededDonationCount(site.server.baseUrl)).toBe(1);

    // Stripe's payment_intent.succeeded reached the webhook too (and once more, as Stripe may deliver it twice).
    const succeeded = stripeApi.events.find((event) => event.type === 'payment_intent.succeeded');
    if (!succeeded) throw new Error('the stand-in sent no payment_intent.succeeded event');
    await stripeApi.deliver(succeeded);
    await stripeApi.deliveriesSettled();
    const card = await waitForMail(mailDir, 'luis@example.org', 'tribute_card');
    expect(card.subject).toBe('Marisol Chan made a gift in memory of Grandma Rosa');
    for (const part of [card.subject ?? '', card.text ?? '', card.html || '']) expect(part).not.toMatch(/\$\s*\d|50\.00|USD/);
    expect((await waitForReceipt(mailDir, 'marisol@example.org')).text).toContain('In memory of Grandma Rosa');
    expect((await readdir(mailDir)).filter((name) => name.includes('-tribute_card-'))).toHaveLength(1);
  });

  test('a monthly donor updates her card on the manage page through Stripe\'s card fields (a SetupIntent), and the card number never reaches our server', async ({
    page,
    site,
    dataDir,
    stripeApi,
  }) => {
    const email = 'ines@example.org';
    await chooseDonation(page, { preset: '$25', frequency: 'monthly', cause: 'education-outreach' });
    await fillStripeForm(page, { name: 'Ines Ruiz', email, cardNumber: TEST_CARDS.visa });
    await clickScrolledIntoView(page.getByRole('button', { name: 'Complete Donation of $25' }));
    await expect(page.getByRole('heading', { name: 'Thank You!' })).toBeVisible({ timeout: PAYMENT_TIMEOUT_MS });

    const managePath = manageLinkPath(await waitForReceipt(join(dataDir, 'mail'), email));
    expect(managePath, 'a manage link in the receipt').toBeTruthy();
    await page.goto(managePath ?? '');
    await expect(page.getByRole('definition').filter({ hasText: 'Visa ending in 4242' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Update your card' })).toBeVisible();
    await expect(field(page, 'Card Number'), "the spec's own card fields give way to Stripe's").toHaveCount(0);

    await typeCard(page, TEST_CARDS.mastercard);
    const savedAtStripe = page.waitForRequest((request) => /\/v1\/setup_intents\/seti_\w+\/confirm$/.test(request.url()));
    await clickScrolledIntoView(page.getByRole('button', { name: 'Update Card' }));
    expect((await savedAtStripe).postData()).toContain(digits(TEST_CARDS.mastercard));
    await expect(page.getByRole('status').filter({ hasText: 'Your new card is saved.' })).toBeVisible({ timeout: PAYMENT_TIMEOUT_MS });
    await expect(page.getByRole('definition').filter({ hasText: 'Mastercard ending in 4444' })).toBeVisible();
    expect(stripeApi.requests.some((request) => request.method === 'POST' && request.path === '/v1/setup_intents'), 'our server created the SetupIntent').toBe(true);
    expectNoCardNumberSentTo(site, TEST_CARDS.mastercard);
  });

  test('a monthly donor whose bank wants a renewal authenticated confirms it from the e-mailed link, with the keyboard alone', async ({
    page,
    site,
    dataDir,
    database,
    stripeApi,
  }) => {
    const email = 'rosa@example.org';
    const mailDir = join(dataDir, 'mail');
    await chooseDonation(page, { preset: '$25', frequency: 'monthly', cause: 'marine-protected-areas' });
    await fillStripeForm(page, { name: 'Rosa Cal', email, cardNumber: AUTHENTICATION_ALWAYS_CARD });
    await clickScrolledIntoView(page.getByRole('button', { name: 'Complete Donation of $25' }));
    // This card's bank asks for 3-D Secure on every payment: the first one in the Payment Element's frame.
    await page.frameLocator(CARD_FRAME).getByRole('button', { name: 'Complete authentication' }).click({ timeout: PAYMENT_TIMEOUT_MS });
    await expect(page.getByRole('heading', { name: 'Thank You!' })).toBeVisible({ timeout: PAYMENT_TIMEOUT_MS });
    await waitForReceipt(mailDir, email);

    // A month later. NOTE: Stripe mode refuses billing's `asOf` (it moves real money), so the plan's next try is moved
    // into the past in the stopped server's database, and the restarted server's billing runner, which runs at start,
    // charges the renewal off-session: the bank declines it `authentication_required`.
    const port = new URL(site.server.baseUrl).port;
    await site.server.stop();
    const moved = await database.db.update(recurringPlans).set({ nextAttemptAt: new Date(Date.now() - 60_000) }).returning({ id: recurringPlans.id });
    expect(moved, 'one plan').toHaveLength(1);
    const restarted = await startServerProcess({ ...stripeServerEnv(stripeApi, dataDir, database), PORT: port });
    // The card update's button is enabled once its Payment Element is ready, after the page loads and again after the
    // plan's new status remounts it: axe scanned it mid-transition from its disabled colours otherwise.
    const cardUpdateReady = () => expect(page.getByRole('button', { name: 'Update Card' })).toBeEnabled({ timeout: PAYMENT_TIMEOUT_MS });
    try {
      const confirmLink = manageLinkPath(await waitForMail(mailDir, email, 'renewal_needs_authentication'));
      expect(confirmLink, 'a manage link in the e-mail asking to confirm the payment').toBeTruthy();
      expect(await succeededDonationCount(restarted.baseUrl), 'nothing charged without the donor').toBe(1);

      await page.goto(confirmLink ?? '');
      await expect(page.getByRole('heading', { name: 'Confirm your payment' })).toBeVisible();
      const confirm = page.getByRole('button', { name: 'Confirm Payment of $25' });
      await expect(confirm).toBeEnabled();
      await cardUpdateReady();
      await expectNoAxeViolations(page, 'the manage page with a payment to confirm');
      await page.setViewportSize({ width: 320, height: 800 });
      await expectNoHorizontalScroll(page, 'the manage page with a payment to confirm, at 320 px');
      await page.setViewportSize({ width: 1280, height: 800 });
      await tabTo(page, confirm);
      await expectFocusVisible(page);
      await page.keyboard.press('Enter');
      // The bank's challenge opens over the page, its button focused, as Stripe's does.
      const challenge = page.frameLocator('iframe[title="3D Secure authentication"]').getByRole('button', { name: 'Complete authentication' });
      await expect(challenge).toBeFocused({ timeout: PAYMENT_TIMEOUT_MS });
      await page.keyboard.press('Enter');

      await expect(page.getByRole('status').filter({ hasText: 'Your payment is confirmed.' })).toBeVisible({ timeout: PAYMENT_TIMEOUT_MS });
      await expect(page.getByRole('heading', { name: 'Confirm your payment' })).toHaveCount(0);
      expect(await succeededDonationCount(restarted.baseUrl), 'the renewal, once').toBe(2);
      await waitForReceipt(mailDir, email, 2);
      await cardUpdateReady();
      await expectNoAxeViolations(page, 'the manage page once the payment is confirmed');
    } finally {
      await restarted.stop();
    }
  });

  test("the Stripe-mode form has no axe violations and a keyboard user reaches Stripe's card fields and the button", async ({ page }) => {
    await chooseDonation(page, { preset: '$100', frequency: 'yearly', cause: 'sustainable-development' });
    await expect(page.frameLocator(CARD_FRAME).getByLabel('Card number')).toBeVisible();
    await expectNoAxeViolations(page, 'the Stripe-mode form');

    await field(page, 'Full Name').fill('Keisha Flowers');
    await field(page, 'Email Address').fill('keisha@example.org');
    await tabTo(page, field(page, 'Country'));
    await page.keyboard.press('Tab');
    const card = page.frameLocator(CARD_FRAME);
    await expect(card.getByLabel('Card number')).toBeFocused();
    await page.keyboard.type(digits(TEST_CARDS.visa));
    await page.keyboard.press('Tab');
    await expect(card.getByLabel('Expiration date')).toBeFocused();
    await page.keyboard.type(STRIPE_FUTURE_EXPIRY.replace(/\D/g, ''));
    await page.keyboard.press('Tab');
    await page.keyboard.type('123');
    const submit = page.getByRole('button', { name: 'Complete Donation of $100' });
    await expect(submit).toBeEnabled();
    await tabTo(page, submit);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'Thank You!' })).toBeVisible({ timeout: PAYMENT_TIMEOUT_MS });
  });
});

base.describe('in test mode', () => {
  base('a donor on the form loads no Stripe code at all: neither Stripe.js nor the Stripe chunk', async ({ page }) => {
    const loaded: string[] = [];
    page.on('request', (request) => loaded.push(request.url()));
    await chooseDonation(page, { frequency: 'one-time', cause: 'research-science' });
    await expect(field(page, 'Card Number')).toBeVisible();
    expect(loaded.some((url) => url.includes('donation-form-page')), 'the form chunk was loaded').toBe(true);
    expect(loaded.filter((url) => /stripe/i.test(url))).toEqual([]);
  });
});
