import { createHash, randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { OFFLINE_CSV_COLUMNS } from '../../src/shared/offline-gifts';
import { STAFF_API, staffApiPath } from '../../src/shared/staff/paths';
import { expectNoAxeViolations } from './a11y-helpers';
import { expect, fillDonorForm, test } from './fixtures';
import { waitForMail, waitForReceipt } from './mail-helpers';
import { expectNoHorizontalScroll } from './reflow-helpers';
import { csrfHeaders, emailedStaffLink, enrollFromLink, MAIL_DIR, openStaffBrowser, operatorInvites, type StaffBrowser, uniqueStaffAddress } from './staff-helpers';

/**
 * Gifts received outside the site (issue #37, "Must be shown": the end-to-end story), in Chromium against the real
 * server and database: a finance member records a $200 cheque for a donor who gave on the site, dated last month, for
 * a campaign; the donor's page, the campaign's progress, the dashboard and the public stats include it; the receipt
 * e-mail arrives with its PDF; the cheque bounces, finance voids it and every figure goes back, the donor is told; a
 * viewer cannot record one. Then a CSV of 50 gifts with two bad rows is refused whole with both errors named; fixed, it
 * is recorded once; uploaded again, nothing more. axe 0 and 320 px on the page and the void dialog.
 */

/** `YYYY-MM-DD`, `days` before today in UTC (the e2e server's TZ). */
const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString().slice(0, 10);

/**
 * `YYYY-MM-DD` in UTC (the e2e server's TZ): the day the story's cheque was received, the last day of last month. On 30
 * and 31 January no dashboard period holds a day of December (this year's starts on 1 January, the last 30 days' on 1 or
 * 2 January), so on those two days the cheque is dated the first of this month instead, and the story still runs.
 */
function chequeReceivedOn(): string {
  const now = new Date();
  const decemberUnseen = now.getUTCMonth() === 0 && now.getUTCDate() >= 30;
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), decemberUnseen ? 1 : 0)).toISOString().slice(0, 10);
}

/** Checks the page at 320 px wide (WCAG 1.4.10), then gives it back its width. */
async function expectReflowAt320(staff: StaffBrowser, state: string): Promise<void> {
  const size = staff.page.viewportSize() ?? { width: 1280, height: 900 };
  await staff.page.setViewportSize({ width: 320, height: 800 });
  await expectNoHorizontalScroll(staff.page, state);
  await staff.page.setViewportSize(size);
}

/**
 * The figures the story follows: public total raised (dollars), the net (cents) of the dashboard's first period whose days
 * hold `day` (this year's; in January, the last 30 days': see chequeReceivedOn), and the donor's lifetime (cents).
 */
async function figures(page: Page, donorKey: string, day: string) {
  const stats = (await (await page.request.get('/api/donations/stats')).json()) as { totalRaised: number };
  const dashboard = (await (await page.request.get(STAFF_API.dashboard)).json()) as {
    periods: Array<{ period: string; days: { from: string; to: string }; totals: { netCents: number } }>;
  };
  const donor = (await (await page.request.get(staffApiPath(STAFF_API.donor, donorKey))).json()) as { figures: { lifetimeCents: number } };
  const period = dashboard.periods.find(({ days }) => days.from <= day && day <= days.to);
  expect(period, `a dashboard period holding ${day}`).toBeDefined();
  return { totalRaised: stats.totalRaised, dashboardNetCents: period?.totals.netCents ?? -1, lifetimeCents: donor.figures.lifetimeCents };
}

/** A CSV of 50 gifts (distinct donors), with the cells of `bad` rows replaced. */
function csvOf(tag: string, bad: Record<number, Record<string, string>> = {}): string {
  const lines = [OFFLINE_CSV_COLUMNS.join(',')];
  for (let row = 1; row <= 50; row += 1) {
    const cells: Record<string, string> = {
      received_on: daysAgo(3),
      method: row % 2 === 0 ? 'cash' : 'bank_transfer',
      reference: `${tag}-${row}`,
      amount: `${10 + row}.00`,
      donor_name: `Beach Donor ${tag} ${row}`,
      cause: 'education-outreach',
      send_receipt: 'no',
      ...bad[row],
    };
    lines.push(OFFLINE_CSV_COLUMNS.map((column) => cells[column] ?? '').join(','));
  }
  return `${lines.join('\n')}\n`;
}

test('finance records a $200 cheque for a donor and a campaign, every figure counts it and the receipt arrives; voided as bounced, every figure goes back and the donor is told; a viewer cannot record; a CSV is all or none and once only', async ({ browser, page: donorPage }) => {
  test.setTimeout(300_000);
  const slug = `cheques-${randomUUID().slice(0, 8)}`;
  const financeEmail = uniqueStaffAddress('offline-finance');
  const viewerEmail = uniqueStaffAddress('offline-viewer');
  const donorEmail = uniqueStaffAddress('offline-donor');
  const donorKey = createHash('sha256').update(donorEmail.toLowerCase()).digest('hex');

  // The donor gives $25 on the site first: she is an existing donor.
  await donorPage.goto('/donate?amount=25&cause=research-science');
  await donorPage.getByRole('button', { name: 'Continue to Donation' }).click();
  await fillDonorForm(donorPage, { email: donorEmail, name: 'Leilani Kahale' });
  await donorPage.getByRole('button', { name: /^Complete Donation of \$25/ }).click();
  await expect(donorPage.getByRole('heading', { name: 'Thank You!' })).toBeVisible();
  await waitForReceipt(MAIL_DIR, donorEmail, 1);

  const finance = await openStaffBrowser(browser);
  await operatorInvites(finance.page, financeEmail, 'finance');
  await enrollFromLink(finance, await emailedStaffLink(financeEmail, 'staff_invitation'), financeEmail);
  const headers = await csrfHeaders(finance.context);
  const campaign = await finance.page.request.post(STAFF_API.campaigns, {
    headers,
    data: { slug, texts: { en: { title: 'Cheques for corals', description: '' } }, goal: '1000', startsAt: null, endsAt: null, presetAmount: null, presetFrequency: null, presetCause: null, showSupporters: false, published: true },
  });
  expect(campaign.status(), await campaign.text()).toBe(201);
  const campaignId = ((await campaign.json()) as { id: string }).id;
  const receivedOn = chequeReceivedOn();
  const before = await figures(finance.page, donorKey, receivedOn);
  expect(before.lifetimeCents).toBe(2500);

  // The page, from the donations list.
  await finance.page.goto('/staff/donations');
  await finance.page.getByRole('link', { name: 'Record a gift' }).click();
  await expect(finance.page.getByRole('heading', { level: 1 })).toHaveText('Record a gift');
  await expectNoAxeViolations(finance.page, 'the record a gift page');
  await expectReflowAt320(finance, 'the record a gift page');

  // The donor picked by search; a $200 cheque received last month, for the campaign, its receipt e-mailed.
  await finance.page.getByRole('textbox', { name: 'Find a donor (name or e-mail)' }).fill(donorEmail);
  await finance.page.getByRole('button', { name: 'Search donors' }).click();
  await finance.page.getByRole('list', { name: 'Donors found' }).getByRole('button', { name: /Leilani Kahale/ }).click();
  await expect(finance.page.getByRole('textbox', { name: /Donor's e-mail/ })).toHaveValue(donorEmail);
  const form = finance.page.getByRole('form', { name: 'Record a gift' });
  await form.getByRole('combobox', { name: 'Method' }).selectOption('cheque');
  await form.getByRole('textbox', { name: /^Reference/ }).fill('004711');
  await form.getByLabel('Date received').fill(receivedOn);
  await form.getByRole('textbox', { name: 'Amount in dollars' }).fill('200');
  await form.getByRole('textbox', { name: /^Campaign/ }).fill(slug);
  await form.getByRole('button', { name: 'Record the gift' }).click();
  const recorded = finance.page.getByRole('status').filter({ hasText: 'Recorded with receipt' });
  await expect(recorded).toContainText('e-mailed to the donor');
  await expectNoAxeViolations(finance.page, 'the record a gift page after a gift');

  // The same cheque typed again is a likely duplicate: the page asks first, and records nothing unless confirmed.
  await form.getByRole('textbox', { name: /^Reference/ }).fill('004711');
  await form.getByLabel('Date received').fill(receivedOn);
  await form.getByRole('textbox', { name: 'Amount in dollars' }).fill('200');
  await form.getByRole('textbox', { name: /^Donor's name/ }).fill('Leilani Kahale');
  await form.getByRole('textbox', { name: /Donor's e-mail/ }).fill(donorEmail);
  await form.getByRole('button', { name: 'Record the gift' }).click();
  await expect(form.getByRole('alert')).toContainText('same amount, date and reference is recorded already');
  await expect(form.getByRole('button', { name: 'Record it anyway' })).toBeVisible();
  await expectNoAxeViolations(finance.page, 'a likely duplicate');
  await expectReflowAt320(finance, 'a likely duplicate');

  // The donor's page, the campaign's progress, the dashboard and the public stats include it.
  await expect.poll(() => figures(finance.page, donorKey, receivedOn)).toEqual({ totalRaised: before.totalRaised + 200, dashboardNetCents: before.dashboardNetCents + 20_000, lifetimeCents: 22_500 });
  await finance.page.goto(`/staff/donors/${donorKey}`);
  await expect(finance.page.getByText('$225.00').first()).toBeVisible();
  await finance.page.goto(`/staff/campaigns/${campaignId}`);
  await expect(finance.page.getByRole('definition').nth(1)).toHaveText('$200.00');

  // The receipt e-mail arrives with its PDF.
  const receipt = await waitForReceipt(MAIL_DIR, donorEmail, 2);
  expect(receipt.attachments.map((attachment) => attachment.contentType)).toContain('application/pdf');

  // The cheque bounces: finance voids it from its page; every figure goes back and the donor is told.
  await finance.page.goto('/staff/donations?paymentMethod=cheque');
  await finance.page.getByRole('link', { name: 'Leilani Kahale' }).first().click();
  await expect(finance.page.getByText('Received outside the site')).toBeVisible();
  await expectNoAxeViolations(finance.page, 'an offline gift’s page');
  await expectReflowAt320(finance, 'an offline gift’s page');
  await finance.page.getByRole('button', { name: 'Void' }).click();
  const dialog = finance.page.getByRole('dialog', { name: 'Void this gift' });
  await expectNoAxeViolations(finance.page, 'the void dialog');
  await expectReflowAt320(finance, 'the void dialog');
  await dialog.getByRole('textbox', { name: 'Reason' }).fill('Cheque bounced');
  await dialog.getByRole('button', { name: 'Void' }).click();
  await expect(finance.page.getByRole('status').filter({ hasText: 'The gift is voided' })).toContainText('the donor is told');
  await expect.poll(() => figures(finance.page, donorKey, receivedOn)).toEqual(before);
  await finance.page.goto(`/staff/campaigns/${campaignId}`);
  await expect(finance.page.getByRole('definition').nth(1)).toHaveText('$0.00');
  await waitForMail(MAIL_DIR, donorEmail, 'receipt_void');

  // A viewer cannot record one.
  const viewer = await openStaffBrowser(browser, { width: 320, height: 800 });
  await operatorInvites(viewer.page, viewerEmail, 'viewer');
  await enrollFromLink(viewer, await emailedStaffLink(viewerEmail, 'staff_invitation'), viewerEmail);
  await viewer.page.goto('/staff/donations/new');
  await expect(viewer.page.getByText('Your role can read donations but not record them')).toBeVisible();
  await expect(viewer.page.getByRole('button', { name: 'Record the gift' })).toHaveCount(0);
  await expectNoAxeViolations(viewer.page, "the record a gift page for a viewer");
  await expectNoHorizontalScroll(viewer.page, "the record a gift page for a viewer at 320 px");
  const gift = { method: 'cash', receivedOn: daysAgo(1), amountCents: 5000, donor: { name: 'Someone' }, cause: 'research-science', sendReceipt: false };
  const refused = await viewer.page.request.post(STAFF_API.offlineGifts, { headers: { ...(await csrfHeaders(viewer.context)), 'idempotency-key': randomUUID() }, data: gift });
  expect(refused.status()).toBe(403);

  // A CSV of 50 rows with two bad rows is refused whole, both errors named.
  const tag = randomUUID().slice(0, 6);
  await finance.page.goto('/staff/donations/new');
  const file = finance.page.getByLabel('CSV file of gifts');
  await file.setInputFiles({ name: 'gifts.csv', mimeType: 'text/csv', buffer: Buffer.from(csvOf(tag, { 7: { amount: 'ten' }, 31: { received_on: daysAgo(-2) } })) });
  const errors = finance.page.getByRole('list', { name: 'Errors in the file' });
  await expect(errors.getByRole('listitem')).toHaveCount(2);
  await expect(errors).toContainText('Row 7, amount');
  await expect(errors).toContainText('Row 31, received_on: The date received cannot be in the future');
  await expectNoAxeViolations(finance.page, 'a refused CSV');
  await expectReflowAt320(finance, 'a refused CSV');
  const statsBefore = await figures(finance.page, donorKey, receivedOn);

  // Fixed, it is recorded once.
  await file.setInputFiles({ name: 'gifts.csv', mimeType: 'text/csv', buffer: Buffer.from(csvOf(tag)) });
  await expect(finance.page.getByText('50 rows checked, no errors: 50 to record')).toBeVisible();
  await expectNoAxeViolations(finance.page, 'a checked CSV');
  await expectReflowAt320(finance, 'a checked CSV');
  await finance.page.getByRole('button', { name: 'Record 50 gifts' }).click();
  await expect(finance.page.getByRole('status').filter({ hasText: '50 gifts recorded' })).toBeVisible();
  const total = (50 * 51) / 2 + 50 * 10;
  await expect.poll(async () => (await figures(finance.page, donorKey, receivedOn)).totalRaised).toBe(statsBefore.totalRaised + total);

  // Uploaded again, nothing more.
  await file.setInputFiles({ name: 'gifts.csv', mimeType: 'text/csv', buffer: Buffer.from(csvOf(tag)) });
  await expect(finance.page.getByText('50 rows checked, no errors: 0 to record, 50 recorded before (left out)')).toBeVisible();
  await expect(finance.page.getByRole('button', { name: 'Record 0 gifts' })).toBeDisabled();
  expect((await figures(finance.page, donorKey, receivedOn)).totalRaised).toBe(statsBefore.totalRaised + total);

  // NOTE: the browser logs the likely duplicate's 409 as a failed load: the product answering as it should, once.
  const duplicateAnswer = /^console: Failed to load resource: .*status of 409\b/;
  expect(finance.errors.filter((error) => duplicateAnswer.test(error)), "the likely duplicate's 409").toHaveLength(1);
  expect(finance.errors.filter((error) => !duplicateAnswer.test(error)), "errors on the finance member's pages").toEqual([]);
  expect(viewer.errors, "errors on the viewer's pages").toEqual([]);
  await finance.context.close();
  await viewer.context.close();
});
