import { execFile } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Locator, Page, TestInfo } from '@playwright/test';
import { simpleParser, type ParsedMail } from 'mailparser';
import { DOWNLOAD_RECEIPT_LABEL, RESEND_RECEIPTS_CONFIRMATION } from '../../src/shared/receipts';
import { expectNoAxeViolations } from './a11y-helpers';
import { E2E_DATA_DIR } from './e2e-env';
import { chooseDonation, expect, fillDonorForm, test } from './fixtures';
import { expectNoHorizontalScroll, expectTouchTargets } from './reflow-helpers';

/**
 * Receipts end to end (issue #12): a donation in test mode e-mails its receipt into MAIL_DIR (the e2e server's
 * DATA_DIR/mail, SMTP_URL being unset) within 10 seconds; its PDF link answers application/pdf, as does the
 * thank-you page's 'Download your receipt (PDF)'; a donor asks for their receipts again on /donate/receipts.
 * A picture of the PDF's first page (pdftoppm, Debian's poppler-utils) and of the HTML e-mail as Chromium shows
 * it are attached to the test for a person to look at.
 */

const MAIL_DIR = join(E2E_DATA_DIR, 'mail');
const run = promisify(execFile);

/** An address no other test uses: a donor's own mailbox in MAIL_DIR. */
const uniqueAddress = (testInfo: TestInfo, label: string) => `${label}-${testInfo.workerIndex}-${Date.now()}@example.org`;

/** Every message of MAIL_DIR sent to `address` (the `.eml` files the relay writes), parsed. */
async function mailTo(address: string): Promise<ParsedMail[]> {
  const names = (await readdir(MAIL_DIR).catch(() => [] as string[])).filter((name) => name.endsWith('.eml'));
  const messages: ParsedMail[] = [];
  for (const name of names) {
    const raw = await readFile(join(MAIL_DIR, name)).catch(() => undefined);
    if (!raw?.includes(address)) continue;
    messages.push(await simpleParser(raw));
  }
  return messages;
}

/** Waits (polling, at most `timeoutMs`) for the one message to `address` whose subject matches, and returns it. */
async function waitForMail(address: string, subject: RegExp, timeoutMs = 10_000): Promise<ParsedMail> {
  let found: ParsedMail | undefined;
  await expect
    .poll(
      async () => {
        found = (await mailTo(address)).find((mail) => subject.test(mail.subject ?? ''));
        return found !== undefined;
      },
      { timeout: timeoutMs, message: `a message "${subject}" to ${address} in ${MAIL_DIR}` },
    )
    .toBe(true);
  return found as ParsedMail;
}

/** The receipt PDF links of a message's text part, as paths of this site (the e-mail's are on PUBLIC_URL). */
const pdfPathsOf = (mail: ParsedMail) => [...(mail.text ?? '').matchAll(/https?:\/\/[^\s/]+(\/api\/receipts\/pdf\/[\w.-]+)/g)].map((match) => match[1] ?? '');

/** Presses Tab (at most `maxPresses` times) until `target` has focus, as a keyboard user would reach it. */
async function tabTo(page: Page, target: Locator, maxPresses = 12): Promise<void> {
  for (let presses = 0; presses < maxPresses && !(await target.evaluate((element) => element === document.activeElement)); presses += 1) {
    await page.keyboard.press('Tab');
  }
  await expect(target).toBeFocused();
}

/** Gives $25 one-time to research as `email` through the form, and waits for the thank-you page. */
async function donate(page: Page, email: string): Promise<void> {
  await chooseDonation(page, { frequency: 'one-time', cause: 'research-science' });
  await fillDonorForm(page, { name: 'Marisol Chan', email });
  await page.getByRole('button', { name: 'Complete Donation of $25' }).click();
  await expect(page.getByRole('heading', { name: 'Thank You!' })).toBeVisible();
}

test.describe('receipts', () => {
  test('a donor gives $25, downloads the receipt from the thank-you page, and finds the receipt e-mail with its PDF link', async ({ page }, testInfo) => {
    const email = uniqueAddress(testInfo, 'receipt');
    await donate(page, email);

    // 'Download your receipt (PDF)': a link by that name, reached with the keyboard, that answers a PDF.
    const download = page.getByRole('link', { name: DOWNLOAD_RECEIPT_LABEL });
    await expect(download).toHaveAttribute('href', /^\/api\/receipts\/pdf\/[\w-]+\.\d+\.[\w-]{32}$/);
    await page.getByRole('heading', { name: 'Thank You!' }).focus();
    await tabTo(page, download);
    const pdfAnswer = page.context().waitForEvent('response', (response) => response.url().includes('/api/receipts/pdf/'));
    await page.keyboard.press('Enter');
    const answer = await pdfAnswer;
    expect(answer.status()).toBe(200);
    expect(answer.headers()['content-type']).toBe('application/pdf');
    for (const opened of page.context().pages().filter((other) => other !== page)) await opened.close();
    // The page says how to get receipts again, and the rest of it is as it was.
    await expect(page.getByRole('link', { name: 'Get your receipts again' })).toHaveAttribute('href', '/donate/receipts');
    await expect(page.getByText('What Happens Next')).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath('thank-you-page.png'), fullPage: true });

    // The receipt e-mail, in MAIL_DIR within 10 seconds of the donation.
    const receipt = await waitForMail(email, /^Your receipt \d{4}-\d{6,}: \$25\.00 USD/);
    expect(receipt.attachments.map((attachment) => attachment.contentType)).toEqual(['application/pdf']);
    expect(receipt.text).toContain('/donate/receipts');
    const [pdfPath] = pdfPathsOf(receipt);
    expect(pdfPath).toBeDefined();
    const pdf = await page.request.get(pdfPath ?? '');
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()['content-type']).toBe('application/pdf');
    expect(pdf.headers()['cache-control']).toBe('private, no-store');

    // For a person to look at: the PDF's first page (pdftoppm) and the HTML e-mail as Chromium renders it.
    const pdfFile = testInfo.outputPath('receipt.pdf');
    await writeFile(pdfFile, await pdf.body());
    const pngStem = testInfo.outputPath('receipt-page-1');
    await run('pdftoppm', ['-png', '-r', '110', '-f', '1', '-l', '1', '-singlefile', pdfFile, pngStem]).catch((error: Error) => {
      throw new Error(`pdftoppm failed (install Debian's poppler-utils: apt-get install -y poppler-utils): ${error.message}`);
    });
    await testInfo.attach('receipt PDF, page 1', { path: `${pngStem}.png`, contentType: 'image/png' });
    await testInfo.attach('receipt PDF', { path: pdfFile, contentType: 'application/pdf' });

    await page.setViewportSize({ width: 800, height: 900 });
    await page.setContent(typeof receipt.html === 'string' ? receipt.html : '');
    await expect(page.getByRole('link', { name: DOWNLOAD_RECEIPT_LABEL })).toBeVisible();
    await expect(page.getByText('$25.00 USD', { exact: true })).toBeVisible();
    const emailPng = testInfo.outputPath('receipt-email.png');
    await page.screenshot({ path: emailPng, fullPage: true });
    await testInfo.attach('receipt e-mail (HTML)', { path: emailPng, contentType: 'image/png' });
  });

  test('a donor asks for their receipts again on /donate/receipts: the same confirmation for any address, one message to the one that gave', async ({ page }, testInfo) => {
    const donor = uniqueAddress(testInfo, 'resend');
    await donate(page, donor);
    await page.getByRole('link', { name: 'Get your receipts again' }).click();
    await expect(page).toHaveURL(/\/donate\/receipts$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Get Your Receipts' })).toBeVisible();
    await expect(page).toHaveTitle(/^Get Your Receipts \| /);
    await expectNoAxeViolations(page, '/donate/receipts');

    // An empty or malformed address is refused on the page, next to the field.
    const field = page.getByRole('textbox', { name: 'Email Address' });
    await page.getByRole('button', { name: 'Email My Receipts' }).click();
    await expect(page.getByText('Email is required')).toBeVisible();
    await expect(field).toBeFocused();
    await expect(field).toHaveAttribute('aria-invalid', 'true');
    await expectNoAxeViolations(page, '/donate/receipts with an error');

    // An address that never gave: the confirmation.
    await field.fill(`nobody-${Date.now()}@example.org`);
    const unknownAnswer = page.waitForResponse('**/api/receipts/resend');
    await field.press('Enter');
    expect((await unknownAnswer).status()).toBe(202);
    const confirmation = page.getByRole('status').filter({ hasText: RESEND_RECEIPTS_CONFIRMATION });
    await expect(confirmation).toBeVisible();
    await expect(confirmation).toBeFocused();
    await expectNoAxeViolations(page, '/donate/receipts confirmed');

    // The donor's address, typed in capitals: the same confirmation, and one message listing the receipt.
    await page.reload();
    await page.getByRole('textbox', { name: 'Email Address' }).fill(donor.toUpperCase());
    await page.getByRole('button', { name: 'Email My Receipts' }).click();
    await expect(page.getByRole('status').filter({ hasText: RESEND_RECEIPTS_CONFIRMATION })).toBeVisible();
    const links = await waitForMail(donor, /^Your donation receipts from /);
    const [pdfPath, ...more] = pdfPathsOf(links);
    expect(more).toEqual([]);
    const pdf = await page.request.get(pdfPath ?? '');
    expect(pdf.headers()['content-type']).toBe('application/pdf');
  });

  test('/donate/receipts reflows at 320 px with targets of 24 px or more, and works with the keyboard alone', async ({ page }, testInfo) => {
    await page.setViewportSize({ width: 320, height: 640 });
    await page.goto('/donate/receipts');
    await expect(page.getByRole('heading', { level: 1, name: 'Get Your Receipts' })).toBeVisible();
    await expectNoHorizontalScroll(page, '/donate/receipts at 320 px');
    await expectTouchTargets(page, '/donate/receipts at 320 px');

    await tabTo(page, page.getByRole('textbox', { name: 'Email Address' }));
    await page.keyboard.type(`keyboard-${Date.now()}@example.org`);
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Email My Receipts' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('status').filter({ hasText: RESEND_RECEIPTS_CONFIRMATION })).toBeFocused();
    await expectNoHorizontalScroll(page, '/donate/receipts confirmed at 320 px');
    await page.screenshot({ path: testInfo.outputPath('receipts-page-320px-confirmed.png'), fullPage: true });
  });
});
