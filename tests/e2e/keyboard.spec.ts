import { expectFocusVisible, tabTo } from './keyboard-helpers';
import { expect, FUTURE_EXPIRY, test } from './fixtures';

test.describe('keyboard only', () => {
  test('a donor gives $50 monthly to education with the keyboard alone, focus always visible and on each new heading', async ({ page }) => {
    await page.goto('/donate');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.bringToFront();
    const amount = (name: string) => page.getByRole('button', { name, exact: true });

    // Amount: a toggle group is one tab stop (MUI's roving tab index, the ARIA toolbar pattern):
    // Tab enters on its first button, arrows move within it, Space or Enter presses.
    await tabTo(page, amount('$5'));
    for (let step = 0; step < 3; step += 1) await page.keyboard.press('ArrowRight'); // $10, $25, $50
    await expect(amount('$50')).toBeFocused();
    await expectFocusVisible(page);
    await page.keyboard.press('Space');
    await expect(amount('$50')).toHaveAttribute('aria-pressed', 'true');

    // Frequency: one Tab leaves the amount group for the next group.
    await page.keyboard.press('Tab');
    await expect(amount('One-time Gift')).toBeFocused();
    await page.keyboard.press('ArrowRight');
    await expect(amount('Monthly')).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(amount('Monthly')).toHaveAttribute('aria-pressed', 'true');

    // Cause: a vertical group, so the down arrow moves.
    await page.keyboard.press('Tab');
    await expect(amount('Marine Protected Areas Management')).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await expect(amount('Education and Outreach')).toBeFocused();
    await expectFocusVisible(page);
    await page.keyboard.press('Space');
    await expect(amount('Education and Outreach')).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('status')).toContainText('Your $50 monthly donation');

    await tabTo(page, page.getByRole('button', { name: 'Continue to Donation' }));
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/donate\/form$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Complete Your Donation' })).toBeFocused();

    const typeInto = async (name: string, text: string) => {
      await tabTo(page, page.getByRole('textbox', { name, exact: true }));
      await page.keyboard.type(text);
    };
    await typeInto('Full Name', 'Keyla Westby');
    await typeInto('Email Address', 'keyla@example.org');
    await typeInto('Card Number', '4242424242424242');
    await expect(page.getByRole('textbox', { name: 'Card Number', exact: true })).toHaveValue('4242 4242 4242 4242');
    await typeInto('Cardholder Name', 'Keyla Westby');

    // The expiry selects: open with the down arrow, move with arrows or End, choose with Enter.
    const month = page.getByRole('combobox', { name: 'Expiry Month' });
    await tabTo(page, month);
    await page.keyboard.press('ArrowDown');
    await expect(page.getByRole('listbox')).toBeVisible();
    await page.keyboard.press('End');
    await expect(page.getByRole('option', { name: FUTURE_EXPIRY.month })).toBeFocused();
    await expectFocusVisible(page);
    await page.keyboard.press('Enter');
    await expect(month).toHaveText(FUTURE_EXPIRY.month);
    await expect(month).toBeFocused();

    const year = page.getByRole('combobox', { name: 'Expiry Year' });
    await tabTo(page, year);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('listbox')).toBeVisible();
    await page.keyboard.press('ArrowDown');
    await expect(page.getByRole('option', { name: FUTURE_EXPIRY.year })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(year).toHaveText(FUTURE_EXPIRY.year);

    await typeInto('CVV', '123');
    await tabTo(page, page.getByRole('checkbox', { name: 'Make my donation anonymous' }));
    await page.keyboard.press('Space');
    await expect(page.getByRole('checkbox', { name: 'Make my donation anonymous' })).toBeChecked();

    await tabTo(page, page.getByRole('button', { name: 'Complete Donation of $50' }));
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/donate\/thank-you$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Thank You!' })).toBeFocused();

    await tabTo(page, page.getByRole('button', { name: 'Make Another Donation' }));
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/donate$/);
    await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
  });
});
