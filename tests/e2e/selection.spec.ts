import { CAUSE_DETAILS, CAUSES } from '../../src/shared/causes';
import { expect, test } from './fixtures';

test.describe('choosing a donation', () => {
  test('a visitor lands on /donate from the root and from unknown paths', async ({ page }) => {
    await page.goto('/');
    await expect(page).toHaveURL(/\/donate$/);
    await page.goto('/no/such/page');
    await expect(page).toHaveURL(/\/donate$/);
    await page.goto('/old-page.php');
    await expect(page).toHaveURL(/\/donate$/);
    await expect(page.getByText('Choose Your Donation Amount')).toBeVisible();
  });

  test('a visitor sees the hero, the spec texts and the defaults: $25, one-time, no cause', async ({ page }) => {
    await page.goto('/donate');
    await expect(page.getByRole('banner')).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    for (const [figure, label] of [
      ['7', 'protected areas'],
      ['300+', 'coral species'],
      ['500+', 'fish species'],
    ] as const) {
      await expect(page.getByText(figure, { exact: true }).first()).toBeVisible();
      await expect(page.getByText(label, { exact: true }).first()).toBeVisible();
    }
    await expect(page.getByText('Every contribution helps preserve Belize\'s natural heritage')).toBeVisible();
    for (const preset of ['$5', '$10', '$25', '$50', '$100', '$500', '$1,000']) {
      await expect(page.getByRole('button', { name: preset, exact: true })).toBeVisible();
    }
    await expect(page.getByRole('button', { name: '$25', exact: true })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('button', { name: 'One-time Gift' })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByText('Choose Frequency')).toBeVisible();
    await expect(page.getByText('What cause would you like to support?')).toBeVisible();
    for (const cause of CAUSES) {
      await expect(page.getByRole('button', { name: CAUSE_DETAILS[cause].displayName })).toHaveAttribute('aria-pressed', 'false');
    }
    await expect(page.getByRole('spinbutton', { name: 'Enter Custom Amount' })).toBeHidden();
    await expect(page.getByRole('button', { name: 'Continue to Donation' })).toBeDisabled();
  });

  test('the impact banner follows the amount, the frequency and the cause', async ({ page }) => {
    await page.goto('/donate');
    const banner = page.getByText(/^Your \$/);
    await expect(banner).toHaveText('Your $25 donation can help protect marine wildlife monitoring');
    const tiers: Array<[string, string]> = [
      ['$5', 'conservation awareness initiatives'],
      ['$10', 'educational programs for local communities'],
      ['$50', 'coral restoration efforts'],
      ['$100', 'marine research equipment'],
      ['$500', 'an entire coral reef monitoring station'],
      ['$1,000', 'several acres of coral reef habitat'],
    ];
    for (const [preset, impact] of tiers) {
      await page.getByRole('button', { name: preset, exact: true }).click();
      await expect(page.getByRole('button', { name: preset, exact: true })).toHaveAttribute('aria-pressed', 'true');
      await expect(banner).toHaveText(`Your ${preset} donation can help protect ${impact}`);
    }
    await page.getByRole('button', { name: 'Monthly' }).click();
    await expect(banner).toHaveText('Your $1,000 monthly donation can help protect several acres of coral reef habitat');
    await page.getByRole('button', { name: 'Yearly' }).click();
    await page.getByRole('button', { name: 'Research and Science' }).click();
    await expect(banner).toHaveText('Your $1,000 yearly donation can help protect Research and Science');
    await expect(page.getByRole('button', { name: 'Continue to Donation' })).toBeEnabled();
  });

  test('a donor types a custom amount, and a bad one selects nothing and says why', async ({ page }) => {
    await page.goto('/donate');
    await page.getByRole('button', { name: 'Research and Science' }).click();
    const continueButton = page.getByRole('button', { name: 'Continue to Donation' });
    await page.getByRole('button', { name: 'Custom Amount' }).click();
    const custom = page.getByRole('spinbutton', { name: 'Enter Custom Amount' });
    await expect(custom).toBeVisible();
    await expect(custom).toHaveAttribute('placeholder', 'Enter amount');
    await expect(custom).toHaveAttribute('min', '1');
    await expect(page.getByText('$', { exact: true }).first()).toBeVisible();

    await custom.fill('12.5');
    await expect(page.getByText(/^Your \$/)).toHaveText('Your $12.50 donation can help protect Research and Science');
    await expect(continueButton).toBeEnabled();
    await expect(page.getByRole('button', { name: '$25', exact: true })).toHaveAttribute('aria-pressed', 'false');

    for (const [typed, reason] of [
      ['0.5', 'The minimum donation is $1'],
      ['1000000', 'The maximum donation is $999,999.99'],
      ['12.345', 'Use at most 2 decimal places'],
    ] as const) {
      await custom.fill(typed);
      await expect(page.getByText(reason)).toBeVisible();
      await expect(continueButton).toBeDisabled();
      await expect(page.getByText(/^Your \$/)).toBeHidden();
    }

    // Text Chromium's number input cannot read leaves its value '' (fill() refuses it): typed key by key.
    const notAnAmount = 'Enter an amount in dollars, like 30 or 12.50';
    for (const typed of ['-', '1e', '--5']) {
      await custom.fill('');
      await expect(page.getByText(notAnAmount)).toBeHidden();
      await custom.pressSequentially(typed);
      await expect(custom).toHaveAccessibleDescription(notAnAmount);
      await expect(custom).toHaveAttribute('aria-invalid', 'true');
      await expect(continueButton).toBeDisabled();
      await expect(page.getByText(/^Your \$/)).toBeHidden();
    }

    await custom.fill('30');
    await expect(continueButton).toBeEnabled();
    await page.getByRole('button', { name: '$50', exact: true }).click();
    await expect(custom).toBeHidden();
    await expect(page.getByText(/^Your \$/)).toHaveText('Your $50 donation can help protect Research and Science');

    await page.getByRole('button', { name: 'Custom Amount' }).click();
    await expect(page.getByRole('spinbutton', { name: 'Enter Custom Amount' })).toHaveValue('');
  });

  test('a donor with a chosen cause continues to the form with the selection summarised', async ({ page }) => {
    await page.goto('/donate');
    await page.getByRole('button', { name: '$100', exact: true }).click();
    await page.getByRole('button', { name: 'Monthly' }).click();
    await page.getByRole('button', { name: 'Education and Outreach' }).click();
    await page.getByRole('button', { name: 'Continue to Donation' }).click();
    await expect(page).toHaveURL(/\/donate\/form$/);
    await expect(page.getByRole('region', { name: 'Donation summary' })).toContainText('Education and Outreach');
    await expect(page.getByRole('region', { name: 'Donation summary' })).toContainText('$100 monthly');
    await expect(page.getByRole('button', { name: 'Complete Donation of $100' })).toBeVisible();
  });
});
