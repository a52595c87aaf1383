import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { IDEMPOTENCY_KEY_HEADER } from '../../src/shared/api';
import { CAUSE_DETAILS, CAUSES } from '../../src/shared/causes';
import { STAFF_API, staffApiPath } from '../../src/shared/staff/paths';
import { netOfStandardExportBy, totalsOfStandardExport } from '../../src/server/staff/dashboard/testing/export-totals';
import { expectNoAxeViolations } from './a11y-helpers';
import { chooseDonation, expect, fillDonorForm, test } from './fixtures';
import { tabTo } from './keyboard-helpers';
import { expectNoHorizontalScroll } from './reflow-helpers';
import { csrfHeaders, emailedStaffLink, enrollFromLink, openStaffBrowser, operatorInvites, type StaffBrowser, uniqueStaffAddress } from './staff-helpers';

/**
 * The staff dashboard end to end (issue #22, "Must be shown": "the dashboard's figures match the export for the same
 * days"; a viewer sees it; axe 0 with the charts; the tables beside the charts reached by keyboard; 320 px), in Chromium
 * against the real server, staff signed in with passkeys through Chromium's virtual authenticator (CDP). Donors give
 * through /donate and finance refunds part of a gift; then every figure read from the page's tables equals what the
 * staff export (the standard CSV of the same days) says. Other specs may give on the same server meanwhile, so the
 * page and the export are read again until one reading of both agrees (each reading compares the two at one moment).
 */

/** `$1,234.50` as integer cents (123450). */
function centsOf(text: string): number {
  const match = /^\$([\d,]+)\.(\d{2})$/.exec(text.trim());
  if (!match) throw new Error(`Not an amount: ${text}`);
  return Number(match[1]!.replaceAll(',', '')) * 100 + Number(match[2]);
}

/** `Nov 26, 2026` (the page's day) as `2026-11-26`. */
function isoDayOf(text: string): string {
  const instant = new Date(`${text.trim()} 00:00:00 GMT`);
  if (Number.isNaN(instant.getTime())) throw new Error(`Not a day: ${text}`);
  return instant.toISOString().slice(0, 10);
}

/** The body rows of the table in the region named `name`, each as the texts of its cells (header cell first). */
async function tableRows(page: Page, name: string): Promise<string[][]> {
  const rows = page.getByRole('region', { name, exact: true }).locator('tbody tr');
  const texts: string[][] = [];
  for (const row of await rows.all()) texts.push(await row.locator('th, td').allInnerTexts());
  return texts;
}

/** A donor gives $25 `frequency` to `cause` through /donate as `email`, and sees the thank-you page. */
async function give(page: Page, email: string, frequency: 'one-time' | 'monthly', cause: (typeof CAUSES)[number]): Promise<void> {
  await chooseDonation(page, { frequency, cause });
  await fillDonorForm(page, { name: 'Ixchel Pop', email });
  await page.getByRole('button', { name: /^Complete Donation of \$25/ }).click();
  await expect(page.getByRole('heading', { name: 'Thank You!' })).toBeVisible();
}

/** The staff export (standard CSV) of `from` to `to` (staff days, both included), as `staff` downloads it. */
async function staffExport(staff: StaffBrowser, from: string, to: string): Promise<string> {
  const answer = await staff.page.request.get(`${STAFF_API.donationsExport}?${new URLSearchParams({ format: 'standard', from, to }).toString()}`);
  expect(answer.status()).toBe(200);
  return answer.text();
}

/** Loads the dashboard again, opens its daily table, reads its tables and checks each figure against the staff export of the same days. */
async function expectTablesMatchExport(staff: StaffBrowser): Promise<void> {
  const { page } = staff;
  await page.reload();
  await page.getByRole('button', { name: 'Show as table' }).click();
  await expect(page.getByRole('region', { name: 'Net raised per day, last 30 days' })).toBeVisible();
  const daily = await tableRows(page, 'Net raised per day, last 30 days');
  expect(daily).toHaveLength(30);
  const from = isoDayOf(daily[0]![0]!);
  const today = isoDayOf(daily.at(-1)![0]!);

  // Each day of the last 30: the day's net is the export's of that day.
  const last30 = await staffExport(staff, from, today);
  const todayExport = await staffExport(staff, today, today);
  expect(centsOf(daily.at(-1)![1]!), 'today in the daily table').toBe(totalsOfStandardExport(todayExport).netCents);
  expect(centsOf(await page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Today' }) }).locator('[data-figure="net"]').innerText()), 'the Today card').toBe(
    totalsOfStandardExport(todayExport).netCents,
  );
  const dailyTotal = daily.reduce((total, row) => total + centsOf(row[1]!), 0);
  expect(dailyTotal, 'the 30 days of the daily table').toBe(totalsOfStandardExport(last30).netCents);
  // The story's own gifts are among them: $25 to education less the $10 refunded, and $25 monthly to marine.
  expect(dailyTotal).toBeGreaterThanOrEqual(1500 + 2500);

  // By cause and one-time versus recurring, last 30 days (the breakdowns' default period).
  const causeNet = netOfStandardExportBy(last30, 'cause');
  const causes = await tableRows(page, 'Net raised by cause, last 30 days');
  expect(causes.map((row) => [row[0], centsOf(row[2]!)])).toEqual(CAUSES.map((cause) => [CAUSE_DETAILS[cause].displayName, causeNet[cause] ?? 0]));
  expect(causeNet['education-outreach']).toBeGreaterThanOrEqual(1500);
  expect(causeNet['marine-protected-areas']).toBeGreaterThanOrEqual(2500);
  const frequencyNet = netOfStandardExportBy(last30, 'frequency');
  const kinds = await tableRows(page, 'One-time and recurring, last 30 days');
  expect(kinds.map((row) => centsOf(row[2]!))).toEqual(['one-time', 'monthly', 'yearly'].map((frequency) => frequencyNet[frequency] ?? 0));

  // This month to today, from the monthly table.
  const months = await tableRows(page, 'Net raised per month, this year');
  expect(centsOf(months.at(-1)![1]!), 'this month').toBe(totalsOfStandardExport(await staffExport(staff, `${today.slice(0, 7)}-01`, today)).netCents);
}

test.describe('staff dashboard', () => {
  test('finance lands on the dashboard after gifts and a refund, and every figure of its tables matches the export of the same days; a viewer sees it too; axe, keyboard and 320 px', async ({ browser, page: donorPage }) => {
    test.setTimeout(180_000);
    const financeEmail = uniqueStaffAddress('dashboard-finance');
    const viewerEmail = uniqueStaffAddress('dashboard-viewer');
    const oneTimeDonor = uniqueStaffAddress('dashboard-donor');
    const monthlyDonor = uniqueStaffAddress('dashboard-monthly');

    const finance = await openStaffBrowser(browser);
    await operatorInvites(finance.page, financeEmail, 'finance');
    await enrollFromLink(finance, await emailedStaffLink(financeEmail, 'staff_invitation'), financeEmail);

    // Two gifts, and finance refunds $10 of the one-time one (a partial refund: it counts for $15).
    await give(donorPage, oneTimeDonor, 'one-time', 'education-outreach');
    await give(donorPage, monthlyDonor, 'monthly', 'marine-protected-areas');
    const found = await finance.page.request.get(`${STAFF_API.donations}?${new URLSearchParams({ q: oneTimeDonor }).toString()}`);
    const [gift] = ((await found.json()) as { rows: { id: string }[] }).rows;
    expect(gift).toBeDefined();
    const refund = await finance.page.request.post(staffApiPath(STAFF_API.donationRefunds, gift!.id), {
      headers: { ...(await csrfHeaders(finance.context)), [IDEMPOTENCY_KEY_HEADER]: randomUUID() },
      data: { amountCents: 1000, reason: 'Gave twice by mistake' },
    });
    expect(refund.status(), await refund.text()).toBe(201);

    // The dashboard from the navigation; an unknown staff page lands on it too.
    await finance.page.getByRole('navigation', { name: 'Staff' }).getByRole('link', { name: 'Dashboard', exact: true }).click();
    await expect(finance.page).toHaveURL(/\/staff$/);
    await expect(finance.page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    await finance.page.goto('/staff/no-such-page');
    await expect(finance.page).toHaveURL(/\/staff$/);
    await expect(finance.page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();

    // The daily table is one keypress away: Tab to "Show as table", Enter, then Tab into the table itself.
    const show = finance.page.getByRole('button', { name: 'Show as table' });
    await finance.page.getByRole('heading', { level: 1 }).focus();
    await tabTo(finance.page, show, 60);
    await expect(show).toHaveAttribute('aria-expanded', 'false');
    await finance.page.keyboard.press('Enter');
    await expect(finance.page.getByRole('button', { name: 'Hide the table' })).toHaveAttribute('aria-expanded', 'true');
    const dailyRegion = finance.page.getByRole('region', { name: 'Net raised per day, last 30 days' });
    await tabTo(finance.page, dailyRegion, 5);
    await expect(dailyRegion.getByRole('columnheader')).toHaveText(['Day', 'Net raised', 'A year before']);
    await expectNoAxeViolations(finance.page, 'the dashboard with its charts and the daily table open');

    // Every figure read from the tables equals the export's for the same days (read again while other specs give).
    await expect(async () => {
      await expectTablesMatchExport(finance);
    }).toPass({ timeout: 60_000 });

    // The period of the breakdowns is in the URL, and its tables follow.
    await finance.page.getByRole('combobox', { name: 'Breakdowns for' }).selectOption('today');
    await expect(finance.page).toHaveURL(/\/staff\?period=today$/);
    await expect(finance.page.getByRole('region', { name: 'Net raised by cause, today' })).toBeVisible();
    await expect(finance.page.getByRole('region', { name: 'New and returning donors, today' }).getByRole('row')).toHaveCount(3);

    // 320 px: the page reflows (the tables scroll inside their own regions), the cards and their comparisons read in full.
    await finance.page.setViewportSize({ width: 320, height: 800 });
    await expectNoHorizontalScroll(finance.page, 'the dashboard at 320 px');
    await expect(finance.page.getByRole('listitem').filter({ has: finance.page.getByRole('heading', { name: 'This year' }) }).locator('[data-figure="year-before"]')).toBeVisible();
    await expectNoAxeViolations(finance.page, 'the dashboard at 320 px');
    expect(finance.errors).toEqual([]);

    // A viewer lands on the same figures.
    const viewer = await openStaffBrowser(browser);
    await operatorInvites(viewer.page, viewerEmail, 'viewer');
    await enrollFromLink(viewer, await emailedStaffLink(viewerEmail, 'staff_invitation'), viewerEmail);
    await viewer.page.goto('/staff');
    await expect(viewer.page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
    await expect(viewer.page.getByRole('region', { name: 'Net raised by cause, last 30 days' }).getByRole('row')).toHaveCount(1 + CAUSES.length);
    await expect(viewer.page.getByRole('region', { name: 'Net raised per month, this year' })).toBeVisible();
    await expectNoAxeViolations(viewer.page, "the viewer's dashboard");
    expect(viewer.errors).toEqual([]);
    await finance.context.close();
    await viewer.context.close();
  });
});
