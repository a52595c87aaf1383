import { expectNoAxeViolations } from './a11y-helpers';
import { chooseDonation, expect, field, fillDonorForm, TEST_CARDS, test } from './fixtures';
import type { Locator, Page } from '@playwright/test';

/** Asserts that a field is marked invalid and that its description (aria-describedby) is `message`. */
async function expectAnnouncedError(input: Locator, message: string): Promise<void> {
  await expect(input).toHaveAttribute('aria-invalid', 'true');
  await expect(input).toHaveAccessibleDescription(message);
}

test.describe('accessibility (WCAG 2.2 AA, axe)', () => {
  test('the selection screen has no violations by default, with the custom amount open, and with its error', async ({ page }) => {
    await page.goto('/donate');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expectNoAxeViolations(page, '/donate by default');

    await page.getByRole('button', { name: 'Custom Amount' }).click();
    const custom = page.getByRole('spinbutton', { name: 'Enter Custom Amount' });
    await expect(custom).toBeFocused();
    await expectNoAxeViolations(page, '/donate with the custom amount open');

    await custom.fill('0.5');
    await expect(custom).toHaveAttribute('aria-invalid', 'true');
    await expectNoAxeViolations(page, '/donate with a custom amount error');
  });

  test('the form has no violations empty, with errors, while processing and with the decline snackbar', async ({ page }) => {
    await chooseDonation(page, { preset: '$50', frequency: 'monthly', cause: 'education-outreach' });
    await expectNoAxeViolations(page, '/donate/form empty');

    // Enter in a field submits: an invalid submit shows every error (spec section 4).
    await field(page, 'Full Name').press('Enter');
    await expectAnnouncedError(field(page, 'Full Name'), 'Name is required');
    await expectAnnouncedError(field(page, 'Email Address'), 'Email is required');
    await expectAnnouncedError(field(page, 'Card Number'), 'Card number is required');
    await expectAnnouncedError(field(page, 'Cardholder Name'), 'Cardholder name is required');
    await expectAnnouncedError(page.getByRole('combobox', { name: 'Expiry Month' }), 'Month is required');
    await expectAnnouncedError(page.getByRole('combobox', { name: 'Expiry Year' }), 'Year is required');
    await expectAnnouncedError(field(page, 'CVV'), 'CVV is required');
    await expect(field(page, 'Phone Number')).not.toHaveAttribute('aria-invalid', 'true');
    await expectNoAxeViolations(page, '/donate/form with errors');

    await fillDonorForm(page, { cardNumber: TEST_CARDS.declined });
    // NOTE: the real request goes to the real server; holding it until axe has looked at the
    // processing state makes that state last long enough to scan. Nothing is mocked.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/process-donation', async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole('button', { name: 'Complete Donation of $50' }).click();
    await expect(page.getByRole('button', { name: 'Processing Payment...' })).toBeDisabled();
    await expect(page.getByRole('status').filter({ hasText: 'Processing Payment...' })).toBeAttached();
    await expectNoAxeViolations(page, '/donate/form while processing');
    release();

    // The snackbar's message is an alert (an assertive live region).
    await expect(page.getByRole('alert')).toHaveText('Error: Your card was declined.');
    await expectNoAxeViolations(page, '/donate/form with the error snackbar');
  });

  test('the thank-you page has no violations', async ({ page }) => {
    await chooseDonation(page, { frequency: 'yearly', cause: 'marine-protected-areas' });
    await fillDonorForm(page);
    await page.getByRole('button', { name: 'Complete Donation of $25' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Thank You!' })).toBeFocused();
    await expectNoAxeViolations(page, '/donate/thank-you');
  });
});

test.describe('reduced motion', () => {
  /** The longest computed transition duration of the 'Continue to Donation' button, in seconds. */
  const transitionSeconds = (page: Page) =>
    page
      .getByRole('button', { name: 'Continue to Donation' })
      .evaluate((button) => Math.max(...getComputedStyle(button).transitionDuration.split(',').map((d) => parseFloat(d))));

  test('a visitor who asks for reduced motion gets no transitions or smooth scrolling', async ({ page }) => {
    await page.goto('/donate');
    expect(await transitionSeconds(page)).toBeGreaterThan(0.05);

    await page.emulateMedia({ reducedMotion: 'reduce' });
    await expect.poll(() => transitionSeconds(page)).toBeLessThanOrEqual(0.001);
    expect(await page.evaluate(() => getComputedStyle(document.documentElement).scrollBehavior)).toBe('auto');
  });
});
