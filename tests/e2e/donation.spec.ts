import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DonationStats } from '../../src/shared/api';
import { DEFAULT_SITE_CONFIG } from '../../src/shared/site-config';
import { E2E_DATA_DIR, E2E_LOG_FILE, E2E_PORT } from './e2e-env';
import { chooseDonation, field, expect, fillDonorForm, TEST_CARDS, test } from './fixtures';

/** Every file below a folder, as raw bytes read as latin1 so any byte sequence can be searched. */
async function readTree(dir: string): Promise<Array<{ path: string; text: string }>> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  const files = entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
  return Promise.all(files.map(async (path) => ({ path, text: (await readFile(path)).toString('latin1') })));
}

test.describe('giving', () => {
  test('a donor gives $25 monthly to research and sees the thank-you page with a test badge', async ({ page }) => {
    await chooseDonation(page, { frequency: 'monthly', cause: 'research-science' });
    const donor = await fillDonorForm(page, { name: 'Rosa Pérez', email: 'rosa@example.org' });
    const sent = page.waitForRequest('**/api/process-donation');
    await page.getByRole('button', { name: 'Complete Donation of $25' }).click();
    expect((await sent).headers()['idempotency-key'], 'the attempt carries an idempotency key').toMatch(/^[0-9a-f]{32}$/);

    await expect(page).toHaveURL(/\/donate\/thank-you$/);
    await expect(page.getByRole('heading', { name: 'Thank You!' })).toBeVisible();
    await expect(page.getByText('Your donation has been processed successfully')).toBeVisible();
    await expect(page.getByText('Test Transaction')).toBeVisible();
    await expect(page.getByText('$25', { exact: true }).first()).toBeVisible();
    await expect(page.getByText(donor.name).first()).toBeVisible();
    await expect(page.getByText(/ch_test_[A-Za-z0-9]{24}/)).toBeVisible();
    await expect(page.getByText('What Happens Next')).toBeVisible();
    await expect(page.getByText(/tax advisor/i)).toBeVisible();
    await expect(page.getByText(/30 days/)).toBeVisible();

    await expect(page.getByRole('link', { name: 'Learn More About Our Work' })).toHaveAttribute(
      'href',
      DEFAULT_SITE_CONFIG.organizationUrl,
    );
    await expect(page.getByRole('link', { name: 'Learn More About Our Work' })).toHaveAttribute('target', '_blank');
    await expect(page.getByRole('link', { name: 'Learn More About Our Work' })).toHaveAttribute('rel', 'noopener noreferrer');
    // PUBLIC_URL is unset on the e2e server: the site's own address on its PORT.
    const shared = encodeURIComponent(`http://localhost:${E2E_PORT}`);
    await expect(page.getByRole('link', { name: 'Facebook' })).toHaveAttribute('href', new RegExp(`facebook\\.com/sharer/sharer\\.php\\?u=${shared.replace(/[.]/g, '\\.')}`));
    await expect(page.getByRole('link', { name: 'Tweet' })).toHaveAttribute('href', /intent\/tweet\?/);
    await expect(page.getByRole('link', { name: 'Email' })).toHaveAttribute('href', /^mailto:\?subject=/);

    await page.reload();
    await expect(page.getByRole('heading', { name: 'Thank You!' })).toBeVisible();

    await page.getByRole('button', { name: 'Make Another Donation' }).click();
    await expect(page).toHaveURL(/\/donate$/);
    await expect(page.getByRole('button', { name: '$25', exact: true })).toHaveAttribute('aria-pressed', 'true');
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    await page.goto('/donate/thank-you');
    await expect(page).toHaveURL(/\/donate$/);
    await page.goto('/donate/form');
    await expect(page).toHaveURL(/\/donate$/);
  });

  test('a donor whose card is declined sees why and stays on the form', async ({ page }) => {
    await chooseDonation(page, { preset: '$10', frequency: 'one-time', cause: 'education-outreach' });
    await fillDonorForm(page, { cardNumber: TEST_CARDS.declined });
    await page.getByRole('button', { name: 'Complete Donation of $10' }).click();
    const snackbar = page.getByRole('alert');
    await expect(snackbar).toHaveText('Error: Your card was declined.');
    await expect(page.getByRole('button', { name: 'Close' })).toBeVisible();
    await expect(page).toHaveURL(/\/donate\/form$/);
    await expect(page.getByRole('button', { name: 'Complete Donation of $10' })).toBeEnabled();

    await field(page, 'Card Number').fill(TEST_CARDS.insufficientFunds);
    await page.getByRole('button', { name: 'Complete Donation of $10' }).click();
    await expect(page.getByRole('alert')).toHaveText('Error: Your card has insufficient funds.');
    await page.getByRole('button', { name: 'Close' }).click();
    await expect(page.getByRole('alert')).toBeHidden();
  });

  test('a donor whose computer clock runs a year behind picks an expiry already past; the server refuses it and the form marks the field', async ({ page }) => {
    // NOTE: a real 400 from the real server: the browser's clock says January of last year, so December of last year
    // passes the page's own check, and the server, on the real date, answers that the card has expired.
    const lastYear = new Date().getFullYear() - 1;
    await page.clock.setFixedTime(new Date(`${lastYear}-01-15T12:00:00`));
    await chooseDonation(page, { frequency: 'one-time', cause: 'research-science' });
    await fillDonorForm(page, { expiryMonth: '12 - December', expiryYear: String(lastYear) });
    await expect(page.getByText('Card has expired')).toBeHidden();
    await page.getByRole('button', { name: 'Complete Donation of $25' }).click();

    await expect(page.getByRole('alert')).toHaveText('Error: Please check the highlighted fields.');
    await expect(page.getByText('Card has expired')).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Expiry Month' })).toBeFocused();
    await expect(page).toHaveURL(/\/donate\/form$/);
  });

  test('a donation made in the browser shows up in the donation stats', async ({ page, request }) => {
    // NOTE: only this test gives to Communications and Marketing, so that cause's totals move by this gift alone.
    const statsBefore = (await (await request.get('/api/donations/stats')).json()) as DonationStats;
    const causeBefore = statsBefore.byCause.find((c) => c.cause === 'communications-marketing');

    await chooseDonation(page, { customAmount: '37.45', frequency: 'yearly', cause: 'communications-marketing' });
    await fillDonorForm(page, { email: 'stats.donor@example.org', cardNumber: TEST_CARDS.mastercard });
    await page.getByRole('button', { name: 'Complete Donation of $37.45' }).click();
    await expect(page.getByRole('heading', { name: 'Thank You!' })).toBeVisible();
    await expect(page.getByText('$37.45').first()).toBeVisible();

    const statsAfter = (await (await request.get('/api/donations/stats')).json()) as DonationStats;
    const causeAfter = statsAfter.byCause.find((c) => c.cause === 'communications-marketing');
    expect(causeAfter?.donationCount).toBe((causeBefore?.donationCount ?? 0) + 1);
    expect(causeAfter?.totalRaised).toBeCloseTo((causeBefore?.totalRaised ?? 0) + 37.45, 2);
    expect(statsAfter.currency).toBe('USD');
  });

  test('a card number given in the browser is kept neither in the database files nor in the server log', async ({ page }) => {
    const email = `pan.check.${Date.now()}@example.org`;
    await chooseDonation(page, { preset: '$5', frequency: 'one-time', cause: 'marine-protected-areas' });
    await fillDonorForm(page, { email, cardNumber: TEST_CARDS.visa, cvv: '7391' });
    await page.getByRole('button', { name: 'Complete Donation of $5' }).click();
    await expect(page.getByRole('heading', { name: 'Thank You!' })).toBeVisible();

    // The check must read where the donation really went: the donor's e-mail is in the database files.
    await expect.poll(async () => (await readTree(E2E_DATA_DIR)).some((f) => f.text.includes(email))).toBe(true);
    const files = await readTree(E2E_DATA_DIR);
    const log = await readFile(E2E_LOG_FILE, 'utf8');
    expect(log).toContain('process-donation');
    for (const { path, text } of [...files, { path: E2E_LOG_FILE, text: log }]) {
      expect(text.includes('4242424242424242'), `card number in ${path}`).toBe(false);
      expect(text.includes('4242 4242 4242 4242'), `card number in ${path}`).toBe(false);
    }
    // NOTE: a bare 4-digit run can occur by chance (timings, timestamps), so look for the CVV as a value.
    expect(log, 'CVV in the server log').not.toMatch(/"7391"|=7391\b|cvv"\s*:\s*"?\d/i);
  });
});
