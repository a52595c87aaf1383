import { randomUUID } from 'node:crypto';
import { STAFF_API, staffApiPath } from '../../src/shared/staff/paths';
import { expectNoAxeViolations } from './a11y-helpers';
import { expect, fillDonorForm, test } from './fixtures';
import { expectNoHorizontalScroll } from './reflow-helpers';
import { csrfHeaders, emailedStaffLink, enrollFromLink, openStaffBrowser, operatorInvites, type StaffBrowser, uniqueStaffAddress } from './staff-helpers';

/**
 * Campaigns that staff run, in the back office (issue #34, "Staff run campaigns"), in Chromium with a virtual
 * authenticator per staff member, against the real server and database: a finance member creates a campaign with a
 * $1,000 goal ending in three days; a donor gives $50 covering the fee by its link; the campaign's page shows $50.00,
 * 5% and 1 donor, its figures over time and its link; a viewer reads it and can neither create nor edit (no buttons,
 * API 403). axe 0 on the list, the dialog and the page; 320 px reflow.
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

test('a finance member creates a campaign with a $1,000 goal; a $50 gift covering the fee shows as $50, 5% and 1 donor on its page; a viewer can neither create nor edit', async ({ browser, page: donorPage }) => {
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

  // A donor gives $50 covering the fee by the campaign's link.
  await donorPage.goto(`/donate?amount=50&cause=research-science&campaign=${slug}`);
  await expect(donorPage.getByRole('button', { name: '$50', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await donorPage.getByRole('button', { name: 'Continue to Donation' }).click();
  await fillDonorForm(donorPage, { email: uniqueStaffAddress('campaign-donor') });
  await donorPage.getByRole('checkbox', { name: /cover the card processing fee/ }).check();
  await donorPage.getByRole('button', { name: /^Complete Donation of \$51\.81/ }).click();
  await expect(donorPage.getByRole('heading', { name: 'Thank You!' })).toBeVisible();

  // Staff figures are read now: $50.00, 5% and one donor.
  await finance.page.reload();
  const figures = finance.page.getByRole('definition');
  await expect(figures.nth(1)).toHaveText('$50.00');
  await expect(figures.nth(2)).toHaveText('$1,000.00');
  await expect(figures.nth(3)).toHaveText('5%');
  await expect(figures.nth(4)).toHaveText('1');
  await expect(finance.page.getByRole('link', { name: 'Its gifts in the donations list' })).toHaveAttribute('href', `/staff/donations?campaign=${slug}`);
  await expectNoAxeViolations(finance.page, 'a campaign page');
  await expectReflowAt320(finance, 'a campaign page');
  await finance.page.getByRole('button', { name: 'Edit the campaign' }).click();
  await expectNoAxeViolations(finance.page, 'the edit dialog');
  await expect(finance.page.getByRole('dialog', { name: 'Edit the campaign' }).getByRole('textbox', { name: 'Slug' })).toHaveAttribute('readonly', '');
  await finance.page.getByRole('dialog', { name: 'Edit the campaign' }).getByRole('button', { name: 'Cancel' }).click();

  await finance.page.goto('/staff/campaigns?status=live');
  const row = finance.page.getByRole('region', { name: 'Campaigns' }).getByRole('row').filter({ hasText: slug });
  await expect(row).toContainText('$50.00');
  await expect(row).toContainText('5%');
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
