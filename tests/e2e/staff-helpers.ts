import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { CSRF_COOKIE_NAME, CSRF_HEADER_NAME } from '../../src/shared/api';
import { ADMIN_STAFF_PATH } from '../../src/shared/staff/paths';
import type { StaffRole } from '../../src/shared/staff/roles';
import { E2E_ADMIN_TOKEN, E2E_DATA_DIR, E2E_STAFF_BASE_URL } from './e2e-env';
import { expect, recordPageErrors } from './fixtures';
import { waitForMail } from './mail-helpers';

/**
 * Helpers of the staff stories (issue #21): a staff member's own browser context with Chromium's own virtual
 * authenticator (CDP WebAuthn domain; nothing of the WebAuthn API is faked in the page), the operator's invitation,
 * and the links the server e-mails into MAIL_DIR.
 */

/** The e2e server's mail folder (MAIL_DIR default: `<DATA_DIR>/mail`). */
export const MAIL_DIR = join(E2E_DATA_DIR, 'mail');

/** An address no other test uses. */
export function uniqueStaffAddress(label: string): string {
  return `${label}-${process.pid}-${Date.now()}@example.org`;
}

/** One staff member's browser: a context of its own at the staff origin, its page, and the page's errors. */
export interface StaffBrowser {
  context: BrowserContext;
  page: Page;
  errors: string[];
}

/**
 * Opens a context of its own at the staff origin `baseURL` (default: the e2e server's PUBLIC_URL; cookies apart from
 * everyone else's) with one page, on which Chromium's virtual authenticator is enabled: CTAP2, internal (a platform
 * authenticator), resident keys (discoverable credentials), user verification that succeeds, as the issue asks. Each
 * context is one device: its authenticator holds the passkeys created in it, and only those.
 */
export async function openStaffBrowser(browser: Browser, viewport = { width: 1280, height: 900 }, baseURL = E2E_STAFF_BASE_URL): Promise<StaffBrowser> {
  const context = await browser.newContext({ baseURL, viewport });
  const page = await context.newPage();
  const errors = recordPageErrors(page);
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
  });
  return { context, page, errors };
}

/** The operator's invitation (POST /api/admin/staff with the e2e ADMIN_TOKEN): 201 with the new member. */
export async function operatorInvites(page: Page, email: string, role: StaffRole): Promise<void> {
  const answer = await page.request.post(ADMIN_STAFF_PATH, { headers: { authorization: `Bearer ${E2E_ADMIN_TOKEN}` }, data: { email, role } });
  expect(answer.status(), await answer.text()).toBe(201);
}

/**
 * The path (`/staff/enroll/<token>` or `/staff/sign-in/<token>`) of the link in the `count`-th message of `kind`
 * (`staff_invitation`, `staff_sign_in_link`) to `address` in `mailDir` (default: the e2e server's), waiting for it to arrive.
 */
export async function emailedStaffLink(
  address: string,
  kind: 'staff_invitation' | 'staff_sign_in_link',
  count = 1,
  mailDir = MAIL_DIR,
): Promise<string> {
  const mail = await waitForMail(mailDir, address, kind, count);
  const path = /https?:\/\/[^\s/]+(\/staff\/(?:enroll|sign-in)\/[\w-]+)/.exec(mail.text ?? '')?.[1];
  expect(path, `a staff link in the ${kind} e-mail to ${address}`).toBeDefined();
  return path ?? '';
}

/** The headers a write of the staff API needs from `context`: the CSRF cookie's value in X-XSRF-TOKEN (as the page sends it). */
export async function csrfHeaders(context: BrowserContext): Promise<Record<string, string>> {
  const cookie = (await context.cookies()).find((each) => each.name === CSRF_COOKIE_NAME);
  expect(cookie, 'the CSRF cookie the page set').toBeDefined();
  return { [CSRF_HEADER_NAME]: decodeURIComponent(cookie?.value ?? '') };
}

/**
 * Enrolls from an invitation link in `staff`'s browser: opens the link, presses "Create a passkey" (the virtual
 * authenticator creates a discoverable credential) and waits for the dashboard (the page staff land on, issue #22), signed in as `email`.
 */
export async function enrollFromLink(staff: StaffBrowser, link: string, email: string): Promise<void> {
  await staff.page.goto(link);
  await expect(staff.page.getByText(`You were invited as ${email}`)).toBeVisible();
  await staff.page.getByRole('button', { name: 'Create a passkey' }).click();
  await expect(staff.page).toHaveURL(/\/staff$/);
  await expect(staff.page.getByTestId('staff-email')).toHaveText(email);
}

/** Goes to the page of the staff navigation whose link is named `name` in `staff`'s browser, and waits for its heading. */
export async function openFromNav(staff: StaffBrowser, name: string): Promise<void> {
  await staff.page.getByRole('navigation', { name: 'Staff' }).getByRole('link', { name, exact: true }).click();
  await expect(staff.page.getByRole('heading', { level: 1 })).toBeVisible();
}

/**
 * "Email me a sign-in link" on `/staff/sign-in` in `staff`'s browser for `email`; waits for the page's answer (the same
 * for every address). The link itself: {@link emailedStaffLink} with `staff_sign_in_link`.
 */
export async function askForSignInLink(staff: StaffBrowser, email: string): Promise<void> {
  await staff.page.goto('/staff/sign-in');
  await staff.page.getByRole('textbox', { name: 'Email address' }).fill(email);
  await staff.page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await expect(staff.page.getByRole('status')).toContainText(`If ${email} belongs to a staff member, a sign-in link is on its way.`);
}
