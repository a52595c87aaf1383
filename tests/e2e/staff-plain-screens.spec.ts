import type { Page } from '@playwright/test';
import { expectNoAxeViolations } from './a11y-helpers';
import { chooseDonation, expect, fillDonorForm, test } from './fixtures';
import { waitForReceipt } from './mail-helpers';
import { expectNoHorizontalScroll } from './reflow-helpers';
import { emailedStaffLink, enrollFromLink, MAIL_DIR, openStaffBrowser, operatorInvites, type StaffBrowser, uniqueStaffAddress } from './staff-helpers';

/**
 * Issue #36, parts 2 and 3, end to end in Chromium (virtual authenticator per staff member, the real server, database
 * and mail folder): a finance member finds "Okonkwo" by typing "konkwo" and "Méndez" by typing "Mendez"; an empty
 * search says so and offers to clear the filters; she refunds part of a monthly gift and cancels its plan from the
 * same dialog with a reason (no amount chosen until she chooses one); the refunds table shows the reason and who
 * refunded; the plan page shows why it was cancelled. On a phone the filters fold behind a "Filters" button; the
 * dashboard shows its layout while it loads; a viewer who opens /staff/team sees the team without the invite form.
 * axe 0 on every changed page and dialog; 320 px reflow.
 */

/** A donor gives $25 (`frequency`) through the form as `name` <`email`>; resolves once the receipt arrived. */
async function give(page: Page, frequency: 'monthly' | 'one-time', name: string, email: string): Promise<void> {
  await chooseDonation(page, { frequency, cause: 'research-science' });
  await fillDonorForm(page, { name, email, cardholderName: name });
  await page.getByRole('button', { name: 'Complete Donation of $25' }).click();
  await expect(page.getByRole('heading', { name: 'Thank You!' })).toBeVisible();
  await waitForReceipt(MAIL_DIR, email);
}

/** Checks the page at 320 px wide (WCAG 1.4.10), then gives it back its width. */
async function expectReflowAt320(staff: StaffBrowser, state: string): Promise<void> {
  const size = staff.page.viewportSize() ?? { width: 1280, height: 900 };
  await staff.page.setViewportSize({ width: 320, height: 800 });
  await expectNoHorizontalScroll(staff.page, state);
  await staff.page.setViewportSize(size);
}

/** Searches the donations list for `text` (the page's search box, then "Apply filters"). */
async function searchDonations(staff: StaffBrowser, text: string): Promise<void> {
  await staff.page.getByRole('searchbox', { name: /^Search/ }).fill(text);
  await staff.page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(staff.page).toHaveURL(new RegExp(`\\?q=${encodeURIComponent(text)}`));
}

test('a finance member finds "konkwo" and "Mendez", refunds part of a monthly gift and cancels its plan in one dialog with a reason; the refunds table says who and why; a phone folds the filters; a viewer reads the team', async ({ browser, page: donorPage }) => {
  test.setTimeout(240_000);
  const graceEmail = uniqueStaffAddress('monthly-donor');
  const luciaEmail = uniqueStaffAddress('one-time-donor');
  const financeEmail = uniqueStaffAddress('plain-finance');
  const viewerEmail = uniqueStaffAddress('plain-viewer');
  await give(donorPage, 'monthly', 'Grace Okonkwo', graceEmail);
  await give(donorPage, 'one-time', 'Lucía Méndez', luciaEmail);

  const finance = await openStaffBrowser(browser);
  await operatorInvites(finance.page, financeEmail, 'finance');
  await enrollFromLink(finance, await emailedStaffLink(financeEmail, 'staff_invitation'), financeEmail);

  // The dashboard she lands on draws its layout while its figures load.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await finance.page.route('**/api/staff/dashboard*', async (route) => {
    await held;
    await route.continue();
  });
  await finance.page.goto('/staff');
  await expect(finance.page.getByRole('status', { name: 'Loading the dashboard' })).toBeVisible();
  await expectNoAxeViolations(finance.page, 'the dashboard while it loads');
  release();
  await expect(finance.page.getByRole('list', { name: 'Net raised after refunds' })).toBeVisible();
  await expect(finance.page.getByRole('status', { name: 'Loading the dashboard' })).toHaveCount(0);
  await finance.page.unroute('**/api/staff/dashboard*');

  // Search: a part of a name, and a name without its accent.
  await finance.page.goto('/staff/donations');
  const table = finance.page.getByRole('region', { name: 'Donations' });
  await searchDonations(finance, 'konkwo');
  await expect(table.getByRole('row').filter({ hasText: graceEmail })).toHaveCount(1);
  await expect(table.getByRole('row').filter({ hasText: luciaEmail })).toHaveCount(0);
  await searchDonations(finance, 'Mendez');
  await expect(table.getByRole('row').filter({ hasText: luciaEmail })).toHaveCount(1);
  await expect(table.getByRole('row').filter({ hasText: luciaEmail })).toContainText('Lucía Méndez');
  // The payment in one plain line, the status capitalised.
  await expect(table.getByRole('row').filter({ hasText: luciaEmail })).toContainText('Test payment through the test gateway');
  await expect(table.getByRole('row').filter({ hasText: luciaEmail })).toContainText('Succeeded');
  // At 1280 px the address stays on one line.
  const address = table.getByText(luciaEmail, { exact: true });
  const box = await address.boundingBox();
  const lineHeight = await address.evaluate((element) => parseFloat(getComputedStyle(element).lineHeight) || 24);
  expect(box?.height ?? 0).toBeLessThan(lineHeight * 1.5);
  await expectNoAxeViolations(finance.page, 'the donations page with a search');

  // An empty result says so and offers to clear the filters.
  await searchDonations(finance, 'zzqxv');
  await expect(finance.page.getByRole('status').filter({ hasText: 'No donations match these filters.' })).toBeVisible();
  await expectNoAxeViolations(finance.page, 'the donations page with no match');
  await finance.page.getByRole('button', { name: 'Clear the filters' }).click();
  await expect(finance.page).toHaveURL(/\/staff\/donations$/);
  await expectReflowAt320(finance, 'the donations page');

  // On a phone the filters fold behind a "Filters" button.
  await finance.page.setViewportSize({ width: 375, height: 800 });
  const filtersButton = finance.page.getByRole('button', { name: 'Filters', exact: true });
  await expect(filtersButton).toHaveAttribute('aria-expanded', 'false');
  await expect(finance.page.getByRole('search', { name: 'Filter donations' })).toBeHidden();
  await filtersButton.click();
  await expect(filtersButton).toHaveAttribute('aria-expanded', 'true');
  await expect(finance.page.getByRole('searchbox', { name: /^Search/ })).toBeVisible();
  await expectNoAxeViolations(finance.page, 'the donations page on a phone, filters open');
  await expectNoHorizontalScroll(finance.page, 'the donations page on a phone, filters open');
  await finance.page.setViewportSize({ width: 1280, height: 900 });
  await expect(filtersButton).toBeHidden();

  // Grace's monthly gift: refund part of it and cancel the plan from the same dialog, with a reason for each.
  await searchDonations(finance, 'konkwo');
  await table.getByRole('row').filter({ hasText: graceEmail }).getByRole('link', { name: 'Grace Okonkwo' }).click();
  await expect(finance.page.getByRole('heading', { level: 1 })).toHaveText('Donation of $25.00 by Grace Okonkwo');
  await finance.page.getByRole('button', { name: 'Refund', exact: true }).click();
  const dialog = finance.page.getByRole('dialog', { name: 'Refund this donation' });
  // No amount is chosen until she chooses one.
  await expect(dialog.getByRole('radio', { name: /All that is left/ })).not.toBeChecked();
  await expect(dialog.getByRole('radio', { name: 'Part of it' })).not.toBeChecked();
  await dialog.getByRole('button', { name: /^Refund/ }).click();
  await expect(dialog.getByText('Choose how much to refund', { exact: true }).first()).toBeVisible();
  await dialog.getByRole('radio', { name: 'Part of it' }).check();
  await dialog.getByRole('textbox', { name: 'Amount to refund ($)' }).fill('10');
  await dialog.getByRole('textbox', { name: 'Reason', exact: true }).fill('Gave $10 too much by mistake');
  await dialog.getByRole('checkbox', { name: /Also cancel the plan/ }).check();
  await dialog.getByRole('textbox', { name: 'Reason for cancelling the plan' }).fill('Moving abroad; will give again next year');
  await expect(dialog.getByRole('button', { name: 'Refund $10.00 and cancel the plan' })).toBeVisible();
  await expectNoAxeViolations(finance.page, 'the refund dialog offering to cancel the plan');
  await expectReflowAt320(finance, 'the refund dialog');
  await dialog.getByRole('button', { name: 'Refund $10.00 and cancel the plan' }).click();
  await expect(finance.page.getByRole('status').filter({ hasText: 'Refunded $10.00. The plan is cancelled' })).toBeVisible();

  // The refunds table shows who refunded and why; the plan reads cancelled.
  const refunds = finance.page.getByRole('region', { name: 'Refunds' });
  await expect(refunds.getByRole('row').nth(1)).toContainText(financeEmail);
  await expect(refunds.getByRole('row').nth(1)).toContainText('Gave $10 too much by mistake');
  await expect(refunds.getByRole('row').nth(1)).toContainText('$10.00');
  await expect(finance.page.getByText('Cancelled', { exact: true })).toBeVisible();
  await expect(finance.page.getByText('Test payment through the test gateway')).toBeVisible();
  await expectNoAxeViolations(finance.page, 'a donation page with its refund and cancelled plan');
  await expectReflowAt320(finance, 'a donation page with its refund');

  // The plan's page says why it was cancelled, and counts the same charges so far.
  await finance.page.getByRole('link', { name: /The plan.s page/ }).click();
  await expect(finance.page.getByText('Moving abroad; will give again next year')).toBeVisible();
  await expect(finance.page.getByRole('term').filter({ hasText: 'Charges so far' })).toBeVisible();
  await expectNoAxeViolations(finance.page, 'the plan page of a cancelled plan');
  await expectReflowAt320(finance, 'the plan page of a cancelled plan');

  // A viewer who opens /staff/team sees the team, without the invite form.
  const viewer = await openStaffBrowser(browser);
  await operatorInvites(viewer.page, viewerEmail, 'viewer');
  await enrollFromLink(viewer, await emailedStaffLink(viewerEmail, 'staff_invitation'), viewerEmail);
  await viewer.page.goto('/staff/team');
  await expect(viewer.page.getByRole('heading', { level: 1 })).toHaveText('Team');
  await expect(viewer.page.getByRole('region', { name: 'Team members' }).getByRole('row').filter({ hasText: viewerEmail })).toContainText('Viewer');
  await expect(viewer.page.getByRole('button', { name: 'Invite' })).toHaveCount(0);
  await expect(viewer.page.getByRole('form', { name: 'Invite someone' })).toHaveCount(0);
  await expectNoAxeViolations(viewer.page, 'the team page of a viewer');
  await expectReflowAt320(viewer, 'the team page of a viewer');
  await viewer.context.close();
  await finance.context.close();
});
