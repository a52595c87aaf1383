import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { totalCoveringFeeCents, DEFAULT_FEE_COVERAGE } from '../../src/shared/fee-coverage';
import { PRERENDERED_PATH_ATTRIBUTE } from '../../src/shared/prerendered-pages';
import { E2E_ADMIN_TOKEN, E2E_DATA_DIR, E2E_PORT } from './e2e-env';
import { expectNoAxeViolations } from './a11y-helpers';
import { chooseDonation, expect, fillDonorForm, recordPageErrors, test, waitForApp } from './fixtures';
import { holdAppScripts } from './hold-app-scripts';
import { manageLinkPath, waitForReceipt } from './mail-helpers';

/**
 * Issue #23 in Chromium, on the shared server (test gateway; CAMPAIGNS=spring-appeal in playwright.config.ts):
 * campaign links choose on the pre-rendered selection screen before it is first painted and their campaign reaches the
 * export and the share buttons; a donor who covers the card fee is charged the total the server computes.
 */

/** A unique donor address per test run, to find the donor's row in the export. */
const donorAddress = (label: string) => `${label}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.org`;

/**
 * Records, before every frame the browser renders from the start of the page load until the app is live, which amount,
 * frequency and cause buttons are pressed (an init script: it runs before any of the page's own scripts). A frame's
 * requestAnimationFrame callbacks run just before it is painted, so a flash of the defaults would be in the record.
 */
async function recordPressedEveryFrame(page: Page): Promise<void> {
  await page.addInitScript((attribute) => {
    const frames: string[][] = [];
    (window as unknown as { pressedFrames: string[][] }).pressedFrames = frames;
    const record = () => {
      const root = document.getElementById('root');
      if (root && root.querySelector('[data-choice-group]')) {
        frames.push([...root.querySelectorAll<HTMLButtonElement>('[data-choice-group] [aria-pressed="true"]')].map((button) => button.value));
      }
      if (!root || root.hasAttribute(attribute)) requestAnimationFrame(record);
    };
    requestAnimationFrame(record);
  }, PRERENDERED_PATH_ATTRIBUTE);
}

/** The CSV export of today's gifts in `format`, as the operator gets it (GET /api/admin/donations.csv). */
async function exportedRecords(page: Page, format: string): Promise<Record<string, string>[]> {
  const today = new Date().toISOString().slice(0, 10);
  const response = await page.request.get(`/api/admin/donations.csv?from=${today}&to=${today}&format=${format}`, {
    headers: { authorization: `Bearer ${E2E_ADMIN_TOKEN}` },
  });
  expect(response.status()).toBe(200);
  // NOTE: the test's donors have plain names and addresses, so splitting at commas and line ends is enough here.
  const [header = [], ...rows] = (await response.text()).trim().split('\r\n').map((line) => line.split(','));
  return rows.map((row) => Object.fromEntries(header.map((name, index) => [name, row[index] ?? ''])));
}

test.describe('a campaign link', () => {
  test('opens the selection screen with its choices made before the first paint, and its campaign reaches the export and the share buttons', async ({
    page,
  }) => {
    await recordPressedEveryFrame(page);
    await page.goto('/donate?amount=50&frequency=monthly&cause=research-science&campaign=Spring-Appeal');
    await expect(page.getByRole('button', { name: '$50', exact: true })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('button', { name: 'Monthly' })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('button', { name: 'Research and Science' })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByText(/^Your \$/)).toHaveText('Your $50 monthly donation can help protect Research and Science');
    // Every frame painted, from the first, showed the link's choices: never the defaults ($25, one-time, no cause).
    const frames = await page.evaluate(() => (window as unknown as { pressedFrames: string[][] }).pressedFrames);
    expect(frames.length, 'frames were recorded before the app was live').toBeGreaterThan(0);
    for (const pressed of frames) expect(pressed).toEqual(['50', 'monthly', 'research-science']);

    await page.getByRole('button', { name: 'Continue to Donation' }).click();
    await expect(page.getByRole('region', { name: 'Donation summary' })).toContainText('$50 monthly');
    const email = donorAddress('campaign');
    await fillDonorForm(page, { email });
    await page.getByRole('button', { name: 'Complete Donation of $50' }).click();
    await expect(page.getByRole('heading', { name: 'Thank You!' })).toBeVisible();

    // The share buttons share /donate with the campaign, never the donor's amount.
    const shared = encodeURIComponent(`http://localhost:${E2E_PORT}/donate?campaign=spring-appeal`);
    await expect(page.getByRole('link', { name: 'Facebook' })).toHaveAttribute('href', `https://www.facebook.com/sharer/sharer.php?u=${shared}`);
    await expect(page.getByRole('link', { name: 'Email' })).toHaveAttribute('href', new RegExp(shared.replace(/[.?]/g, '\\$&')));

    // The campaign is in every format of the export: `campaign` in ours, each CRM's campaign field in theirs.
    const standard = (await exportedRecords(page, 'standard')).find((record) => record.email === email);
    expect(standard).toMatchObject({ campaign: 'spring-appeal', amount: '50.00', fee_covered: '0.00', frequency: 'monthly' });
    const npsp = (await exportedRecords(page, 'npsp')).find((record) => record.npsp__Contact1_Personal_Email__c === email);
    expect(npsp?.npsp__Donation_Campaign_Name__c).toBe('spring-appeal');
    for (const [format, emailHeader] of [['bloomerang', 'Email Address'], ['lgl', 'Email'], ['civicrm', 'Email']]) {
      const record = (await exportedRecords(page, format!)).find((row) => row[emailHeader!] === email);
      expect(record?.Campaign, format).toBe('spring-appeal');
    }
  });

  test('a custom amount becomes the custom amount; values that are not valid are ignored and the rest applies; an unknown campaign is recorded as none', async ({
    page,
  }) => {
    await page.goto('/donate?amount=73.40&frequency=yearly&cause=education-outreach');
    await expect(page.getByRole('button', { name: 'Custom Amount' })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('spinbutton', { name: 'Enter Custom Amount' })).toHaveValue('73.4');
    await expect(page.getByRole('button', { name: 'Yearly' })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('button', { name: 'Education and Outreach' })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('spinbutton', { name: 'Enter Custom Amount' })).not.toBeFocused();

    // A new visitor each time from here (the tab keeps a complete selection for the visit: issue #24's switcher).
    const asNewVisitor = () => page.evaluate(() => sessionStorage.clear());
    await asNewVisitor();
    // Above $100,000, a weekly frequency and a cause that does not exist: each ignored, silently; the valid cause applies.
    await page.goto('/donate?amount=100000.01&frequency=weekly&cause=nope&campaign=not-a-campaign');
    await expect(page.getByRole('button', { name: '$25', exact: true })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('button', { name: 'One-time Gift' })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('button', { name: 'Continue to Donation' })).toBeDisabled();
    await expect(page.getByRole('alert')).toHaveCount(0);
    await asNewVisitor();
    await page.goto('/donate?amount=-5&cause=marine-protected-areas&campaign=not-a-campaign');
    await expect(page.getByRole('button', { name: '$25', exact: true })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('button', { name: 'Marine Protected Areas' })).toHaveAttribute('aria-pressed', 'true');
    await page.getByRole('button', { name: 'Continue to Donation' }).click();
    const email = donorAddress('unknown-campaign');
    await fillDonorForm(page, { email });
    await page.getByRole('button', { name: 'Complete Donation of $25' }).click();
    await expect(page.getByRole('heading', { name: 'Thank You!' })).toBeVisible();
    const standard = (await exportedRecords(page, 'standard')).find((record) => record.email === email);
    expect(standard).toMatchObject({ campaign: '', amount: '25.00' });
  });

  test("keeps a donor's taps made before the app is live, over the link's choices", async ({ browser }) => {
    // NOTE: a page of its own: the fixture's page.goto waits for the app, which is held here.
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors = recordPageErrors(page);
    const releaseApp = await holdAppScripts(page);
    await page.goto('/donate?amount=50&frequency=monthly&cause=research-science', { waitUntil: 'commit' });
    await expect(page.getByRole('button', { name: '$50', exact: true })).toHaveAttribute('aria-pressed', 'true');
    await page.getByRole('button', { name: '$100', exact: true }).click();
    await page.getByRole('button', { name: 'Marine Protected Areas' }).click();
    expect(await page.locator(`#root[${PRERENDERED_PATH_ATTRIBUTE}]`).count(), 'the taps came before the app was live').toBe(1);
    releaseApp();
    await waitForApp(page);
    await expect(page.getByRole('button', { name: '$100', exact: true })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('button', { name: '$50', exact: true })).toHaveAttribute('aria-pressed', 'false');
    await expect(page.getByRole('button', { name: 'Monthly' })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('button', { name: 'Marine Protected Areas' })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByText(/^Your \$/)).toHaveText('Your $100 monthly donation can help protect Marine Protected Areas Management');
    expect(errors, 'the page logged errors').toEqual([]);
    await context.close();
  });
});

test.describe('covering the card fee', () => {
  test('a donor ticks the box, the button names the total, the test gateway charges it, and the thank-you page and export show gift, fee and total', async ({
    page,
  }) => {
    const giftCents = 7340;
    const totalCents = totalCoveringFeeCents(giftCents, DEFAULT_FEE_COVERAGE);
    const feeCents = totalCents - giftCents;
    const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;
    await chooseDonation(page, { customAmount: '73.40', frequency: 'one-time', cause: 'sustainable-development' });

    const checkbox = page.getByRole('checkbox', { name: `Add ${dollars(feeCents)} to cover the card processing fee` });
    await expect(checkbox).not.toBeChecked();
    await expect(page.getByRole('button', { name: 'Complete Donation of $73.40' })).toBeVisible();
    const email = donorAddress('fee');
    await fillDonorForm(page, { email });
    await checkbox.check();
    await expectNoAxeViolations(page, 'the form with the fee box ticked');
    await page.getByRole('button', { name: `Complete Donation of ${dollars(totalCents)}` }).click();

    await expect(page.getByRole('heading', { name: 'Thank You!' })).toBeVisible();
    const details = page.locator('dl').first();
    await expect(details).toContainText(`Gift${dollars(giftCents)}`);
    await expect(details).toContainText(`Card fee covered${dollars(feeCents)}`);
    await expect(details).toContainText(`Total charged${dollars(totalCents)}`);

    // The test gateway charged the total: its charge ledger (DATA_DIR/test-gateway-charges.jsonl) holds the charge.
    const ledger = join(E2E_DATA_DIR, 'test-gateway-charges.jsonl');
    await expect
      .poll(async () => (await readFile(ledger, 'utf8')).split('\n').filter((line) => line.includes(`"amountCents":${totalCents},`)).length)
      .toBeGreaterThanOrEqual(1);
    const standard = (await exportedRecords(page, 'standard')).find((record) => record.email === email);
    expect(standard).toMatchObject({ amount: (totalCents / 100).toFixed(2), fee_covered: (feeCents / 100).toFixed(2) });
  });

  test('a monthly donor who covered the fee sees it on the manage page of the receipt e-mail, and stops it there', async ({ page }) => {
    const email = donorAddress('monthly-fee');
    await chooseDonation(page, { customAmount: '30', frequency: 'monthly', cause: 'education-outreach' });
    await fillDonorForm(page, { email });
    // (30.00 + 0.30) / (1 - 2.9 %) = 31.205..., rounded up: $31.21.
    await page.getByRole('checkbox', { name: 'Add $1.21 to cover the card processing fee' }).check();
    await page.getByRole('button', { name: 'Complete Donation of $31.21' }).click();
    await expect(page.getByRole('heading', { name: 'Thank You!' })).toBeVisible();

    const receipt = await waitForReceipt(join(E2E_DATA_DIR, 'mail'), email);
    expect(receipt.text).toMatch(/Card fee covered:?\s*\$1\.21 USD/);
    await page.goto(manageLinkPath(receipt) ?? '');
    await expect(page.getByRole('heading', { name: 'Manage Your Recurring Gift', level: 1 })).toBeVisible();
    await expect(page.getByText('Each charge adds $1.21 to cover the card processing fee')).toBeVisible();
    await expectNoAxeViolations(page, 'manage page of a gift covering the fee');
    await page.getByRole('button', { name: 'Stop Covering the Fee' }).click();
    await expect(page.getByRole('status')).toContainText('Your charges no longer add the card processing fee.');
    await expect(page.getByRole('button', { name: 'Stop Covering the Fee' })).toHaveCount(0);
  });
});
