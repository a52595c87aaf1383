import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { STAFF_API, staffApiPath } from '../../src/shared/staff/paths';
import { expectNoAxeViolations } from './a11y-helpers';
import { expect, fillDonorForm, test } from './fixtures';
import { expectNoHorizontalScroll } from './reflow-helpers';
import { csrfHeaders, emailedStaffLink, enrollFromLink, openStaffBrowser, operatorInvites, type StaffBrowser, uniqueStaffAddress } from './staff-helpers';

/**
 * The campaign story of issue #34 ("Must be shown"), in Chromium with a virtual authenticator per staff member, against
 * the real server and database (its figures kept CAMPAIGN_FIGURES_MAX_AGE_MS, shortened in playwright.config.ts): a
 * finance member creates a campaign with a $1,000 goal ending in three days and its supporters' list on; a donor opens
 * its link and sees $0 of $1,000, gives $50 covering the fee, ticks to show her name, and the page soon shows $50, 5%,
 * 1 donor and her name; the campaign's staff page shows the same figures, its gifts, its link and its supporters;
 * finance refunds $20 and the page shows $30; finance hides the supporter; the Spanish page shows the Spanish title;
 * ended, the link says the campaign has ended; a viewer reads it and can neither create nor edit (no buttons, API 403).
 * axe 0 on the list, the dialogs, the staff page, the thank-you page's choice and the campaign page with its
 * supporters; 320 px reflow.
 */

/** Checks the page at 320 px wide (WCAG 1.4.10), then gives it back its width. */
async function expectReflowAt320(staff: StaffBrowser, state: string): Promise<void> {
  const size = staff.page.viewportSize() ?? { width: 1280, height: 900 };
  await staff.page.setViewportSize({ width: 320, height: 800 });
  await expectNoHorizontalScroll(staff.page, state);
  await staff.page.setViewportSize(size);
}

/** `YYYY-MM-DDTHH:mm` three days from now in UTC (the e2e server's TZ). */
const inThreeDays = () => new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 16);
/** `YYYY-MM-DDTHH:mm` two minutes ago in UTC. */
const twoMinutesAgo = () => new Date(Date.now() - 2 * 60_000).toISOString().slice(0, 16);

/** Loads `path` again until `text` shows: the public figures are kept a short while (CAMPAIGN_FIGURES_MAX_AGE_MS). */
async function reloadUntilShown(page: Page, path: string, text: string): Promise<void> {
  await expect(async () => {
    await page.goto(path);
    await expect(page.getByText(text, { exact: true })).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 60_000 });
}

test('staff create a $1,000 campaign; a donor gives $50 covering the fee and shows her name; the page shows $50, 5%, 1 donor, then $30 after a $20 refund; Spanish title; ended link; a viewer can neither create nor edit', async ({ browser, page: donorPage }) => {
  // NOTE: 180 s rather than the 60 s default: one story of dependent steps (two passkey enrolments, a card gift, a
  // refund, the public figures awaited three times through their 2 s cache, axe on nine states). It took 2.2 min on
  // this 2-core machine at a load of 8.5 with the other worker busy; every wait inside is still bounded by expect's.
  test.setTimeout(180_000);
  const slug = `reef-${randomUUID().slice(0, 8)}`;
  const financeEmail = uniqueStaffAddress('campaigns-finance');
  const viewerEmail = uniqueStaffAddress('campaigns-viewer');

  const finance = await openStaffBrowser(browser);
  await operatorInvites(finance.page, financeEmail, 'finance');
  await enrollFromLink(finance, await emailedStaffLink(financeEmail, 'staff_invitation'), financeEmail);
  await finance.page.getByRole('navigation', { name: 'Staff' }).getByRole('link', { name: 'Campaigns', exact: true }).click();
  await expect(finance.page.getByRole('heading', { level: 1 })).toHaveText('Campaigns');
  await expectNoAxeViolations(finance.page, 'the campaigns page');

  await finance.page.getByRole('button', { name: 'New campaign' }).click();
  const dialog = finance.page.getByRole('dialog', { name: 'New campaign' });
  await expectNoAxeViolations(finance.page, 'the new campaign dialog');
  await dialog.getByRole('textbox', { name: 'Slug' }).fill(slug);
  await dialog.getByRole('textbox', { name: 'Title (English)' }).fill('Coral nurseries');
  await dialog.getByRole('textbox', { name: 'Title (Spanish)' }).fill('Viveros de coral');
  await dialog.getByRole('textbox', { name: 'Goal in dollars' }).fill('1000');
  await dialog.getByLabel(/^Ends/).fill(inThreeDays());
  await dialog.getByRole('checkbox', { name: "Show the supporters' list" }).check();
  await dialog.getByRole('checkbox', { name: /^Published/ }).check();
  // A bad goal is refused, named under its field, and nothing is created.
  await dialog.getByRole('textbox', { name: 'Goal in dollars' }).fill('-5');
  await dialog.getByRole('button', { name: 'Create the campaign' }).click();
  await expect(dialog.getByRole('alert')).toBeVisible();
  await expect(dialog.getByRole('textbox', { name: 'Goal in dollars' })).toHaveAttribute('aria-invalid', 'true');
  await expectNoAxeViolations(finance.page, 'the new campaign dialog with an error');
  await dialog.getByRole('textbox', { name: 'Goal in dollars' }).fill('1000');
  await dialog.getByRole('button', { name: 'Create the campaign' }).click();
  await expect(finance.page.getByRole('heading', { level: 1 })).toHaveText('Coral nurseries');
  const campaignPath = new URL(finance.page.url()).pathname;
  const campaignId = campaignPath.split('/').pop() ?? '';
  await expect(finance.page.getByText(`/donate?campaign=${slug}`)).toBeVisible();
  await expect(finance.page.getByRole('definition').nth(1)).toHaveText('$0.00');

  // A donor opens the campaign's link: $0 of $1,000; she gives $50 covering the fee.
  const campaignLink = `/donate?campaign=${slug}`;
  await donorPage.goto(`/donate?amount=50&cause=research-science&campaign=${slug}`);
  await expect(donorPage.getByText('$0 raised of $1,000', { exact: true })).toBeVisible();
  await expect(donorPage.getByRole('button', { name: '$50', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await donorPage.getByRole('button', { name: 'Continue to Donation' }).click();
  await fillDonorForm(donorPage, { name: 'Marisol Chan', email: uniqueStaffAddress('campaign-donor') });
  await donorPage.getByRole('checkbox', { name: /cover the card processing fee/ }).check();
  await donorPage.getByRole('button', { name: /^Complete Donation of \$51\.81/ }).click();
  await expect(donorPage.getByRole('heading', { name: 'Thank You!' })).toBeVisible();
  // She ticks to show her name (unticked until she does); the page says it is saved.
  const showName = donorPage.getByRole('checkbox', { name: 'Show my name on the campaign page' });
  await expect(showName).not.toBeChecked();
  await showName.check();
  await expect(donorPage.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  await expectNoAxeViolations(donorPage, "the thank-you page's supporters' choice");

  // Within a minute the campaign's page shows $50, 5%, 1 donor and her name, never her amount.
  await reloadUntilShown(donorPage, campaignLink, '$50 raised of $1,000');
  await expect(donorPage.getByText('5% of the goal', { exact: true })).toBeVisible();
  await expect(donorPage.getByText('1 donor', { exact: true })).toBeVisible();
  const supporters = donorPage.getByRole('region', { name: 'Supporters' });
  await expect(supporters.getByRole('listitem')).toHaveCount(1);
  await expect(supporters).toContainText('Marisol Chan');
  await expect(supporters).not.toContainText('$');
  await expectNoAxeViolations(donorPage, "a campaign page with its supporters' list");
  await donorPage.setViewportSize({ width: 320, height: 800 });
  await expectNoHorizontalScroll(donorPage, "a campaign page with its supporters' list at 320 px");
  await donorPage.setViewportSize({ width: 1280, height: 900 });

  // Staff figures are read now: $50.00, 5% and one donor.
  await finance.page.reload();
  const figures = finance.page.getByRole('definition');
  await expect(figures.nth(1)).toHaveText('$50.00');
  await expect(figures.nth(2)).toHaveText('$1,000.00');
  await expect(figures.nth(3)).toHaveText('5%');
  await expect(figures.nth(4)).toHaveText('1');
  await expect(finance.page.getByRole('link', { name: 'Its gifts in the donations list' })).toHaveAttribute('href', `/staff/donations?campaign=${slug}`);
  await expect(finance.page.getByText(/^Raised counts the succeeded gifts/)).toBeVisible();
  await expect(finance.page.getByRole('region', { name: 'Raised by day' }).getByRole('row')).toHaveCount(2);
  const staffSupporters = finance.page.getByRole('region', { name: 'Supporters' });
  await expect(staffSupporters.getByRole('row').filter({ hasText: 'Marisol Chan' })).toContainText('Shown');
  await expectNoAxeViolations(finance.page, 'a campaign page');
  await expectReflowAt320(finance, 'a campaign page');

  // Finance refunds $20 of the gift, from the campaign's gifts: the campaign's page shows $30.
  await finance.page.getByRole('link', { name: 'Its gifts in the donations list' }).click();
  await finance.page.getByRole('region', { name: 'Donations' }).getByRole('link', { name: 'Marisol Chan' }).click();
  await expect(finance.page.getByRole('heading', { level: 1 })).toHaveText('Donation of $51.81 by Marisol Chan');
  await finance.page.getByRole('button', { name: 'Refund', exact: true }).click();
  const refund = finance.page.getByRole('dialog', { name: 'Refund this donation' });
  await refund.getByRole('radio', { name: 'Part of it' }).check();
  await refund.getByRole('textbox', { name: 'Amount to refund ($)' }).fill('20');
  await refund.getByRole('textbox', { name: 'Reason' }).fill('The donor asked for $20 back');
  await refund.getByRole('button', { name: 'Refund $20.00' }).click();
  await expect(finance.page.getByRole('status')).toHaveText('Refunded $20.00.');
  await reloadUntilShown(donorPage, campaignLink, '$30 raised of $1,000');
  await expect(donorPage.getByText('3% of the goal', { exact: true })).toBeVisible();

  // Finance hides the supporter (audited): the public list drops her.
  await finance.page.goto(campaignPath);
  await expect(finance.page.getByRole('definition').nth(1)).toHaveText('$30.00');
  await finance.page.getByRole('button', { name: 'Hide Marisol Chan' }).click();
  await expect(staffSupporters.getByRole('row').filter({ hasText: 'Marisol Chan' })).toContainText('Hidden');
  await expect(async () => {
    await donorPage.goto(campaignLink);
    await expect(donorPage.getByText('$30 raised of $1,000', { exact: true })).toBeVisible({ timeout: 1_000 });
    await expect(donorPage.getByRole('region', { name: 'Supporters' })).toHaveCount(0, { timeout: 1_000 });
  }).toPass({ timeout: 60_000 });

  // The Spanish page shows the Spanish title.
  await donorPage.goto(`/es/donate?campaign=${slug}`);
  await expect(donorPage.getByRole('heading', { level: 1 })).toHaveText('Viveros de coral');
  await finance.page.getByRole('button', { name: 'Edit the campaign' }).click();
  await expectNoAxeViolations(finance.page, 'the edit dialog');
  await expect(finance.page.getByRole('dialog', { name: 'Edit the campaign' }).getByRole('textbox', { name: 'Slug' })).toHaveAttribute('readonly', '');
  await finance.page.getByRole('dialog', { name: 'Edit the campaign' }).getByRole('button', { name: 'Cancel' }).click();

  // Finance ends the campaign: its link says it has ended and what it raised.
  await finance.page.getByRole('button', { name: 'Edit the campaign' }).click();
  const edit = finance.page.getByRole('dialog', { name: 'Edit the campaign' });
  await edit.getByLabel(/^Ends/).fill(twoMinutesAgo());
  await edit.getByRole('button', { name: 'Save the campaign' }).click();
  await expect(edit).toHaveCount(0);
  await expect(finance.page.getByRole('definition').first()).toHaveText('Ended');
  await reloadUntilShown(donorPage, campaignLink, "This campaign has ended. It raised $30. Gifts made now support the reserve's general work.");

  await finance.page.goto('/staff/campaigns?status=ended');
  const row = finance.page.getByRole('region', { name: 'Campaigns' }).getByRole('row').filter({ hasText: slug });
  await expect(row).toContainText('$30.00');
  await expect(row).toContainText('3%');
  await expectReflowAt320(finance, 'the campaigns page');

  // A viewer reads the campaign and can neither create nor edit one.
  const viewer = await openStaffBrowser(browser, { width: 320, height: 800 });
  await operatorInvites(viewer.page, viewerEmail, 'viewer');
  await enrollFromLink(viewer, await emailedStaffLink(viewerEmail, 'staff_invitation'), viewerEmail);
  await viewer.page.goto('/staff/campaigns');
  await expect(viewer.page.getByRole('heading', { level: 1 })).toHaveText('Campaigns');
  await expect(viewer.page.getByRole('button', { name: 'New campaign' })).toHaveCount(0);
  await expectNoHorizontalScroll(viewer.page, 'the campaigns page at 320 px');
  await viewer.page.goto(campaignPath);
  await expect(viewer.page.getByRole('heading', { level: 1 })).toHaveText('Coral nurseries');
  await expect(viewer.page.getByRole('button', { name: 'Edit the campaign' })).toHaveCount(0);
  await expectNoAxeViolations(viewer.page, 'a campaign page at 320 px, as a viewer');
  const headers = await csrfHeaders(viewer.context);
  const body = { slug: `${slug}-x`, texts: { en: { title: 'X', description: '' } }, goal: null, startsAt: null, endsAt: null, presetAmount: null, presetFrequency: null, presetCause: null, showSupporters: false, published: true };
  expect((await viewer.page.request.post(STAFF_API.campaigns, { headers, data: body })).status()).toBe(403);
  expect((await viewer.page.request.put(staffApiPath(STAFF_API.campaign, campaignId), { headers, data: body })).status()).toBe(403);

  expect(finance.errors, "errors on the finance member's pages").toEqual([]);
  expect(viewer.errors, "errors on the viewer's pages").toEqual([]);
  await finance.context.close();
  await viewer.context.close();
});
