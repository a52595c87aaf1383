import { STAFF_API } from '../../src/shared/staff/paths';
import { startWebhookReceiver, type WebhookReceiver } from '../../src/server/testing/webhook-receiver';
import { expectNoAxeViolations } from './a11y-helpers';
import { expect, test } from './fixtures';
import { expectNoHorizontalScroll } from './reflow-helpers';
import { csrfHeaders, emailedStaffLink, enrollFromLink, openFromNav, openStaffBrowser, operatorInvites, type StaffBrowser, uniqueStaffAddress } from './staff-helpers';

/**
 * The integrations story of issue #38 ("Must be shown"), in Chromium with a virtual authenticator per staff member,
 * against the real server (WEBHOOKS_ALLOW_PRIVATE_TARGETS=on in playwright.config.ts, the product's own setting for
 * tests: the receiver below listens on loopback, which the SSRF guard refuses otherwise): an admin adds an endpoint
 * pointing at a real receiving HTTP server that verifies every signature with the Standard Webhooks library, sees its
 * secret once, sends a test event and sees its try in the endpoint's delivery log (status 200, latency); a viewer and
 * a finance member cannot open the page (no link, the page says so) and the API refuses them (403). axe 0 and 320 px
 * reflow on the page empty, with the secret shown and with its delivery log (the page has no dialogs).
 */

/** Checks the page at 320 px wide (WCAG 1.4.10), then gives it back its width. */
async function expectReflowAt320(staff: StaffBrowser, state: string): Promise<void> {
  const size = staff.page.viewportSize() ?? { width: 1280, height: 900 };
  await staff.page.setViewportSize({ width: 320, height: 800 });
  await expectNoHorizontalScroll(staff.page, state);
  await staff.page.setViewportSize(size);
}

let receiver: WebhookReceiver;
test.beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
test.afterAll(async () => {
  await receiver?.close();
});

test('an admin adds an endpoint, sees its secret once, sends a test event and sees it in the delivery log; a viewer and finance cannot open the page', async ({ browser }) => {
  // NOTE: 120 s rather than the 60 s default: three passkey enrolments and axe on three states, on a 2-core machine.
  test.setTimeout(120_000);
  const adminEmail = uniqueStaffAddress('integrations-admin');
  const admin = await openStaffBrowser(browser);
  await operatorInvites(admin.page, adminEmail, 'admin');
  await enrollFromLink(admin, await emailedStaffLink(adminEmail, 'staff_invitation'), adminEmail);
  await openFromNav(admin, 'Integrations');
  await expect(admin.page.getByRole('heading', { level: 1 })).toHaveText('Integrations');
  await expectNoAxeViolations(admin.page, 'the integrations page');
  await expectReflowAt320(admin, 'the integrations page');

  // The admin adds the receiver: its secret is shown once, and it is the one the receiver verifies with.
  const form = admin.page.getByRole('form', { name: 'Add an endpoint' });
  await form.getByRole('textbox', { name: 'Endpoint URL' }).fill(receiver.url);
  await form.getByRole('textbox', { name: 'Description' }).fill('The CRM');
  await expect(form.getByRole('checkbox', { name: /^donation\.succeeded/ })).toBeChecked();
  await form.getByRole('button', { name: 'Add endpoint' }).click();
  await expect(admin.page.getByRole('status').filter({ hasText: 'Endpoint added.' })).toHaveText('Endpoint added. Copy its secret now: it is not shown again.');
  const secret = (await admin.page.getByTestId('webhook-secret').textContent()) ?? '';
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  receiver.secrets = [secret];
  const endpoint = admin.page.getByRole('region', { name: receiver.url });
  await expect(endpoint).toContainText('The CRM. Active. Gets donor contact. Events: donation.succeeded, donation.refunded.');
  await expectNoAxeViolations(admin.page, 'the integrations page with a secret shown');
  await expectReflowAt320(admin, 'the integrations page with a secret shown');
  await admin.page.getByRole('button', { name: 'I have copied it' }).click();
  await expect(admin.page.getByTestId('webhook-secret')).toHaveCount(0);
  await admin.page.reload();
  await expect(endpoint).toBeVisible();
  await expect(admin.page.locator('body')).not.toContainText(secret);

  // A test event: the receiver gets it, validly signed, and the log shows its try (status 200, its latency) by itself.
  await expect(endpoint.getByText('No deliveries in the last 30 days.')).toBeVisible();
  await endpoint.getByRole('button', { name: 'Send test event' }).click();
  await expect(admin.page.getByRole('status').filter({ hasText: 'Test event queued.' })).toBeVisible();
  const log = endpoint.getByRole('region', { name: `Delivery log of ${receiver.url}` });
  const row = log.getByRole('row').filter({ hasText: 'webhook.test' });
  await expect(row).toHaveCount(1, { timeout: 15_000 });
  const cells = row.getByRole('cell');
  await expect(cells.nth(2)).toHaveText('200');
  await expect(cells.nth(3)).toHaveText(/^\d+ ms$/);
  await expect(cells.nth(4)).toHaveText('ok');
  expect(receiver.received.map((message) => ({ type: message.body.type, verifiedWith: message.verifiedWith }))).toEqual([{ type: 'webhook.test', verifiedWith: [secret] }]);
  await expectNoAxeViolations(admin.page, 'the integrations page with a delivery log');
  await expectReflowAt320(admin, 'the integrations page with a delivery log');

  // A viewer and a finance member: no link to the page, the page says it is for admins, and the API answers 403.
  for (const role of ['viewer', 'finance'] as const) {
    const email = uniqueStaffAddress(`integrations-${role}`);
    const member = await openStaffBrowser(browser, { width: 320, height: 800 });
    await operatorInvites(member.page, email, role);
    await enrollFromLink(member, await emailedStaffLink(email, 'staff_invitation'), email);
    const nav = member.page.getByRole('navigation', { name: 'Staff' });
    await expect(nav.getByRole('link', { name: 'Campaigns', exact: true })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Integrations', exact: true })).toHaveCount(0);
    await member.page.goto('/staff/integrations');
    await expect(member.page.getByRole('heading', { level: 1 })).toHaveText('Integrations');
    await expect(member.page.getByText('Integrations are for admins')).toBeVisible();
    await expect(member.page.getByRole('form', { name: 'Add an endpoint' })).toHaveCount(0);
    await expect(member.page.getByText(receiver.url)).toHaveCount(0);
    await expectNoAxeViolations(member.page, `the integrations page as ${role}, at 320 px`);
    await expectNoHorizontalScroll(member.page, `the integrations page as ${role}, at 320 px`);
    expect((await member.page.request.get(STAFF_API.integrations)).status(), `GET as ${role}`).toBe(403);
    const added = await member.page.request.post(STAFF_API.integrations, {
      headers: await csrfHeaders(member.context),
      data: { url: receiver.url, events: ['donation.succeeded'], includeContact: true },
    });
    expect(added.status(), `POST as ${role}`).toBe(403);
    expect(member.errors, `errors on the ${role}'s pages`).toEqual([]);
    await member.context.close();
  }
  expect(admin.errors, "errors on the admin's pages").toEqual([]);
  await admin.context.close();
});
