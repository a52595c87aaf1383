import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import type { ParsedMail } from 'mailparser';
import { inArray } from 'drizzle-orm';
import { IDEMPOTENCY_KEY_HEADER } from '../../src/shared/api';
import { STAFF_API, staffApiPath } from '../../src/shared/staff/paths';
import { receipts } from '../../src/server/db/schema';
import { startServerProcess, type ServerProcess } from '../../src/server/testing/server-process';
import { startSmtpTestServer, type SmtpTestServer } from '../../src/server/testing/smtp-test-server';
import { openTestDatabase, type TestDatabase } from '../../src/server/testing/test-database';
import { expectNoAxeViolations } from './a11y-helpers';
import { E2E_ADMIN_TOKEN, E2E_OWN_MAIL_SERVER_PORT, ownServerEnv } from './e2e-env';
import { chooseDonation, expect, fillDonorForm, test } from './fixtures';
import { expectFocusVisible, tabTo } from './keyboard-helpers';
import { expectNoHorizontalScroll } from './reflow-helpers';
import { MAIL_POLL_INTERVALS_MS } from './mail-helpers';
import { csrfHeaders, openFromNav, openStaffBrowser, operatorInvites, type StaffBrowser, uniqueStaffAddress } from './staff-helpers';

/**
 * Donors and mail in the staff back office end to end (issue #22, "Must be shown"), in Chromium with a virtual
 * authenticator per staff member (CDP), against a server of the story's own whose mail goes to an SMTP test server that
 * refuses one address with 550: a donor's page shows the lifetime total net of a refund; a receipt the SMTP server
 * refused appears under Mail and reaches the donor once its address is corrected; a year's statement is sent again; a
 * viewer reads it all and can change none of it (buttons absent, API 403); axe 0 on every page and dialog, the keyboard
 * alone, 320 px.
 */

/** The address the SMTP test server refuses (`550 5.1.1`): a donor's typo. */
const MISTYPED = `rosita.tzul-${process.pid}@exmaple.org`;

/** The story's own server, its database and the SMTP server its mail goes to. */
interface OwnMailServer {
  server: ServerProcess;
  baseUrl: string;
  smtp: SmtpTestServer;
  database: TestDatabase;
}

/**
 * `test` with `mailServer`: the production server as a process of its own on E2E_OWN_MAIL_SERVER_PORT, a test database
 * of its own, SMTP_URL at an SMTP test server refusing {@link MISTYPED}; the pages' `baseURL` is its staff origin.
 */
const mailServerTest = test.extend<{ mailServer: OwnMailServer }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright requires a destructuring pattern, even with no dependencies.
  mailServer: async ({}, use, testInfo) => {
    const dataDir = await mkdtemp(join(tmpdir(), 'donation-mail-'));
    const database = await openTestDatabase();
    const smtp = await startSmtpTestServer({ rejectRecipients: [MISTYPED] });
    const baseUrl = `http://localhost:${E2E_OWN_MAIL_SERVER_PORT}`;
    try {
      const server = await startServerProcess({
        ...ownServerEnv(dataDir, database.url),
        PORT: String(E2E_OWN_MAIL_SERVER_PORT),
        PUBLIC_URL: baseUrl,
        ADMIN_TOKEN: E2E_ADMIN_TOKEN,
        SMTP_URL: smtp.url,
      });
      try {
        await use({ server, baseUrl, smtp, database });
      } finally {
        await server.stop();
        if (testInfo.status !== testInfo.expectedStatus) {
          await testInfo.attach('mail-server.log', { body: [...server.lines, ...server.stderrLines].join('\n'), contentType: 'text/plain' });
        }
      }
    } finally {
      await smtp.close();
      await database.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  },
  baseURL: async ({ mailServer }, use) => {
    await use(mailServer.baseUrl);
  },
});

/** The messages the SMTP server accepted for `address` (case-insensitive). */
function mailTo(smtp: SmtpTestServer, address: string): ParsedMail[] {
  const wanted = address.toLowerCase();
  return smtp.received.filter((mail) => (Array.isArray(mail.to) ? mail.to : [mail.to]).some((to) => to?.text.toLowerCase().includes(wanted)));
}

/** Waits (at most 15 s) for `count` messages to `address` whose subject starts with `subject`; returns the latest. */
async function waitForSmtpMail(smtp: SmtpTestServer, address: string, subject: string, count = 1): Promise<ParsedMail> {
  const matching = () => mailTo(smtp, address).filter((mail) => mail.subject?.startsWith(subject));
  await expect.poll(() => matching().length, { timeout: 15_000, intervals: MAIL_POLL_INTERVALS_MS, message: `${count} "${subject}" e-mail(s) to ${address}` }).toBeGreaterThanOrEqual(count);
  return matching().at(-1) as ParsedMail;
}

/** A donor gives $25 one-time through the form as `email`. */
async function donate(page: Page, email: string): Promise<void> {
  await chooseDonation(page, { frequency: 'one-time', cause: 'research-science' });
  await fillDonorForm(page, { name: 'Rosita Tzul', email });
  await page.getByRole('button', { name: 'Complete Donation of $25' }).click();
  await expect(page.getByRole('heading', { name: 'Thank You!' })).toBeVisible();
}

/** Invites `email` as `role` (the operator) and enrolls them with a passkey in a browser of their own. */
async function enrolledStaff(browser: Parameters<typeof openStaffBrowser>[0], server: OwnMailServer, email: string, role: 'viewer' | 'finance', viewport?: { width: number; height: number }): Promise<StaffBrowser> {
  const staff = await openStaffBrowser(browser, viewport, server.baseUrl);
  await operatorInvites(staff.page, email, role);
  const invitation = await waitForSmtpMail(server.smtp, email, 'You are invited');
  const link = /https?:\/\/[^\s/]+(\/staff\/enroll\/[\w-]+)/.exec(invitation.text ?? '')?.[1];
  expect(link, 'the enrollment link in the invitation').toBeDefined();
  await staff.page.goto(link ?? '');
  await staff.page.getByRole('button', { name: 'Create a passkey' }).click();
  await expect(staff.page).toHaveURL(/\/staff$/);
  await expect(staff.page.getByTestId('staff-email')).toHaveText(email);
  return staff;
}

/** Checks the page at 320 px wide (WCAG 1.4.10), then gives it back its width. */
async function expectReflowAt320(staff: StaffBrowser, state: string): Promise<void> {
  const size = staff.page.viewportSize() ?? { width: 1280, height: 900 };
  await staff.page.setViewportSize({ width: 320, height: 800 });
  await expectNoHorizontalScroll(staff.page, state);
  await staff.page.setViewportSize(size);
}

test.describe('staff donors and mail', () => {
  mailServerTest(
    "a donor's page shows the lifetime total net of a refund and sends a statement again; a receipt refused with 550 appears under Mail and reaches the donor once its address is corrected; a viewer reads it all and changes nothing",
    async ({ browser, page: donorPage, mailServer }) => {
      test.setTimeout(240_000);
      const { smtp } = mailServer;
      const donorEmail = `rosita.tzul-${process.pid}-${Date.now()}@example.org`;
      const financeEmail = uniqueStaffAddress('finance');
      const viewerEmail = uniqueStaffAddress('viewer');

      // The donor gives twice, the second time typing the address in capitals; then once with a typo the SMTP server refuses.
      await donate(donorPage, donorEmail);
      await donate(donorPage, donorEmail.toUpperCase());
      await waitForSmtpMail(smtp, donorEmail, 'Your receipt', 2);
      await donate(donorPage, MISTYPED);

      // Finance refunds $10 of one gift (the refund itself is part 1's; its dialog is shown there).
      const finance = await enrolledStaff(browser, mailServer, financeEmail, 'finance');
      const found = await finance.page.request.get(`${STAFF_API.donations}?${new URLSearchParams({ q: donorEmail }).toString()}`);
      const gifts = ((await found.json()) as { rows: { id: string }[] }).rows;
      expect(gifts).toHaveLength(2);
      const refunded = await finance.page.request.post(staffApiPath(STAFF_API.donationRefunds, gifts[0]?.id ?? ''), {
        headers: { ...(await csrfHeaders(finance.context)), [IDEMPOTENCY_KEY_HEADER]: randomUUID() },
        data: { amountCents: 1000, reason: 'The donor gave $10 too much' },
      });
      expect(refunded.status(), await refunded.text()).toBe(201);

      // Donors: one row for both spellings of the address, $40 net of the refund; the keyboard opens the donor's page.
      await openFromNav(finance, 'Donors');
      await finance.page.getByRole('searchbox', { name: 'Search name or e-mail' }).fill(donorEmail);
      await finance.page.getByRole('button', { name: 'Apply filters' }).click();
      await expect(finance.page).toHaveURL(new RegExp(`\\?q=${encodeURIComponent(donorEmail).replaceAll('.', '\\.')}$`));
      const rows = finance.page.getByRole('region', { name: 'Donors' }).getByRole('row');
      await expect(rows).toHaveCount(2);
      await expect(rows.nth(1).getByRole('cell').nth(3)).toHaveText('2');
      await expect(rows.nth(1).getByRole('cell').nth(4)).toHaveText('$40.00');
      await expectNoAxeViolations(finance.page, 'the donors page, searched');
      await expectReflowAt320(finance, 'the donors page');
      const donorLink = rows.nth(1).getByRole('link', { name: 'Rosita Tzul' });
      // NOTE: from the form's last button: Chromium's date fields hold a calendar button whose focus is not :focus-visible.
      await finance.page.getByRole('button', { name: 'Clear' }).focus();
      await tabTo(finance.page, donorLink, 4);
      await expectFocusVisible(finance.page);
      await finance.page.keyboard.press('Enter');
      await expect(finance.page.getByRole('heading', { level: 1 })).toHaveText('Donor: Rosita Tzul');
      const donorPagePath = new URL(finance.page.url()).pathname;
      const donorKey = donorPagePath.split('/').pop() ?? '';
      await expect(finance.page.getByRole('definition').nth(2)).toHaveText('$40.00');
      await expect(finance.page.getByRole('region', { name: 'Gifts' }).getByRole('row')).toHaveCount(3);
      await expectNoAxeViolations(finance.page, "a donor's page");
      await expectReflowAt320(finance, "a donor's page");

      // A year's statement sent again: the gifts' receipts stand for last year here (test data: the server's clock is the
      // machine's, so this year is never over), and the donor receives the statement.
      const lastYear = new Date().getUTCFullYear() - 1;
      await mailServer.database.db
        .update(receipts)
        .set({ year: lastYear })
        .where(inArray(receipts.donationId, gifts.map((gift) => gift.id)));
      await finance.page.reload();
      const sendAgain = finance.page.getByRole('button', { name: 'Send a statement again' });
      // The page has read the donor again (the button needs a finished year) before the keyboard starts.
      await expect(sendAgain).toBeVisible();
      await tabTo(finance.page, sendAgain);
      await finance.page.keyboard.press('Enter');
      const statementDialog = finance.page.getByRole('dialog', { name: 'Send a year-end statement again' });
      await expect(statementDialog.getByRole('combobox', { name: 'Year' })).toHaveValue(String(lastYear));
      await expectNoAxeViolations(finance.page, 'the statement dialog');
      await tabTo(finance.page, statementDialog.getByRole('button', { name: 'Send the statement' }), 4);
      await finance.page.keyboard.press('Enter');
      await expect(finance.page.getByRole('status')).toHaveText(new RegExp(`^The ${lastYear} statement is on its way to `, 'i'));
      await waitForSmtpMail(smtp, donorEmail, `Your ${lastYear} donations`);

      // Mail: the receipt refused with 550 needs attention; corrected with the keyboard, it reaches the right address.
      await openFromNav(finance, 'Mail');
      const refusedRow = finance.page.getByRole('region', { name: 'E-mails' }).getByRole('row').filter({ hasText: MISTYPED });
      await expect(refusedRow).toHaveCount(1);
      await expect(refusedRow).toContainText('Failed');
      await expect(refusedRow).toContainText('SMTP 550: refused for good by the receiving server');
      await expectNoAxeViolations(finance.page, 'the mail page');
      await expectReflowAt320(finance, 'the mail page');
      await tabTo(finance.page, refusedRow.getByRole('button', { name: /^Correct the address/ }), 40);
      await finance.page.keyboard.press('Enter');
      const correct = finance.page.getByRole('dialog', { name: "Correct the donor's e-mail" });
      await expect(correct.getByRole('textbox', { name: 'New email address' })).toBeFocused();
      await finance.page.keyboard.type(donorEmail);
      await expectNoAxeViolations(finance.page, 'the address correction dialog');
      await finance.page.keyboard.press('Enter');
      await expect(finance.page.getByRole('status')).toHaveText(`The e-mail address is now ${donorEmail}. The receipt is on its way to it.`);
      await waitForSmtpMail(smtp, donorEmail, 'Your receipt', 3);
      await expect(refusedRow).toHaveCount(0);
      await finance.page.getByRole('combobox', { name: 'State' }).selectOption({ label: 'Failed (resolved or not)' });
      await finance.page.getByRole('button', { name: 'Apply filters' }).click();
      await expect(finance.page).toHaveURL(/\/staff\/mail\?state=failed$/);
      await expect(refusedRow).toContainText(`sent again to ${donorEmail}`);
      await expect(refusedRow.getByRole('button')).toHaveCount(1);

      // The viewer at 320 px reads the donor and the mail, finds no action, and the API refuses theirs.
      const viewer = await enrolledStaff(browser, mailServer, viewerEmail, 'viewer', { width: 320, height: 800 });
      await viewer.page.goto(new URL(finance.page.url()).pathname + new URL(finance.page.url()).search);
      const viewerRow = viewer.page.getByRole('region', { name: 'E-mails' }).getByRole('row').filter({ hasText: MISTYPED });
      await expect(viewerRow).toContainText(`sent again to ${donorEmail}`);
      await expect(viewer.page.getByRole('button', { name: /^(Retry now|Correct the address)/ })).toHaveCount(0);
      await expectNoHorizontalScroll(viewer.page, 'the mail page at 320 px');
      await expectNoAxeViolations(viewer.page, 'the mail page, as a viewer');
      await viewer.page.goto(donorPagePath);
      await expect(viewer.page.getByRole('heading', { level: 1 })).toHaveText('Donor: Rosita Tzul');
      await expect(viewer.page.getByRole('button', { name: 'Send a statement again' })).toHaveCount(0);
      await expectNoHorizontalScroll(viewer.page, "a donor's page at 320 px");
      await expectNoAxeViolations(viewer.page, "a donor's page, as a viewer");
      const failedMail = await viewer.page.request.get(`${STAFF_API.mail}?state=failed`);
      const failedId = ((await failedMail.json()) as { rows: { id: string; recipient: string }[] }).rows.find((row) => row.recipient === MISTYPED)?.id ?? '';
      const viewerHeaders = await csrfHeaders(viewer.context);
      expect((await viewer.page.request.post(staffApiPath(STAFF_API.mailRetry, failedId), { headers: viewerHeaders })).status()).toBe(403);
      expect((await viewer.page.request.post(staffApiPath(STAFF_API.donorStatementResend, donorKey), { headers: viewerHeaders, data: { year: lastYear } })).status()).toBe(403);

      expect(finance.errors, "errors on the finance member's pages").toEqual([]);
      expect(viewer.errors.filter((error) => !error.includes('status of 403')), "errors on the viewer's pages").toEqual([]);
    },
  );
});
