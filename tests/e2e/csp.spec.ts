import { test as base, type Page } from '@playwright/test';
import { chooseDonation, chooseOption, expect, field, fillDonorForm, TEST_CARDS, test } from './fixtures';

/**
 * The Content-Security-Policy in a real browser (issue #4, "Headers": "a real-browser test loads every screen
 * and asserts 0 CSP violations"): every screen, and the MUI parts that insert styles at run time (the custom
 * amount, the Select menus, the Snackbar), work under the policy with emotion's nonce.
 * NOTE: violations are gathered twice: `securitypolicyviolation` events (an init script listens from the
 * first byte of each document, so violations while parsing the page count too) and console messages about
 * the Content Security Policy (which the fixtures also fail on when they are errors).
 */

/** What the page records of one violation. */
interface Violation {
  directive: string;
  blocked: string;
  sample: string;
}

declare global {
  interface Window {
    /** CSP violations seen by this document (filled by {@link watchCsp}'s init script). */
    __cspViolations?: Violation[];
  }
}

/** Starts recording CSP violations and CSP console messages of every document `page` loads; returns the console list. */
async function watchCsp(page: Page): Promise<string[]> {
  await page.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      window.__cspViolations?.push({ directive: event.violatedDirective, blocked: event.blockedURI, sample: event.sample });
    });
  });
  const messages: string[] = [];
  page.on('console', (message) => {
    if (/Content[ -]Security[ -]Policy/i.test(message.text())) messages.push(`${message.type()}: ${message.text()}`);
  });
  return messages;
}

/** Asserts that the current document and the console reported no CSP violation so far; `screen` names the state. */
async function expectNoCspViolations(page: Page, consoleMessages: readonly string[], screen: string): Promise<void> {
  const violations = await page.evaluate(() => window.__cspViolations ?? null);
  expect(violations, `the CSP listener runs on ${screen}`).not.toBeNull();
  expect(violations, `CSP violations on ${screen}`).toEqual([]);
  expect(consoleMessages, `CSP console messages on ${screen}`).toEqual([]);
}

/** Asserts that every style element on the page carries the page's CSP nonce (so the policy, not luck, let them in). */
async function expectNoncedStyles(page: Page): Promise<void> {
  const { nonce, styles } = await page.evaluate(() => ({
    nonce: document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]')?.nonce ?? '',
    styles: [...document.querySelectorAll('style')].map((style) => style.nonce),
  }));
  expect(nonce).not.toBe('');
  expect(styles.length).toBeGreaterThan(0);
  expect(new Set(styles)).toEqual(new Set([nonce]));
}

test.describe('Content-Security-Policy (issue #4)', () => {
  test('the page is served with the strict policy, a fresh nonce each time, and emotion styles carry it', async ({ page }) => {
    const first = await page.goto('/donate');
    const policy = first?.headers()['content-security-policy'] ?? '';
    expect(policy).toContain("default-src 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).toMatch(/style-src 'self' 'nonce-[^']+'/);
    expect(policy).not.toMatch(/style-src [^;]*'unsafe-inline'/);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expectNoncedStyles(page);
    const second = await page.reload();
    expect(second?.headers()['content-security-policy']).not.toBe(policy);
  });

  test('a donor goes from the selection screen to the thank-you page without a single CSP violation', async ({ page }) => {
    const consoleMessages = await watchCsp(page);

    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expectNoCspViolations(page, consoleMessages, '/');

    await page.goto('/donate');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expectNoCspViolations(page, consoleMessages, '/donate');

    await page.getByRole('button', { name: 'Custom Amount' }).click();
    const custom = page.getByRole('spinbutton', { name: 'Enter Custom Amount' });
    await expect(custom).toBeFocused();
    await custom.fill('0.5');
    await expect(custom).toHaveAttribute('aria-invalid', 'true');
    await expectNoCspViolations(page, consoleMessages, '/donate with the custom amount open and its error');

    await chooseDonation(page, { preset: '$50', frequency: 'monthly', cause: 'education-outreach' });
    await expectNoCspViolations(page, consoleMessages, '/donate/form');

    await field(page, 'Full Name').press('Enter');
    await expect(field(page, 'Full Name')).toHaveAttribute('aria-invalid', 'true');
    await expectNoCspViolations(page, consoleMessages, '/donate/form with errors');

    // The Select menu is a Popover, mounted (with its styles) only when opened.
    await page.getByRole('combobox', { name: 'Expiry Month' }).click();
    await expect(page.getByRole('listbox')).toBeVisible();
    await expectNoCspViolations(page, consoleMessages, '/donate/form with the month menu open');
    await page.keyboard.press('Escape');
    await expect(page.getByRole('listbox')).toBeHidden();

    await fillDonorForm(page, { cardNumber: TEST_CARDS.declined });
    // NOTE: the real request is held until the processing state has been checked; nothing is mocked.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/process-donation', async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Complete Donation of $50' }).click();
    await expect(page.getByRole('button', { name: 'Processing Payment...' })).toBeDisabled();
    await expectNoCspViolations(page, consoleMessages, '/donate/form while processing');
    release();

    await expect(page.getByRole('alert')).toHaveText('Error: Your card was declined.');
    await expectNoCspViolations(page, consoleMessages, '/donate/form with the error snackbar');
    await page.unroute('**/api/process-donation');

    await field(page, 'Card Number').fill(TEST_CARDS.visa);
    await chooseOption(page, 'Expiry Year', String(new Date().getFullYear() + 2));
    await page.getByRole('button', { name: 'Complete Donation of $50' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Thank You!' })).toBeFocused();
    await expectNoCspViolations(page, consoleMessages, '/donate/thank-you');
    await expectNoncedStyles(page);

    // A full load of the thank-you page (not a client-side navigation) too.
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expectNoCspViolations(page, consoleMessages, '/donate/thank-you after a reload');
  });
});

// NOTE: the plain Playwright test, not the fixtures' one: this test makes the browser log a CSP error on purpose.
base('the violation listener is not blind: a style without the nonce is refused and reported', async ({ page }) => {
  const consoleMessages = await watchCsp(page);
  await page.goto('/donate');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.evaluate(() => {
    const style = document.createElement('style');
    style.textContent = 'body { background: rgb(255, 0, 0); }';
    document.head.append(style);
  });
  await expect.poll(() => page.evaluate(() => window.__cspViolations?.length ?? 0)).toBeGreaterThan(0);
  const [violation] = await page.evaluate(() => window.__cspViolations ?? []);
  expect(violation?.directive).toMatch(/^style-src/);
  expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).not.toBe('rgb(255, 0, 0)');
  await expect.poll(() => consoleMessages.length).toBeGreaterThan(0);
});
