import { join } from 'node:path';
import type { Page, TestInfo } from '@playwright/test';
import { MANAGE_PLAN_API_PATH } from '../../src/shared/recurring';
import { PAUSE_DATE_TOO_FAR_MESSAGE } from '../../src/shared/recurring-api';
import { expectNoAxeViolations } from './a11y-helpers';
import { E2E_ADMIN_TOKEN, E2E_DATA_DIR } from './e2e-env';
import { chooseDonation, expect, fillDonorForm, test } from './fixtures';
import { manageLinkPath, waitForReceipt } from './mail-helpers';
import { expectNoHorizontalScroll } from './reflow-helpers';

/**
 * Recurring gifts end to end (issue #13), on the production server in test mode: a donor gives $30 monthly, opens the
 * manage link of the receipt e-mail the relay wrote into MAIL_DIR, pauses, resumes, changes the amount, then cancels
 * with the keyboard alone through one confirmation step; an operator's billing run a month later charges nothing
 * more for that gift. The page passes axe and reflows at 320 px.
 */

const MAIL_DIR = join(E2E_DATA_DIR, 'mail');

/** A value of the plan's summary (a `dd` of its description list). */
const summaryValue = (page: Page, value: string) => page.getByRole('definition').filter({ hasText: new RegExp(`^${value.replace(/[$.]/g, '\\$&')}$`) });

/** The status message the page announces after a change. */
const announced = (page: Page) => page.getByRole('status');

/** An address no other test uses. */
const uniqueAddress = (testInfo: TestInfo) => `monthly-${testInfo.workerIndex}-${Date.now()}@example.org`;

test('donor gives $30 monthly, manages the gift from the link in the receipt (pause, resume, new amount), then cancels it with the keyboard; billing a month later charges nothing', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  const email = uniqueAddress(testInfo);
  await chooseDonation(page, { customAmount: '30', frequency: 'monthly', cause: 'education-outreach' });
  await fillDonorForm(page, { name: 'Rosa Young', email });
  await page.getByRole('button', { name: 'Complete Donation of $30' }).click();
  await expect(page.getByRole('heading', { name: 'Thank You!' })).toBeVisible();
  // The thank-you page says it is a monthly gift, and when the next charge is.
  await expect(page.getByRole('definition').filter({ hasText: /^\$30 monthly$/ })).toBeVisible();
  await expect(page.getByRole('term').filter({ hasText: 'Next charge' })).toBeVisible();

  // The receipt e-mail says the gift recurs and carries the manage link (on PUBLIC_URL: its path is this site's).
  const receipt = await waitForReceipt(MAIL_DIR, email);
  expect(receipt.text).toMatch(/^Next charge: \d{1,2} \w+ \d{4} \(recurring gift\)$/m);
  const managePath = manageLinkPath(receipt);
  expect(managePath, 'a manage link in the receipt').toBeTruthy();
  const token = (managePath ?? '').split('/').at(-1) ?? '';

  await page.goto(managePath ?? '');
  await expect(page.getByRole('heading', { name: 'Manage Your Recurring Gift', level: 1 })).toBeVisible();
  await expect(summaryValue(page, '$30 monthly')).toBeVisible();
  await expect(summaryValue(page, 'Education and Outreach')).toBeVisible();
  // The plan's charge day, the day of the month as an English ordinal (issue #24: `The 26th of each month`).
  await expect(page.getByRole('definition').filter({ hasText: /^The \d{1,2}(st|nd|rd|th) of each month/ })).toBeVisible();
  await expectNoAxeViolations(page, 'manage page, active gift');

  // A pause date the server refuses (more than a year away): the field says why, and so does the focused alert.
  const pauseUntil = page.getByLabel('Pause until (optional)');
  await pauseUntil.fill('2099-01-01');
  await page.getByRole('button', { name: 'Pause Gift' }).click();
  await expect(page.getByRole('alert')).toBeFocused();
  await expect(page.getByRole('alert')).toContainText(PAUSE_DATE_TOO_FAR_MESSAGE);
  await expect(pauseUntil).toHaveAttribute('aria-invalid', 'true');
  await expect(summaryValue(page, 'Active')).toBeVisible();
  await pauseUntil.fill('');

  await page.getByRole('button', { name: 'Pause Gift' }).click();
  await expect(announced(page)).toContainText('Your gift is paused until you resume it.');
  await expect(summaryValue(page, 'Paused')).toBeVisible();
  await expectNoAxeViolations(page, 'manage page, paused gift');

  await page.getByRole('button', { name: 'Resume Gift' }).click();
  await expect(announced(page)).toContainText('Your gift is active again.');

  await page.getByRole('textbox', { name: 'Amount (USD)' }).fill('45');
  await page.getByRole('button', { name: 'Save Amount' }).click();
  await expect(announced(page)).toContainText('Your new amount applies from your next charge.');
  await expect(summaryValue(page, '$45 monthly')).toBeVisible();

  await page.setViewportSize({ width: 320, height: 800 });
  await expectNoHorizontalScroll(page, 'manage page at 320 px');
  await page.setViewportSize({ width: 1280, height: 800 });

  // Cancel with the keyboard alone: Tab to the button, Enter, the dialog's focus on 'Keep My Gift', Tab, Enter.
  const cancel = page.getByRole('button', { name: 'Cancel Gift' });
  await cancel.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Cancel your $45 monthly gift?' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Keep My Gift' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: 'Yes, Cancel My Gift' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(announced(page)).toContainText('Your gift is cancelled.');
  await expect(summaryValue(page, 'Cancelled')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Pause Gift' })).toHaveCount(0);
  await expectNoAxeViolations(page, 'manage page, cancelled gift');

  // An operator runs billing as of a month later: this gift is not charged.
  const monthLater = new Date(Date.now() + 32 * 24 * 60 * 60 * 1000).toISOString();
  const run = await request.post('/api/admin/billing/run', { headers: { authorization: `Bearer ${E2E_ADMIN_TOKEN}` }, data: { asOf: monthLater } });
  expect(run.status()).toBe(200);
  const plan = (await (await request.get(MANAGE_PLAN_API_PATH.replace(':token', token))).json()) as { data: { status: string; charges: unknown[] } };
  expect(plan.data.status).toBe('cancelled');
  expect(plan.data.charges).toHaveLength(1);
});
