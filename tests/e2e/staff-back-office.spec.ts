import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { and, eq, isNull, sql, type Column } from 'drizzle-orm';
import { IDEMPOTENCY_KEY_HEADER } from '../../src/shared/api';
import { STAFF_API, staffApiPath } from '../../src/shared/staff/paths';
import { donationRefunds, donations, staffLinks, staffMembers, staffSessions } from '../../src/server/db/schema';
import { PASSKEY_SIGN_IN_FAILED_MESSAGE } from '../../src/server/staff/identity/sign-in-routes';
import { startServerProcess, type ServerProcess } from '../../src/server/testing/server-process';
import { openTestDatabase, type TestDatabase } from '../../src/server/testing/test-database';
import { expectNoAxeViolations } from './a11y-helpers';
import { E2E_ADMIN_TOKEN, E2E_BASE_URL, E2E_OWN_STAFF_SERVER_PORT, ownServerEnv } from './e2e-env';
import { chooseDonation, expect, fillDonorForm, test } from './fixtures';
import { expectFocusVisible, tabTo } from './keyboard-helpers';
import { waitForMail, waitForReceipt } from './mail-helpers';
import { expectNoHorizontalScroll } from './reflow-helpers';
import {
  askForSignInLink,
  csrfHeaders,
  emailedStaffLink,
  enrollFromLink,
  MAIL_DIR,
  openFromNav,
  openStaffBrowser,
  operatorInvites,
  type StaffBrowser,
  uniqueStaffAddress,
} from './staff-helpers';

/**
 * The staff back office end to end (issue #21), in Chromium with its own virtual authenticator for each staff member's
 * browser (CDP), against the real server, its database and its mail folder: the operator's invitation, passkey
 * enrollment and sign-in, the team, the donations list and one donation's actions, the audit log, and the e-mailed links.
 * axe (WCAG 2.2 AA) runs on every staff page and dialog, and the pages are checked for reflow at 320 px.
 */

/**
 * A donor gives $25 one-time through the form as `email`; resolves with the receipt number of the receipt e-mail, read
 * from `mailDir` (default: the e2e server's).
 */
async function donate(page: Page, email: string, mailDir = MAIL_DIR): Promise<string> {
  await chooseDonation(page, { frequency: 'one-time', cause: 'research-science' });
  await fillDonorForm(page, { name: 'Rosita Tzul', email });
  await page.getByRole('button', { name: 'Complete Donation of $25' }).click();
  await expect(page.getByRole('heading', { name: 'Thank You!' })).toBeVisible();
  const receipt = await waitForReceipt(mailDir, email);
  const receiptNumber = /(\d{4}-\d{6,})/.exec(receipt.subject ?? '')?.[1];
  expect(receiptNumber, `a receipt number in "${receipt.subject ?? ''}"`).toBeDefined();
  return receiptNumber ?? '';
}

/** Checks the page at 320 px wide (WCAG 1.4.10), then gives it back its width. */
async function expectReflowAt320(staff: StaffBrowser, state: string): Promise<void> {
  const size = staff.page.viewportSize() ?? { width: 1280, height: 900 };
  await staff.page.setViewportSize({ width: 320, height: 800 });
  await expectNoHorizontalScroll(staff.page, state);
  await staff.page.setViewportSize(size);
}

/**
 * Fails when the staff member's page logged an error or threw. `refusals`: statuses the story provoked on purpose,
 * which the browser logs as failed loads (a session ended by an admin answers 401; a refused change 409).
 */
function expectNoPageErrors(staff: StaffBrowser, who: string, refusals: number[] = []): void {
  const provoked = (error: string) => refusals.some((status) => error.includes(`status of ${status}`));
  expect(staff.errors.filter((error) => !provoked(error)), `errors on the ${who}'s pages`).toEqual([]);
}

/** A server of one story's own (its process, database and mail folder), for what the shared server cannot show. */
interface OwnStaffServer {
  server: ServerProcess;
  /** Its staff origin and PUBLIC_URL, `http://localhost:<E2E_OWN_STAFF_SERVER_PORT>`. */
  baseUrl: string;
  /** Its MAIL_DIR, where it writes its e-mails. */
  mailDir: string;
  /** Its database, where the story ages staff rows. */
  database: TestDatabase;
}

/**
 * `test` with `staffServer`: the production server as a process of its own, on a test database of its own (a copy of
 * the run's migrated template) and a DATA_DIR of its own, with the e2e ADMIN_TOKEN and PUBLIC_URL at its own port; the
 * pages' `baseURL` is its staff origin. The shared e2e server runs on the system clock, which no test can move; here
 * the story makes time pass for a link or a session by moving that row's instants back with SQL (test data, the API
 * untouched). Stopped, its folder removed and its database dropped after the story.
 */
const ownServerTest = test.extend<{ staffServer: OwnStaffServer }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright requires a destructuring pattern, even with no dependencies.
  staffServer: async ({}, use, testInfo) => {
    const dataDir = await mkdtemp(join(tmpdir(), 'donation-staff-'));
    const database = await openTestDatabase();
    const baseUrl = `http://localhost:${E2E_OWN_STAFF_SERVER_PORT}`;
    try {
      const server = await startServerProcess({
        ...ownServerEnv(dataDir, database.url),
        PORT: String(E2E_OWN_STAFF_SERVER_PORT),
        PUBLIC_URL: baseUrl,
        ADMIN_TOKEN: E2E_ADMIN_TOKEN,
      });
      try {
        await use({ server, baseUrl, mailDir: join(dataDir, 'mail'), database });
      } finally {
        await server.stop();
        if (testInfo.status !== testInfo.expectedStatus) {
          await testInfo.attach('staff-server.log', { body: [...server.lines, ...server.stderrLines].join('\n'), contentType: 'text/plain' });
        }
      }
    } finally {
      await database.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  },
  baseURL: async ({ staffServer }, use) => {
    await use(staffServer.baseUrl);
  },
});

/** `column` 16 minutes earlier: past the 15 minutes of a sign-in link and of a passkey sign-in for refunds (issue #21). */
const sixteenMinutesEarlier = (column: Column) => sql`${column} - interval '16 minutes'`;

test.describe('staff back office', () => {
  test('the operator invites an admin, who enrolls with a passkey, signs in again and builds the team; finance refunds part of a donation found by its receipt number with the keyboard and corrects the e-mail; the viewer cannot refund; the audit log shows who did what', async ({ browser, page: donorPage, request }) => {
    test.setTimeout(180_000);
    const adminEmail = uniqueStaffAddress('admin');
    const financeEmail = uniqueStaffAddress('finance');
    const viewerEmail = uniqueStaffAddress('viewer');
    const donorEmail = uniqueStaffAddress('donor');
    const correctedEmail = uniqueStaffAddress('donor-corrected');
    const receiptNumber = await donate(donorPage, donorEmail);

    // The operator invites the first admin; a mail scanner's GET and HEAD of the link consume nothing.
    const admin = await openStaffBrowser(browser);
    await operatorInvites(admin.page, adminEmail, 'admin');
    const adminLink = await emailedStaffLink(adminEmail, 'staff_invitation');
    for (const method of ['GET', 'HEAD']) {
      const scanned = await request.fetch(adminLink, { method, headers: { accept: '*/*' } });
      expect(scanned.status()).toBe(200);
      expect(scanned.headers()['cache-control']).toBe('no-store');
      expect(scanned.headers()['x-robots-tag']).toBe('noindex, nofollow');
    }
    await admin.page.goto(adminLink);
    await expect(admin.page.getByText(`You were invited as ${adminEmail}`)).toBeVisible();
    await expect(admin.page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex, nofollow');
    await expectNoAxeViolations(admin.page, 'the enrollment page');
    await admin.page.getByRole('button', { name: 'Create a passkey' }).click();
    await expect(admin.page).toHaveURL(/\/staff$/);
    await expect(admin.page.getByTestId('staff-email')).toHaveText(adminEmail);

    // Signs out, and back in with the passkey alone.
    await admin.page.getByRole('button', { name: 'Sign out' }).click();
    await expect(admin.page).toHaveURL(/\/staff\/sign-in$/);
    await expectNoAxeViolations(admin.page, 'the sign-in page');
    await admin.page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect(admin.page).toHaveURL(/\/staff$/);
    await expect(admin.page.getByTestId('staff-email')).toHaveText(adminEmail);

    // The admin invites a viewer and a finance member from the team page.
    await openFromNav(admin, 'Team');
    for (const [email, role] of [
      [viewerEmail, 'Viewer'],
      [financeEmail, 'Finance'],
    ] as const) {
      await admin.page.getByRole('textbox', { name: 'Email address' }).fill(email);
      await admin.page.getByRole('combobox', { name: 'Role', exact: true }).selectOption({ label: role });
      await admin.page.getByRole('button', { name: 'Invite' }).click();
      await expect(admin.page.getByRole('status')).toHaveText(`Invitation sent to ${email}.`);
    }
    await expect(admin.page.getByRole('combobox', { name: `Role of ${financeEmail}` })).toHaveValue('finance');
    await expectNoAxeViolations(admin.page, 'the team page');
    await expectReflowAt320(admin, 'the team page');

    // Finance, in a browser of their own, enrolls and finds the donation by its receipt number.
    const finance = await openStaffBrowser(browser);
    await enrollFromLink(finance, await emailedStaffLink(financeEmail, 'staff_invitation'), financeEmail);
    await expect(finance.page.getByRole('navigation', { name: 'Staff' }).getByRole('link', { name: 'Team' })).toHaveCount(0);
    await openFromNav(finance, 'Donations');
    await finance.page.getByRole('searchbox', { name: /^Search/ }).fill(receiptNumber);
    await finance.page.getByRole('button', { name: 'Apply filters' }).click();
    await expect(finance.page).toHaveURL(new RegExp(`\\?q=${receiptNumber}$`));
    const rows = finance.page.getByRole('region', { name: 'Donations' }).getByRole('row');
    await expect(rows).toHaveCount(2);
    await expect(finance.page.getByRole('definition').first()).toHaveText('1');
    await expectNoAxeViolations(finance.page, 'the donations page, filtered');
    // "Export these rows": exactly the filtered set, in the chosen format.
    await finance.page.getByRole('combobox', { name: 'Export format' }).selectOption('standard');
    const download = finance.page.waitForEvent('download');
    await finance.page.getByRole('link', { name: 'Export these rows' }).click();
    const csv = await readFile(await (await download).path(), 'utf8');
    expect(csv.trim().split(/\r?\n/)).toHaveLength(2);
    expect(csv).toContain(receiptNumber);
    // Sorting lives in the URL too: Back gives the view before it.
    await finance.page.getByRole('button', { name: 'Amount' }).click();
    await expect(finance.page).toHaveURL(new RegExp(`\\?q=${receiptNumber}&sort=amount$`));
    await expect(finance.page.getByRole('columnheader', { name: 'Amount' })).toHaveAttribute('aria-sort', 'descending');
    await finance.page.goBack();
    await expect(finance.page).toHaveURL(new RegExp(`\\?q=${receiptNumber}$`));
    await expect(finance.page.getByRole('searchbox', { name: /^Search/ })).toHaveValue(receiptNumber);
    await expectReflowAt320(finance, 'the donations page');
    await rows.nth(1).getByRole('link', { name: 'Rosita Tzul' }).click();
    await expect(finance.page.getByRole('heading', { level: 1 })).toHaveText('Donation of $25.00 by Rosita Tzul');
    // The donor's own texts are isolated from the labels around them (issue #32, part 4: <bdi>, decision 0096).
    await expect(finance.page.locator('dd > bdi').filter({ hasText: /^Rosita Tzul$/ })).toBeVisible();
    const donationPath = new URL(finance.page.url()).pathname;
    const donationId = donationPath.split('/').pop() ?? '';
    await expectNoAxeViolations(finance.page, 'a donation page');

    // The refund, with the keyboard alone: part of it, with a reason; the dialog says what will happen.
    const refund = finance.page.getByRole('button', { name: 'Refund', exact: true });
    await tabTo(finance.page, refund);
    await finance.page.keyboard.press('Enter');
    const dialog = finance.page.getByRole('dialog', { name: 'Refund this donation' });
    await expect(dialog.getByRole('radio', { name: 'All that is left: $25.00' })).toBeFocused();
    await expectNoAxeViolations(finance.page, 'the refund dialog');
    await finance.page.keyboard.press('ArrowDown');
    await expect(dialog.getByRole('radio', { name: 'Part of it' })).toBeChecked();
    await tabTo(finance.page, dialog.getByRole('textbox', { name: 'Amount to refund ($)' }), 3);
    await finance.page.keyboard.type('10');
    await tabTo(finance.page, dialog.getByRole('textbox', { name: 'Reason' }), 3);
    await finance.page.keyboard.type('The donor gave $10 too much by mistake');
    await expect(dialog.getByText(`$10.00 goes back to their Visa ending 4242. $15.00 of the $25.00 donation is kept: receipt ${receiptNumber} stays valid for that amount and ${donorEmail} is e-mailed the corrected amount.`)).toBeVisible();
    await expectNoAxeViolations(finance.page, 'the refund dialog, filled in');
    await tabTo(finance.page, dialog.getByRole('button', { name: 'Refund $10.00' }), 4);
    await finance.page.keyboard.press('Enter');
    await expect(finance.page.getByRole('status')).toHaveText('Refunded $10.00.');
    await expect(dialog).toHaveCount(0);
    await expect(finance.page.getByText('Partially refunded', { exact: true })).toBeVisible();

    // Corrects the donor's e-mail and resends the receipt: the new address receives it.
    await finance.page.getByRole('button', { name: 'Correct the e-mail' }).click();
    const correct = finance.page.getByRole('dialog', { name: "Correct the donor's e-mail" });
    await correct.getByRole('textbox', { name: 'New email address' }).fill(correctedEmail);
    await expectNoAxeViolations(finance.page, 'the e-mail correction dialog');
    await correct.getByRole('button', { name: 'Correct and resend' }).click();
    await expect(finance.page.getByRole('status')).toHaveText(
      // Issue #36: the correction applies to every gift and plan of the address (the dialog's ticked default).
      new RegExp(`^The e-mail address is now ${correctedEmail.replace(/[.+]/g, '\\$&')} on \\d+ gifts? and \\d+ plans?\\. The receipt is on its way to it\\.$`),
    );
    await waitForMail(MAIL_DIR, correctedEmail, 'receipt_resend');
    await finance.page.getByRole('button', { name: 'Resend the receipt' }).click();
    await expect(finance.page.getByRole('status')).toHaveText(`The receipt is on its way to ${correctedEmail}.`);
    await waitForMail(MAIL_DIR, correctedEmail, 'receipt_resend', 2);
    await expect(finance.page.getByRole('list', { name: 'Timeline' })).toContainText(financeEmail);
    await expectReflowAt320(finance, 'a donation page');

    // The viewer, at 320 px: reads the donation, has no refund action, and the API refuses their refund.
    const viewer = await openStaffBrowser(browser, { width: 320, height: 800 });
    await enrollFromLink(viewer, await emailedStaffLink(viewerEmail, 'staff_invitation'), viewerEmail);
    await expectNoHorizontalScroll(viewer.page, 'the dashboard at 320 px');
    await viewer.page.goto(donationPath);
    await expect(viewer.page.getByRole('heading', { level: 1 })).toHaveText('Donation of $25.00 by Rosita Tzul');
    await expect(viewer.page.getByRole('button', { name: 'Refund', exact: true })).toHaveCount(0);
    await expect(viewer.page.getByRole('button', { name: 'Resend the receipt' })).toHaveCount(0);
    await expect(viewer.page.getByRole('button', { name: 'Correct the e-mail' })).toHaveCount(0);
    await expectNoHorizontalScroll(viewer.page, 'a donation page at 320 px');
    await expectNoAxeViolations(viewer.page, 'a donation page at 320 px, as a viewer');
    const refused = await viewer.page.request.post(staffApiPath(STAFF_API.donationRefunds, donationId), {
      headers: { ...(await csrfHeaders(viewer.context)), 'Idempotency-Key': randomUUID() },
      data: { reason: 'A viewer tries' },
    });
    expect(refused.status()).toBe(403);
    expect(await refused.json()).toMatchObject({ success: false, code: 'staff_forbidden' });

    // The admin's audit log shows all of it, with who did it; its filters live in the URL.
    await openFromNav(admin, 'Audit');
    const audit = admin.page.getByRole('region', { name: 'Audit log' });
    await expect(audit.getByRole('row').filter({ hasText: 'Operator (API token)' }).filter({ hasText: adminEmail }).first()).toBeVisible();
    await expect(audit.getByRole('row').filter({ hasText: adminEmail }).filter({ hasText: viewerEmail }).first()).toBeVisible();
    await expect(audit.getByRole('row').filter({ hasText: financeEmail }).filter({ hasText: 'The donor gave $10 too much by mistake' })).toHaveCount(1);
    await expect(audit.getByRole('row').filter({ hasText: financeEmail }).filter({ hasText: donorEmail }).first()).toBeVisible();
    await expectNoAxeViolations(admin.page, 'the audit page');
    await expectReflowAt320(admin, 'the audit page');
    await admin.page.getByRole('textbox', { name: 'Who (e-mail or operator)' }).fill(financeEmail);
    await admin.page.getByRole('button', { name: 'Apply filters' }).click();
    await expect(admin.page).toHaveURL(new RegExp(`\\?actor=${encodeURIComponent(financeEmail)}$`));
    await expect(audit.getByRole('row').filter({ hasNotText: financeEmail })).toHaveCount(1); // the header row
    await admin.page.goBack();
    await expect(audit.getByRole('row').filter({ hasText: viewerEmail }).first()).toBeVisible();

    // The team: the last admin cannot demote themselves; a role change and a removal end that member's sessions at once.
    await openFromNav(admin, 'Team');
    await admin.page.getByRole('combobox', { name: `Role of ${adminEmail}` }).selectOption('viewer');
    await expect(admin.page.getByRole('alert')).toHaveText('You are the last admin. Make someone else an admin first.');
    await expect(admin.page.getByRole('combobox', { name: `Role of ${adminEmail}` })).toHaveValue('admin');
    await admin.page.getByRole('combobox', { name: `Role of ${financeEmail}` }).selectOption('viewer');
    await expect(admin.page.getByRole('status')).toHaveText(`${financeEmail} is now viewer.`);
    await admin.page.getByRole('button', { name: `Remove ${viewerEmail}` }).click();
    await expect(admin.page.getByRole('dialog', { name: `Remove ${viewerEmail}?` })).toBeVisible();
    await expectNoAxeViolations(admin.page, 'the removal dialog');
    await admin.page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
    await expect(admin.page.getByRole('status')).toHaveText(`${viewerEmail} was removed.`);
    for (const signedOut of [finance, viewer]) {
      await signedOut.page.reload();
      await expect(signedOut.page).toHaveURL(/\/staff\/sign-in\?next=/);
    }

    for (const [staff, who, refusals] of [
      [admin, 'admin', [409]],
      [finance, 'finance member', [401]],
      [viewer, 'viewer', [401]],
    ] as const) {
      expectNoPageErrors(staff, who, [...refusals]);
      await staff.context.close();
    }
  });

  test('an e-mailed sign-in link survives a scanner, signs in once and asks for a passkey; a used link, an unknown invitation and the wrong address get clear pages', async ({ browser, request }) => {
    test.setTimeout(90_000);
    const email = uniqueStaffAddress('link');
    const staff = await openStaffBrowser(browser);
    await operatorInvites(staff.page, email, 'viewer');

    await askForSignInLink(staff, email);
    await expectNoAxeViolations(staff.page, 'the sign-in page, link sent');
    const link = await emailedStaffLink(email, 'staff_sign_in_link');
    for (const method of ['GET', 'HEAD', 'GET']) expect((await request.fetch(link, { method })).status()).toBe(200);

    await staff.page.goto(link);
    await expectNoAxeViolations(staff.page, 'the sign-in link page');
    await staff.page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(staff.page).toHaveURL(/\/staff\/passkeys\?add=1$/);
    await expect(staff.page.getByText('You signed in with an e-mailed link.')).toBeVisible();
    await expectNoAxeViolations(staff.page, 'the passkeys page asking for a passkey');
    await staff.page.getByRole('button', { name: 'Add a passkey' }).first().click();
    await expect(staff.page.getByRole('status')).toHaveText('Passkey added.');
    await expect(staff.page.getByRole('region', { name: 'Your passkeys' }).getByRole('row')).toHaveCount(2);
    await expect(staff.page.getByText('You signed in with an e-mailed link.')).toHaveCount(0);
    // The only passkey cannot be removed (the account would be locked out); the page says why.
    await staff.page.getByRole('button', { name: /^Remove passkey 1, created / }).click();
    await expect(staff.page.getByRole('alert')).toHaveText('This is your only passkey. Add another one before removing it.');
    await expect(staff.page.getByRole('region', { name: 'Your passkeys' }).getByRole('row')).toHaveCount(2);
    await expectReflowAt320(staff, 'the passkeys page');
    // The navigation at 320 px with the keyboard alone: it lists what a viewer may open; the keyboard reaches it, Enter follows it.
    await staff.page.setViewportSize({ width: 320, height: 800 });
    const nav = staff.page.getByRole('navigation', { name: 'Staff' });
    await expect(nav.getByRole('link')).toHaveText(['Dashboard', 'Donations', 'Plans', 'Donors', 'Campaigns', 'Mail', 'Passkeys']);
    await expect(nav.getByRole('link', { name: 'Passkeys' })).toHaveAttribute('aria-current', 'page');
    // From the page's heading, Shift+Tab goes back up into the navigation, each stop with a visible focus.
    await staff.page.getByRole('heading', { level: 1 }).focus();
    const donationsLink = nav.getByRole('link', { name: 'Donations' });
    for (let presses = 0; presses < 10 && !(await donationsLink.evaluate((link) => link === document.activeElement)); presses += 1) {
      await staff.page.keyboard.press('Shift+Tab');
      await expectFocusVisible(staff.page);
    }
    await expect(donationsLink).toBeFocused();
    await staff.page.keyboard.press('Enter');
    await expect(staff.page).toHaveURL(/\/staff\/donations$/);
    await expect(staff.page.getByTestId('staff-email')).toBeVisible();
    await expect(staff.page.getByRole('button', { name: 'Sign out' })).toBeVisible();
    await expect(staff.page.getByRole('region', { name: 'Donations' })).toBeVisible();
    await expect(staff.page.getByRole('link', { name: 'Export these rows' })).toHaveCount(0);
    await expectNoHorizontalScroll(staff.page, 'the donations page of a viewer at 320 px');
    await staff.page.setViewportSize({ width: 1280, height: 900 });

    // The same link again: refused, with a page that says why and where to go.
    await staff.page.goto(link);
    await staff.page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(staff.page.getByRole('heading', { level: 1 })).toHaveText('This sign-in link cannot be used');
    await expect(staff.page.getByText('The link has been used already or has expired')).toBeVisible();
    await expectNoAxeViolations(staff.page, 'a used sign-in link');

    // An invitation that does not exist (or expired, or was used): a clear page, before any passkey prompt.
    await staff.page.goto(`/staff/enroll/${'x'.repeat(43)}`);
    await expect(staff.page.getByRole('heading', { level: 1 })).toHaveText('This invitation cannot be used');
    await expectNoAxeViolations(staff.page, 'an unusable invitation');

    // The staff pages at another origin than PUBLIC_URL say where to open them.
    await staff.page.goto(`${E2E_BASE_URL}/staff/sign-in`);
    await expect(staff.page.getByRole('heading', { level: 1 })).toHaveText('Open the staff pages at their own address');
    await expect(staff.page.getByRole('link', { name: /^http:\/\/localhost:\d+\/staff\/sign-in$/ })).toBeVisible();
    await expectNoAxeViolations(staff.page, 'the staff pages at the wrong origin');

    // NOTE: the browser reports the 409 of the refused removal and each 410 of the refused link and invitation as a failed
    // load: that is the product working.
    expect(staff.errors.filter((error) => !/status of (409|410)/.test(error))).toEqual([]);
    await staff.context.close();
  });

  ownServerTest('a finance member with a passkey on two devices: an expired sign-in link gets a clear page; a refund 16 minutes after the last passkey sign-in asks for the passkey, then refunds once; a removed passkey is gone from the list and signs no one in', async ({ browser, page: donorPage, staffServer }) => {
    test.setTimeout(150_000);
    const { db } = staffServer.database;
    const email = uniqueStaffAddress('finance-two-devices');
    const donorEmail = uniqueStaffAddress('donor-refunded');
    const receiptNumber = await donate(donorPage, donorEmail, staffServer.mailDir);
    const linkTo = (kind: 'staff_invitation' | 'staff_sign_in_link', count = 1) => emailedStaffLink(email, kind, count, staffServer.mailDir);

    // The laptop: invited by the operator, enrolls its passkey.
    const laptop = await openStaffBrowser(browser, undefined, staffServer.baseUrl);
    await operatorInvites(laptop.page, email, 'finance');
    await enrollFromLink(laptop, await linkTo('staff_invitation'), email);
    const [member] = await db.select({ id: staffMembers.id }).from(staffMembers).where(eq(staffMembers.email, email));
    const memberId = member?.id ?? '';

    // The phone asks for a sign-in link and opens it after its 15 minutes: refused, with a page that says why and where to go.
    const phone = await openStaffBrowser(browser, undefined, staffServer.baseUrl);
    await askForSignInLink(phone, email);
    const expiredLink = await linkTo('staff_sign_in_link');
    const aged = await db
      .update(staffLinks)
      .set({ createdAt: sixteenMinutesEarlier(staffLinks.createdAt), expiresAt: sixteenMinutesEarlier(staffLinks.expiresAt) })
      .where(and(eq(staffLinks.staffId, memberId), eq(staffLinks.purpose, 'sign_in')))
      .returning({ id: staffLinks.id });
    expect(aged).toHaveLength(1);
    await phone.page.goto(expiredLink);
    await phone.page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(phone.page.getByRole('heading', { level: 1 })).toHaveText('This sign-in link cannot be used');
    await expect(phone.page.getByText('The link has been used already or has expired: each link works once, within 15 minutes.')).toBeVisible();
    await expectNoAxeViolations(phone.page, 'an expired sign-in link');
    await phone.page.getByRole('link', { name: 'Go to the sign-in page' }).click();
    await expect(phone.page).toHaveURL(/\/staff\/sign-in$/);
    // A new link works, and the phone adds a passkey of its own: the member now holds two.
    await askForSignInLink(phone, email);
    await phone.page.goto(await linkTo('staff_sign_in_link', 2));
    await phone.page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(phone.page).toHaveURL(/\/staff$/);
    await openFromNav(phone, 'Passkeys');
    await phone.page.getByRole('button', { name: 'Add a passkey' }).click();
    await expect(phone.page.getByRole('status')).toHaveText('Passkey added.');
    const phonePasskeys = phone.page.getByRole('region', { name: 'Your passkeys' }).getByRole('row');
    await expect(phonePasskeys).toHaveCount(3); // the header row and two passkeys

    // The laptop's last passkey sign-in is 16 minutes old: the refund dialog asks for the passkey, then refunds, once.
    const renewed = await db
      .update(staffSessions)
      .set({ strongAuthAt: sixteenMinutesEarlier(staffSessions.strongAuthAt) })
      .where(and(eq(staffSessions.staffId, memberId), isNull(staffSessions.endedAt)))
      .returning({ id: staffSessions.id });
    expect(renewed).toHaveLength(2); // the laptop's session and the phone's
    await laptop.page.goto(`/staff/donations?q=${receiptNumber}`);
    await laptop.page.getByRole('region', { name: 'Donations' }).getByRole('link', { name: 'Rosita Tzul' }).click();
    await expect(laptop.page.getByRole('heading', { level: 1 })).toHaveText('Donation of $25.00 by Rosita Tzul');
    const refundKeys: string[] = [];
    laptop.page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/refunds')) refundKeys.push(request.headers()[IDEMPOTENCY_KEY_HEADER.toLowerCase()] ?? '');
    });
    await laptop.page.getByRole('button', { name: 'Refund', exact: true }).click();
    const dialog = laptop.page.getByRole('dialog', { name: 'Refund this donation' });
    // Issue #36: no amount is chosen until staff choose one.
    await dialog.getByRole('radio', { name: /^All that is left/ }).check();
    await dialog.getByRole('textbox', { name: 'Reason' }).fill('The donor asked for all of it back');
    await dialog.getByRole('button', { name: 'Refund $25.00' }).click();
    await expect(dialog.getByRole('alert')).toHaveText(
      'Refunds need a passkey sign-in within the last 15 minutes. Confirm it is you with your passkey; the refund is then sent.',
    );
    await expectNoAxeViolations(laptop.page, 'the refund dialog asking for the passkey');
    await dialog.getByRole('button', { name: 'Confirm with your passkey and refund' }).click();
    await expect(laptop.page.getByRole('status')).toHaveText('Refunded $25.00.');
    await expect(dialog).toHaveCount(0);
    await expect(laptop.page.locator('dt', { hasText: /^Status$/ }).locator('+ dd')).toHaveText('Refunded');
    await expect(laptop.page.locator('dt', { hasText: /^Kept$/ }).locator('+ dd')).toHaveText('$0.00');
    await expect(laptop.page.getByRole('button', { name: 'Refund', exact: true })).toHaveCount(0);
    expect(refundKeys, 'the refund refused for its old sign-in, then sent again with the same Idempotency-Key').toHaveLength(2);
    expect(new Set(refundKeys).size).toBe(1);
    const [donation] = await db.select({ id: donations.id }).from(donations).where(eq(donations.donorEmail, donorEmail));
    expect(await db.select().from(donationRefunds).where(eq(donationRefunds.donationId, donation?.id ?? ''))).toHaveLength(1);

    // The laptop removes the phone's passkey (the second): gone from the list; the phone can no longer sign in with it.
    await openFromNav(laptop, 'Passkeys');
    const laptopPasskeys = laptop.page.getByRole('region', { name: 'Your passkeys' }).getByRole('row');
    await expect(laptopPasskeys).toHaveCount(3);
    await laptop.page.getByRole('button', { name: /^Remove passkey 2, created / }).click();
    await expect(laptop.page.getByRole('status')).toHaveText('Passkey removed.');
    await expect(laptopPasskeys).toHaveCount(2);
    await expect(laptop.page.getByRole('button', { name: /^Remove passkey 2, / })).toHaveCount(0);
    await phone.page.getByRole('button', { name: 'Sign out' }).click();
    await expect(phone.page).toHaveURL(/\/staff\/sign-in$/);
    await phone.page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect(phone.page.getByRole('alert')).toHaveText(PASSKEY_SIGN_IN_FAILED_MESSAGE);
    await expect(phone.page).toHaveURL(/\/staff\/sign-in$/);

    // NOTE: the refund refused for its old sign-in (403), the expired link (410) and the removed passkey (401) are
    // failed loads in the browser's log: that is the product working.
    expectNoPageErrors(laptop, 'laptop', [403]);
    expectNoPageErrors(phone, 'phone', [410, 401]);
    for (const staff of [laptop, phone]) await staff.context.close();
  });
});
