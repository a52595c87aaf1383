import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page, TestInfo } from '@playwright/test';
import { expectNoAxeViolations } from './a11y-helpers';
import { E2E_DATA_DIR } from './e2e-env';
import { chooseDonation, expect, field, fillDonorForm, TEST_CARDS, test } from './fixtures';
import { tabTo } from './keyboard-helpers';
import { waitForMail, waitForReceipt } from './mail-helpers';

/**
 * Gifts in honour or in memory of someone (issue #23, section 3) in Chromium, on the e2e server in test mode: the form's
 * "Dedicate this gift" section used with the keyboard alone, the one card the relay writes into MAIL_DIR for the person
 * to notify (the honoree's name, never the amount), none for a declined gift, and axe on the section open and with its
 * errors showing.
 */

const MAIL_DIR = join(E2E_DATA_DIR, 'mail');

/** An address no other test uses. */
const uniqueAddress = (testInfo: TestInfo, label: string) => `${label}-${testInfo.workerIndex}-${Date.now()}@example.org`;

/** How many `tribute_card` files the relay wrote to `address`. */
async function cardsTo(address: string): Promise<number> {
  const names = (await readdir(MAIL_DIR).catch(() => [] as string[])).filter((name) => name.includes('-tribute_card-'));
  let count = 0;
  for (const name of names) if ((await readFile(join(MAIL_DIR, name)).catch(() => undefined))?.includes(address)) count += 1;
  return count;
}

const toggle = (page: Page) => page.getByRole('checkbox', { name: 'Give this gift in honour or in memory of someone' });
const notifyToggle = (page: Page) => page.getByRole('checkbox', { name: 'Send a card about this gift by e-mail' });

test.describe('gifts in honour or in memory of someone', () => {
  test('a donor dedicates a gift with the keyboard alone; the notified person gets exactly one card with the honoree and no amount', async ({ page }, testInfo) => {
    const donorEmail = uniqueAddress(testInfo, 'tribute-donor');
    const notifyEmail = uniqueAddress(testInfo, 'tribute-card');
    await chooseDonation(page, { preset: '$50', frequency: 'one-time', cause: 'marine-protected-areas' });
    await fillDonorForm(page, { name: 'Marisol Chan', email: donorEmail });

    // The section is a group named by its legend; its fields appear once it is ticked.
    await expect(page.getByRole('group', { name: 'Dedicate this gift (Optional)' })).toBeVisible();
    await expect(field(page, "Honoree's Name")).toHaveCount(0);
    await tabTo(page, toggle(page));
    await page.keyboard.press('Space');
    await expect(toggle(page)).toBeChecked();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('radio', { name: 'In honour of' })).toBeFocused();
    await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('radio', { name: 'In memory of' })).toBeChecked();
    await page.keyboard.press('Tab');
    await expect(field(page, "Honoree's Name")).toBeFocused();
    await page.keyboard.type('Grandma Rosa');
    await page.keyboard.press('Tab');
    await expect(notifyToggle(page)).toBeFocused();
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab');
    await expect(field(page, "Recipient's Name")).toBeFocused();
    await page.keyboard.type('Luis Chan');
    await page.keyboard.press('Tab');
    await page.keyboard.type(notifyEmail);
    await page.keyboard.press('Tab');
    await expect(field(page, 'Message to the Recipient (Optional)')).toBeFocused();
    await page.keyboard.type('She loved the reef.');
    const submit = page.getByRole('button', { name: 'Complete Donation of $50' });
    await tabTo(page, submit);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'Thank You!' })).toBeVisible();

    const card = await waitForMail(MAIL_DIR, notifyEmail, 'tribute_card');
    expect(card.subject).toBe('Marisol Chan made a gift in memory of Grandma Rosa');
    expect(card.text).toContain('Dear Luis Chan,');
    expect(card.text).toContain('She loved the reef.');
    for (const part of [card.subject ?? '', card.text ?? '', card.html || '']) expect(part).not.toMatch(/\$\s*\d|50\.00|USD/);
    // The donor's receipt says so too; by the time it is written, the relay has sent everything of this gift.
    const receipt = await waitForReceipt(MAIL_DIR, donorEmail);
    expect(receipt.text).toContain('In memory of Grandma Rosa');
    expect(await cardsTo(notifyEmail)).toBe(1);
  });

  test('a declined dedicated gift sends no card', async ({ page }, testInfo) => {
    const notifyEmail = uniqueAddress(testInfo, 'tribute-declined');
    await chooseDonation(page, { frequency: 'one-time', cause: 'research-science' });
    await fillDonorForm(page, { cardNumber: TEST_CARDS.declined, email: uniqueAddress(testInfo, 'declined-donor') });
    await toggle(page).check();
    await field(page, "Honoree's Name").fill('Coach Kim');
    await notifyToggle(page).check();
    await field(page, "Recipient's Name").fill('Kim Lee');
    await field(page, "Recipient's Email").fill(notifyEmail);
    await page.getByRole('button', { name: 'Complete Donation of $25' }).click();
    await expect(page.getByRole('alert')).toHaveText('Error: Your card was declined.');
    await expect(page).toHaveURL(/\/donate\/form$/);

    // A later gift's receipt marks that the relay has sent everything queued before it (it sends oldest due first).
    const laterDonor = uniqueAddress(testInfo, 'tribute-later');
    await chooseDonation(page, { frequency: 'one-time', cause: 'research-science' });
    await fillDonorForm(page, { email: laterDonor });
    await page.getByRole('button', { name: 'Complete Donation of $25' }).click();
    await expect(page.getByRole('heading', { name: 'Thank You!' })).toBeVisible();
    await waitForReceipt(MAIL_DIR, laterDonor);
    expect(await cardsTo(notifyEmail)).toBe(0);
  });

  test('axe finds nothing on the form with the section open, nor with its errors showing; errors are tied to their fields', async ({ page }) => {
    await chooseDonation(page, { frequency: 'monthly', cause: 'education-outreach' });
    await toggle(page).check();
    await notifyToggle(page).check();
    await expectNoAxeViolations(page, 'form with the "Dedicate this gift" section open');

    const honoree = field(page, "Honoree's Name");
    const email = field(page, "Recipient's Email");
    await honoree.focus();
    await page.keyboard.press('Tab');
    await field(page, "Recipient's Name").focus();
    await page.keyboard.type('K');
    await email.focus();
    await page.keyboard.type('kim@nowhere');
    await page.keyboard.press('Tab');
    await expect(honoree).toHaveAttribute('aria-invalid', 'true');
    await expect(honoree).toHaveAccessibleDescription("Honoree's name is required");
    await expect(field(page, "Recipient's Name")).toHaveAccessibleDescription('Recipient name must be at least 2 characters');
    await expect(email).toHaveAccessibleDescription('Please enter a valid email address');
    await expectNoAxeViolations(page, 'form with the "Dedicate this gift" section\'s errors');

    // Closing the section drops its rules: the rest of the form decides alone again.
    await toggle(page).uncheck();
    await expect(honoree).toHaveCount(0);
  });
});
