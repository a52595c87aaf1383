import type { Page } from '@playwright/test';
import { expectNoAxeViolations } from './a11y-helpers';
import { chooseDonation, expect, fillDonorForm, test } from './fixtures';
import { waitForReceipt } from './mail-helpers';
import { expectNoHorizontalScroll } from './reflow-helpers';
import { emailedStaffLink, enrollFromLink, MAIL_DIR, openFromNav, openStaffBrowser, operatorInvites, type StaffBrowser, uniqueStaffAddress } from './staff-helpers';

/**
 * A donor's phone call in the back office (issue #36, "Must be shown"), in Chromium with a virtual authenticator,
 * against the shared e2e server: finance finds Margaret by searching her surname, corrects her e-mail once for every
 * gift and the plan, sees one donor with both gifts, merges her second donor record into her, adds a note, and reads
 * the donor's history in sentences. axe 0 and 320 px reflow on the donor page and each dialog.
 * The search term is part of her surname ("konkwo" of "Okonkwo"): the staff search finds any part of a name (part 2).
 */

const SEARCH_TERM = 'konkwo';

/** A donor gives $25 (`frequency`) through the form as `name` <`email`>, and waits for the receipt. */
async function donate(page: Page, name: string, email: string, frequency: 'one-time' | 'monthly'): Promise<void> {
  await chooseDonation(page, { frequency, cause: 'research-science' });
  await fillDonorForm(page, { name, email });
  await page.getByRole('button', { name: 'Complete Donation of $25' }).click();
  await expect(page.getByRole('heading', { name: 'Thank You!' })).toBeVisible();
  await waitForReceipt(MAIL_DIR, email);
}

/** axe (WCAG 2.2 AA) and reflow at 320 px of what `staff` shows now (a page, or a page with its dialog open). */
async function expectAccessible(staff: StaffBrowser, state: string): Promise<void> {
  await expectNoAxeViolations(staff.page, state);
  const size = staff.page.viewportSize() ?? { width: 1280, height: 900 };
  await staff.page.setViewportSize({ width: 320, height: 800 });
  await expectNoHorizontalScroll(staff.page, state);
  await staff.page.setViewportSize(size);
}

test('finance answers Margaret’s call: finds her, corrects her e-mail everywhere, merges her second record, notes her wish, and reads it all as sentences', async ({ page, browser }) => {
  test.slow();
  const tag = `${process.pid}-${Date.now()}`;
  const typo = `margaret.okonkwo-${tag}@exmaple.org`;
  const corrected = `margaret.okonkwo-${tag}@example.org`;
  const secondRecord = `m.okonkwo-${tag}@example.net`;
  await donate(page, 'Margaret Okonkwo', typo, 'one-time');
  await donate(page, 'Margaret Okonkwo', typo, 'monthly');
  await donate(page, 'Margret Okonkwo', secondRecord, 'one-time');

  const financeEmail = uniqueStaffAddress('finance-call');
  const finance = await openStaffBrowser(browser);
  await operatorInvites(finance.page, financeEmail, 'finance');
  await enrollFromLink(finance, await emailedStaffLink(financeEmail, 'staff_invitation'), financeEmail);

  // Finds her by searching.
  await openFromNav(finance, 'Donors');
  await finance.page.getByRole('searchbox', { name: 'Search name or e-mail' }).fill(SEARCH_TERM);
  await finance.page.getByRole('button', { name: 'Apply filters' }).click();
  await finance.page.getByRole('row').filter({ hasText: typo }).getByRole('link', { name: 'Margaret Okonkwo' }).click();
  await expect(finance.page.getByRole('heading', { level: 1, name: 'Donor: Margaret Okonkwo' })).toBeVisible();
  await expectAccessible(finance, 'donor page');

  // Corrects the e-mail once, for every gift and the plan.
  await finance.page.getByRole('button', { name: 'Correct the e-mail' }).click();
  const correct = finance.page.getByRole('dialog', { name: "Correct the donor's e-mail" });
  await expect(correct.getByRole('checkbox', { name: 'Apply to every gift, receipt and plan of this address' })).toBeChecked();
  await correct.getByRole('textbox', { name: 'New email address' }).fill(corrected);
  await expectAccessible(finance, 'correct e-mail dialog');
  await correct.getByRole('button', { name: 'Correct the e-mail' }).click();
  await expect(finance.page.getByRole('status').first()).toContainText(`The e-mail address is now ${corrected} on 2 gifts and 1 plan.`);

  // One donor with both gifts.
  await expect(finance.page.getByRole('region', { name: 'Gifts' }).getByRole('row')).toHaveCount(3);
  await expect(finance.page.getByRole('region', { name: 'Recurring plans' }).getByRole('row')).toHaveCount(2);

  // Merges her second donor record into her.
  await finance.page.getByRole('button', { name: 'Merge another donor into this one' }).click();
  const merge = finance.page.getByRole('dialog', { name: 'Merge another donor into this one' });
  await merge.getByRole('textbox', { name: 'Find the other donor (name or e-mail)' }).fill(SEARCH_TERM);
  await merge.getByRole('button', { name: 'Search' }).click();
  await merge.getByRole('radio', { name: new RegExp(secondRecord.replace(/[.]/g, '\\.')) }).check();
  await expectAccessible(finance, 'merge dialog');
  await merge.getByRole('button', { name: 'Merge into this donor' }).click();
  await expect(finance.page.getByRole('status').first()).toContainText(`${secondRecord} is merged into this donor: 1 gift moved.`);
  await expect(finance.page.getByRole('region', { name: 'Gifts' }).getByRole('row')).toHaveCount(4);
  await expect(finance.page.getByRole('region', { name: 'Merged donors' })).toContainText(secondRecord);

  // Adds a note.
  await finance.page.getByRole('textbox', { name: 'New note' }).fill('She prefers a call in the morning.');
  await finance.page.getByRole('button', { name: 'Add the note' }).click();
  await expect(finance.page.getByRole('list', { name: 'Notes' })).toContainText('She prefers a call in the morning.');

  // Reads the donor's history in sentences.
  const history = finance.page.getByRole('list', { name: 'History' });
  await expect(history).toContainText(`Margaret Okonkwo’s e-mail corrected from ${typo} to ${corrected} on every gift, receipt and plan by ${financeEmail}.`);
  await expect(history).toContainText(`Donor ${secondRecord} merged into Margaret Okonkwo by ${financeEmail}.`);
  await expect(history).toContainText(`Note added by ${financeEmail}.`);
  await expectAccessible(finance, 'donor page after the call');
  expect(finance.errors).toEqual([]);
  await finance.context.close();
});
