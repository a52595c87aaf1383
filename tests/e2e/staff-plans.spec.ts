import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { STAFF_API, staffApiPath } from '../../src/shared/staff/paths';
import type { StaffPlanDetail } from '../../src/shared/staff/plans-api';
import { expectNoAxeViolations } from './a11y-helpers';
import { E2E_ADMIN_TOKEN } from './e2e-env';
import { chooseDonation, expect, fillDonorForm, test } from './fixtures';
import { tabTo } from './keyboard-helpers';
import { waitForMail, waitForReceipt } from './mail-helpers';
import { expectNoHorizontalScroll } from './reflow-helpers';
import { csrfHeaders, emailedStaffLink, enrollFromLink, MAIL_DIR, openStaffBrowser, operatorInvites, type StaffBrowser, uniqueStaffAddress } from './staff-helpers';

/**
 * The staff's recurring plans end to end (issue #22, "Recurring plans /staff/plans" and "Must be shown"), in Chromium
 * with a virtual authenticator per staff member (CDP), against the real server, its database and its mail folder: a
 * finance member finds a monthly donor by e-mail, lowers the amount, pauses until a date, resumes, e-mails the manage
 * link, then cancels with the keyboard alone, refunding the last charge; the donor receives each notice; a billing run
 * a month later charges nothing; a viewer sees the plan and can change none of it. axe on both pages and every dialog;
 * 320 px reflow.
 */

/** A donor gives $25 monthly through the form as `email` (name `name`); resolves with the first gift's receipt number. */
async function giveMonthly(page: Page, name: string, email: string): Promise<string> {
  await chooseDonation(page, { frequency: 'monthly', cause: 'research-science' });
  await fillDonorForm(page, { name, email });
  await page.getByRole('button', { name: 'Complete Donation of $25' }).click();
  await expect(page.getByRole('heading', { name: 'Thank You!' })).toBeVisible();
  const receipt = await waitForReceipt(MAIL_DIR, email);
  return /(\d{4}-\d{6,})/.exec(receipt.subject ?? '')?.[1] ?? '';
}

/** Checks the page at 320 px wide (WCAG 1.4.10), then gives it back its width. */
async function expectReflowAt320(staff: StaffBrowser, state: string): Promise<void> {
  const size = staff.page.viewportSize() ?? { width: 1280, height: 900 };
  await staff.page.setViewportSize({ width: 320, height: 800 });
  await expectNoHorizontalScroll(staff.page, state);
  await staff.page.setViewportSize(size);
}

/** The day `days` after today (UTC), YYYY-MM-DD. */
const daysFromToday = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

test('a finance member finds a monthly donor by e-mail, lowers the amount, pauses, resumes, e-mails the manage link and cancels with a refund by keyboard; the donor hears of each; billing charges nothing more; a viewer can change nothing', async ({ browser, page: donorPage }) => {
  test.setTimeout(180_000);
  const donorEmail = uniqueStaffAddress('monthly-donor');
  const financeEmail = uniqueStaffAddress('plans-finance');
  const viewerEmail = uniqueStaffAddress('plans-viewer');
  const receiptNumber = await giveMonthly(donorPage, 'Marta Cus', donorEmail);

  // The finance member finds the plan by the donor's e-mail on /staff/plans.
  const finance = await openStaffBrowser(browser);
  await operatorInvites(finance.page, financeEmail, 'finance');
  await enrollFromLink(finance, await emailedStaffLink(financeEmail, 'staff_invitation'), financeEmail);
  await finance.page.getByRole('navigation', { name: 'Staff' }).getByRole('link', { name: 'Plans', exact: true }).click();
  await expect(finance.page.getByRole('heading', { level: 1 })).toHaveText('Recurring plans');
  await finance.page.getByRole('searchbox', { name: /^Search/ }).fill(donorEmail);
  await finance.page.getByRole('combobox', { name: 'Status' }).selectOption('active');
  await finance.page.getByRole('button', { name: 'Apply filters' }).click();
  await expect(finance.page).toHaveURL(new RegExp(`\\?q=${encodeURIComponent(donorEmail)}&status=active$`));
  const rows = finance.page.getByRole('region', { name: 'Recurring plans' }).getByRole('row');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText('$25.00 monthly');
  await expect(rows.nth(1)).toContainText(receiptNumber);
  await expect(finance.page.getByRole('definition').nth(2)).toHaveText('$25.00');
  await expectNoAxeViolations(finance.page, 'the plans page, filtered');
  await expectReflowAt320(finance, 'the plans page');
  await rows.nth(1).getByRole('link', { name: 'Marta Cus' }).click();
  await expect(finance.page.getByRole('heading', { level: 1 })).toHaveText('Plan of $25.00 monthly by Marta Cus');
  const planPath = new URL(finance.page.url()).pathname;
  const planId = planPath.split('/').pop() ?? '';
  await expectNoAxeViolations(finance.page, 'a plan page');
  const status = finance.page.getByRole('status');

  // Lowers the amount: from the next charge, the donor e-mailed.
  await finance.page.getByRole('button', { name: 'Change the amount' }).click();
  const amountDialog = finance.page.getByRole('dialog', { name: 'Change the amount' });
  await expect(amountDialog.getByRole('textbox', { name: 'New amount ($)' })).toBeFocused();
  await expectNoAxeViolations(finance.page, 'the amount dialog');
  await amountDialog.getByRole('textbox', { name: 'New amount ($)' }).fill('15');
  await amountDialog.getByRole('button', { name: 'Change the amount' }).click();
  await expect(status).toHaveText('The amount is now $15.00 monthly from the next charge. The donor is e-mailed.');
  await expect(amountDialog).toHaveCount(0);
  await waitForMail(MAIL_DIR, donorEmail, 'plan_changed', 1);

  // The cause dialog is there too (checked by axe, then left as it is).
  await finance.page.getByRole('button', { name: 'Change the cause' }).click();
  await expectNoAxeViolations(finance.page, 'the cause dialog');
  await finance.page.getByRole('dialog', { name: 'Change the cause' }).getByRole('button', { name: 'Keep as it is' }).click();

  // Pauses until a date, then resumes.
  const until = daysFromToday(20);
  await finance.page.getByRole('button', { name: 'Pause', exact: true }).click();
  const pauseDialog = finance.page.getByRole('dialog', { name: 'Pause the plan' });
  await expectNoAxeViolations(finance.page, 'the pause dialog');
  await pauseDialog.getByLabel('Pause until (leave empty: until resumed)').fill(until);
  await pauseDialog.getByRole('button', { name: `Pause until ${until}` }).click();
  await expect(status).toHaveText(`The plan is paused until ${until}. The donor is e-mailed.`);
  await waitForMail(MAIL_DIR, donorEmail, 'plan_changed', 2);
  await finance.page.getByRole('button', { name: 'Resume' }).click();
  await expect(status).toHaveText('The plan is active again from its next charge date. The donor is e-mailed.');
  await waitForMail(MAIL_DIR, donorEmail, 'plan_changed', 3);

  // E-mails the donor their manage link (the page never shows it).
  await finance.page.getByRole('button', { name: 'E-mail the manage link' }).click();
  await expect(status).toHaveText('The donor is e-mailed the link to manage their gift.');
  await waitForMail(MAIL_DIR, donorEmail, 'manage_links');
  await expect(finance.page.getByText('/donate/manage/')).toHaveCount(0);

  // The history says who made each change.
  const changes = finance.page.getByRole('region', { name: 'Changes' });
  await expect(changes.getByRole('row').filter({ hasText: `Staff: ${financeEmail}` })).toHaveCount(3);
  await expect(changes.getByRole('row').filter({ hasText: '$25.00 → $15.00' })).toHaveCount(1);

  // Cancels with a refund of the last charge, with the keyboard alone.
  await tabTo(finance.page, finance.page.getByRole('button', { name: 'Cancel the plan' }));
  await finance.page.keyboard.press('Enter');
  const cancelDialog = finance.page.getByRole('dialog', { name: 'Cancel the plan' });
  const refundBox = cancelDialog.getByRole('checkbox', { name: `Also refund the last charge: $25.00, receipt ${receiptNumber}` });
  await expect(refundBox).toBeFocused();
  await expectNoAxeViolations(finance.page, 'the cancel dialog');
  await finance.page.keyboard.press('Space');
  await expect(refundBox).toBeChecked();
  await tabTo(finance.page, cancelDialog.getByRole('textbox', { name: 'Reason for the refund' }), 3);
  await finance.page.keyboard.type('The donor phoned to stop and asked for this month back');
  await expectNoAxeViolations(finance.page, 'the cancel dialog, with a refund');
  await tabTo(finance.page, cancelDialog.getByRole('button', { name: 'Cancel and refund' }), 4);
  await finance.page.keyboard.press('Enter');
  await expect(status).toHaveText('The plan is cancelled and its last charge refunded. The donor is e-mailed.');
  await expect(cancelDialog).toHaveCount(0);
  await waitForMail(MAIL_DIR, donorEmail, 'plan_changed', 4);
  await waitForMail(MAIL_DIR, donorEmail, 'receipt_void');
  await expect(finance.page.getByRole('button', { name: 'Pause', exact: true })).toHaveCount(0);
  await expect(finance.page.getByRole('region', { name: 'Charges' }).getByRole('row').nth(1)).toContainText('$25.00 refunded');
  await expectNoAxeViolations(finance.page, 'a cancelled plan page');
  await expectReflowAt320(finance, 'a plan page');

  // An operator's billing run a month later charges this plan nothing.
  const monthLater = new Date(Date.now() + 40 * 86_400_000).toISOString();
  const run = await finance.page.request.post('/api/admin/billing/run', { headers: { authorization: `Bearer ${E2E_ADMIN_TOKEN}` }, data: { asOf: monthLater } });
  expect(run.status()).toBe(200);
  const after = (await (await finance.page.request.get(staffApiPath(STAFF_API.plan, planId))).json()) as StaffPlanDetail;
  expect(after.status).toBe('cancelled');
  expect(after.charges.map((charge) => charge.status)).toEqual(['refunded']);

  // A viewer, at 320 px, sees the plans and the plan, has no action, and the API refuses theirs.
  const viewer = await openStaffBrowser(browser, { width: 320, height: 800 });
  await operatorInvites(viewer.page, viewerEmail, 'viewer');
  await enrollFromLink(viewer, await emailedStaffLink(viewerEmail, 'staff_invitation'), viewerEmail);
  await viewer.page.goto(`/staff/plans?q=${encodeURIComponent(donorEmail)}`);
  await expect(viewer.page.getByRole('region', { name: 'Recurring plans' }).getByRole('row')).toHaveCount(2);
  await expectNoHorizontalScroll(viewer.page, 'the plans page at 320 px');
  const active = await anotherActivePlan(donorPage);
  await viewer.page.goto(`/staff/plans/${active}`);
  await expect(viewer.page.getByRole('heading', { level: 1 })).toContainText('Plan of $25.00 monthly');
  for (const name of ['Change the amount', 'Change the cause', 'Pause', 'Cancel the plan', 'E-mail the manage link']) {
    await expect(viewer.page.getByRole('button', { name, exact: true })).toHaveCount(0);
  }
  await expectNoHorizontalScroll(viewer.page, 'a plan page at 320 px');
  await expectNoAxeViolations(viewer.page, 'a plan page at 320 px, as a viewer');
  const headers = await csrfHeaders(viewer.context);
  for (const [path, data] of [
    [staffApiPath(STAFF_API.planChanges, active), { action: 'cancel' }],
    [staffApiPath(STAFF_API.planChanges, active), { action: 'change_amount', amountCents: 500 }],
    [staffApiPath(STAFF_API.planManageLink, active), {}],
  ] as const) {
    const refused = await viewer.page.request.post(path, { headers: { ...headers, 'Idempotency-Key': randomUUID() }, data });
    expect(refused.status()).toBe(403);
    expect(await refused.json()).toMatchObject({ success: false, code: 'staff_forbidden' });
  }
  expect(((await (await viewer.page.request.get(staffApiPath(STAFF_API.plan, active))).json()) as StaffPlanDetail).status).toBe('active');

  expect(finance.errors, "errors on the finance member's pages").toEqual([]);
  expect(viewer.errors, "errors on the viewer's pages").toEqual([]);
  await finance.context.close();
  await viewer.context.close();

  /** Another donor's active monthly plan, for the viewer to look at; resolves with its id (found through the API as the finance member). */
  async function anotherActivePlan(page: Page): Promise<string> {
    const email = uniqueStaffAddress('active-donor');
    await giveMonthly(page, 'Luis Chan', email);
    const answer = await finance.page.request.get(`${STAFF_API.plans}?q=${encodeURIComponent(email)}`);
    const list = (await answer.json()) as { rows: { id: string }[] };
    return list.rows[0]?.id ?? '';
  }
});
