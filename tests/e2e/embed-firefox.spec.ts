import { expect, test } from '@playwright/test';
import puppeteer, { type Browser, type Frame, type Page } from 'puppeteer-core';
import { FIREFOX_ESR_PATH } from '../../scripts/chromium-path';
import { E2E_PORT } from './e2e-env';
import { type EmbedSite, type HostPage, hostPage, startEmbedSite, startHost } from './embed-helpers';
import { TEST_CARDS } from './fixtures';

/**
 * Issue #35's form-mode story in Debian's Firefox ESR, with third-party cookies blocked (`network.cookie.cookieBehavior`
 * 1: every third-party cookie refused, what Firefox's "Custom: all cross-site cookies" setting writes). The host page
 * is on another site than the donation site (`http://localhost:<E2E_PORT+52>` framing `http://127.0.0.1:<port>`).
 * NOTE: Playwright 1.65 cannot drive Firefox ESR (its own Firefox is a patched build, and its WebDriver BiDi client
 * sends commands ESR 153 does not know); Puppeteer drives it through WebDriver BiDi, Firefox's own remote protocol
 * (decision 0104). Puppeteer's CSS and text selectors instead of roles: the accessible names are Chromium's stories'.
 */

/** The listed host's port and origin (EMBED_ORIGINS); not embed.spec.ts's, which may run at the same time. */
const HOST_PORT = E2E_PORT + 52;
const HOST = `http://localhost:${HOST_PORT}`;
/** The frame embed.js makes, inside `<reef-donate>`'s shadow root. */
const FRAME_ELEMENT = 'reef-donate >>> iframe';
/** How long a gift, or a screen change inside the frame, may take on this loaded 2-core machine. */
const STEP_TIMEOUT_MS = 20_000;
/** The expiry the donor picks: December (the last month) of next year (the second year): the selects' values, shared/card.ts. */
const EXPIRY = { month: '12', year: String(new Date().getFullYear() + 1) };

test.describe.configure({ timeout: 180_000 });

let site: EmbedSite | undefined;
let browser: Browser | undefined;
let closeHost: (() => Promise<void>) | undefined;
const pages = new Map<string, HostPage>();

test.beforeAll(async () => {
  test.setTimeout(180_000);
  site = await startEmbedSite(HOST);
  const host = await startHost(HOST_PORT, pages);
  closeHost = () => new Promise((resolve) => host.close(() => resolve()));
  browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX_ESR_PATH,
    headless: true,
    extraPrefsFirefox: { 'network.cookie.cookieBehavior': 1 },
  });
});

test.afterAll(async () => {
  await browser?.close();
  await closeHost?.();
  await site?.close();
});

/** The donation frame of `page`: the frame whose URL is under the site's `/embed/`. */
function donationFrame(page: Page, siteUrl: string): Promise<Frame> {
  return page.waitForFrame((frame) => frame.url().startsWith(`${siteUrl}/embed/`), { timeout: STEP_TIMEOUT_MS });
}

/** Whether the frame is as tall as its screen: nothing scrolls inside, and the iframe's height is its page's. */
async function frameFitsItsScreen(page: Page, frame: Frame): Promise<boolean> {
  const content = await frame.evaluate(() => ({
    scrollHeight: document.documentElement.scrollHeight,
    innerHeight: window.innerHeight,
    rootHeight: Math.ceil(document.getElementById('root')?.getBoundingClientRect().height ?? 0),
  }));
  const frameHeight = await page.$eval(FRAME_ELEMENT, (element) => element.getBoundingClientRect().height);
  return content.rootHeight > 0 && content.scrollHeight <= content.innerHeight && Math.abs(frameHeight - content.rootHeight) <= 1;
}

/** Waits until the frame's first-level heading reads `text`. */
async function expectHeading(frame: Frame, text: string): Promise<void> {
  await frame.waitForFunction((wanted) => document.querySelector('main h1')?.textContent?.trim() === wanted, { timeout: STEP_TIMEOUT_MS }, text);
}

/**
 * Opens the expiry select whose hidden input is named `name` with the keyboard and picks an option, as the Chromium
 * story's keyboard donor does (the menu of a frame as tall as its page may open past the frame's edge): Enter, `keys`,
 * Enter; waits until the field holds `value` and the menu has closed.
 */
async function pickExpiry(page: Page, frame: Frame, name: 'expiryMonth' | 'expiryYear', keys: ('End' | 'ArrowDown')[], value: string): Promise<void> {
  const combobox = `div[role="combobox"]:has(+ input[name="${name}"])`;
  await frame.focus(combobox);
  await page.keyboard.press('Enter');
  await frame.waitForSelector(`${combobox}[aria-expanded="true"]`, { timeout: STEP_TIMEOUT_MS });
  for (const key of keys) await page.keyboard.press(key);
  await page.keyboard.press('Enter');
  await frame.waitForFunction((field, wanted) => document.querySelector<HTMLInputElement>(`input[name="${field}"]`)?.value === wanted, { timeout: STEP_TIMEOUT_MS }, name, value);
  await frame.waitForSelector(`${combobox}[aria-expanded="false"]`, { timeout: STEP_TIMEOUT_MS });
}

test('in Firefox ESR with third-party cookies blocked, a donor gives $25 monthly in the form on a partner site, the frame as tall as each screen', async () => {
  const siteUrl = site?.server.baseUrl ?? '';
  pages.set('/form', hostPage(siteUrl, '<reef-donate amount="25" frequency="monthly" cause="research-science"></reef-donate>'));
  const page = (await browser?.newPage()) as Page;
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  await page.goto(`${HOST}/form`);
  // NOTE: `>>>` reaches into the element's (open) shadow root, where embed.js puts its frame.
  const iframe = await page.waitForSelector(FRAME_ELEMENT, { timeout: STEP_TIMEOUT_MS });
  expect(await iframe?.evaluate((element) => element.getAttribute('allow'))).toBe('payment');
  const frame = await donationFrame(page, siteUrl);
  expect(await frame.evaluate(() => document.hasStorageAccess())).toBe(false);
  expect(await frame.evaluate(() => document.cookie)).toBe('');

  // The selection screen with the snippet's choices made, without the site's toolbar, as tall as the frame.
  await expectHeading(frame, 'Help Protect the Belize Barrier Reef');
  await frame.waitForSelector('button[data-continue-donation]:not([disabled])', { timeout: STEP_TIMEOUT_MS });
  expect(await frame.$eval('button[value="25"]', (button) => button.getAttribute('aria-pressed'))).toBe('true');
  expect(await frame.$eval('header', (header) => getComputedStyle(header).display)).toBe('none');
  await expect.poll(() => frameFitsItsScreen(page, frame), { timeout: STEP_TIMEOUT_MS }).toBe(true);

  await frame.locator('button[data-continue-donation]').click();
  await expectHeading(frame, 'Complete Your Donation');
  await expect.poll(() => frameFitsItsScreen(page, frame), { timeout: STEP_TIMEOUT_MS }).toBe(true);
  await frame.locator('input[name="donorName"]').fill('Marisol Chan');
  await frame.locator('input[name="donorEmail"]').fill('marisol@example.org');
  await frame.locator('input[name="cardNumber"]').fill(TEST_CARDS.visa);
  await frame.locator('input[name="cardholderName"]').fill('Marisol Chan');
  await pickExpiry(page, frame, 'expiryMonth', ['End'], EXPIRY.month);
  await pickExpiry(page, frame, 'expiryYear', ['ArrowDown'], EXPIRY.year);
  await frame.locator('input[name="cvv"]').fill('123');
  await frame.locator('::-p-text(Complete Donation of $25)').click();

  // The thank-you page in the frame; the host hears of the gift, without the donor's name, e-mail or card.
  await expectHeading(frame, 'Thank You!');
  await expect.poll(() => frameFitsItsScreen(page, frame), { timeout: STEP_TIMEOUT_MS }).toBe(true);
  const completed = async () =>
    (await page.evaluate(() => (window as unknown as { reefEvents: { type: string; detail: unknown }[] }).reefEvents)).filter((event) => event.type === 'reef-donate:completed');
  await expect.poll(completed, { timeout: STEP_TIMEOUT_MS }).toEqual([
    { type: 'reef-donate:completed', detail: { amount: 25, frequency: 'monthly', campaign: null, currency: 'USD' } },
  ]);
  const events = await page.evaluate(() => JSON.stringify((window as unknown as { reefEvents: unknown[] }).reefEvents));
  expect(events).not.toMatch(/Marisol|marisol@|4242/);
  expect(errors, 'the page logged errors').toEqual([]);
  await page.close();
});
