import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CSRF_HEADER_NAME } from '../../../shared/api';
import { STAFF_MAIL_KINDS, StaffMailListAnswerSchema, type StaffMailRow } from '../../../shared/staff/mail-api';
import { STAFF_API, staffApiPath } from '../../../shared/staff/paths';
import { adminAuditLog, donations, MAIL_KINDS, mailOutbox } from '../../db/schema';
import { claimDueMessages } from '../../mail/outbox';
import { CLAIM_LEASE_MS } from '../../mail/relay';
import { signInStaffForTest, type StaffTestSession } from '../identity/testing/staff-session';
import { startSmtpTestServer, type SmtpTestServer } from '../../testing/smtp-test-server';
import { createTestApp, validSubmission, type TestApp } from '../../testing/test-app';
import { describeMailError } from './mail-error';
import { MAIL_AUDIT_ACTIONS, MAIL_SUBJECT } from './retry';
import { MAIL_CANCELLED_MESSAGE } from './routes';

/**
 * The staff mail API through the real app, database and SMTP test server (issue #22, "Mail"): a receipt the server
 * refuses with 550 shows under "needs attention" with its last error; its address corrected through the donations
 * API's correction (with a resend), the copy reaches the right address and the failed original counts as resolved;
 * "retry now" makes a failed message due and the relay sends it, never one a relay holds; the filters; the roles.
 */

/** The address the SMTP test server refuses with 550 5.1.1. */
const MISTYPED = 'rosa@exmaple.org';
let t: TestApp;
let smtp: SmtpTestServer;
let viewer: StaffTestSession;
let finance: StaffTestSession;

beforeAll(async () => {
  smtp = await startSmtpTestServer({ rejectRecipients: [MISTYPED] });
  t = await createTestApp({ env: { SMTP_URL: smtp.url, PUBLIC_URL: 'http://localhost:3000', LOG_LEVEL: 'error' } });
  viewer = await signInStaffForTest(t.app, t.db, { role: 'viewer' });
  finance = await signInStaffForTest(t.app, t.db, { role: 'finance' });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});
beforeEach(async () => {
  // Each test starts with every earlier message sent or failed, so "due" means what this test queued.
  await t.app.mail.relayDue();
  smtp.received.length = 0;
});

/** A succeeded donation by `email` (one-time, or the first gift of a monthly plan); resolves with its id (its receipt queued). */
async function give(email: string, frequency: 'one-time' | 'monthly' = 'one-time'): Promise<string> {
  const answer = await t.postDonation(validSubmission({ donorEmail: email, frequency }));
  expect(answer.statusCode, answer.body).toBe(200);
  const transactionId = answer.json<{ data: { transactionId: string } }>().data.transactionId;
  const [row] = await t.db.select({ id: donations.id }).from(donations).where(eq(donations.gatewayTransactionId, transactionId));
  return row!.id;
}

/** A staff request as `session` (null: a browser without a staff session, with the page's CSRF credentials). */
async function staff(method: 'GET' | 'POST', url: string, session: StaffTestSession | null, payload?: object) {
  const csrf = session ? undefined : await t.csrf();
  const sent = session ? session.headers : { cookie: csrf!.cookie, [CSRF_HEADER_NAME]: csrf!.token };
  return t.app.inject({ method, url, headers: sent, ...(payload ? { payload } : {}) });
}
const listMail = async (query: Record<string, string> = {}) => {
  const answer = await staff('GET', `${STAFF_API.mail}?${new URLSearchParams(query).toString()}`, viewer);
  expect(answer.statusCode, answer.body).toBe(200);
  return StaffMailListAnswerSchema.parse(answer.json());
};
const retry = (id: string, session: StaffTestSession | null = finance) => staff('POST', staffApiPath(STAFF_API.mailRetry, id), session);
const receiptOf = async (donationId: string) =>
  (await t.db.select().from(mailOutbox).where(and(eq(mailOutbox.donationId, donationId), eq(mailOutbox.kind, 'receipt'))))[0]!;
const rowOf = (rows: StaffMailRow[], id: string) => rows.find((row) => row.id === id);
const mailTo = (address: string) => smtp.received.filter((mail) => (Array.isArray(mail.to) ? mail.to : [mail.to]).some((to) => to?.text.toLowerCase().includes(address)));

describe('GET /api/staff/mail', () => {
  it('shows a receipt refused with 550 as failed with its last error; corrected with a resend, the copy reaches the donor and the original is resolved', async () => {
    const donationId = await give(MISTYPED);
    await t.app.mail.relayDue();
    const failed = await receiptOf(donationId);
    expect(failed.status).toBe('failed');

    const attention = await listMail();
    expect(rowOf(attention.rows, failed.id)).toMatchObject({ kind: 'receipt', recipient: MISTYPED, state: 'failed', attempts: 1, donationId, donationHasPlan: false, resolvedBy: null, nextAttemptAt: null });
    expect(rowOf(attention.rows, failed.id)?.lastError).toMatch(/^SMTP 550: refused for good/);

    // Part 1's correction, with a resend, is how the page corrects the address.
    const corrected = await staff('POST', staffApiPath(STAFF_API.donationEmail, donationId), finance, { email: 'rosa@example.org', resend: true });
    expect(corrected.statusCode, corrected.body).toBe(200);
    await t.app.mail.relayDue();
    expect(mailTo('rosa@example.org').map((mail) => mail.subject)).toEqual([expect.stringMatching(/^Your receipt \d{4}-\d{6}/)]);

    expect(rowOf((await listMail()).rows, failed.id)).toBeUndefined();
    const original = rowOf((await listMail({ state: 'failed' })).rows, failed.id);
    expect(original).toMatchObject({ state: 'failed', recipient: MISTYPED, resolvedBy: { recipient: 'rosa@example.org', state: 'sent' } });
  });

  it('filters by state and kind, shows retrying messages with their next try, and answers 400 to a bad query', async () => {
    await give(`sent-${randomUUID()}@example.org`);
    await give(`sent-${randomUUID()}@example.org`);
    await t.app.mail.relayDue();
    const donationId = await give(`filter-${randomUUID()}@example.org`);
    const receipt = await receiptOf(donationId);
    const nextTry = new Date(Date.now() + 60 * 60 * 1000);
    await t.db.update(mailOutbox).set({ attempts: 2, lastError: JSON.stringify({ responseCode: 451, name: 'Error' }), nextAttemptAt: nextTry }).where(eq(mailOutbox.id, receipt.id));

    expect(rowOf((await listMail()).rows, receipt.id)).toMatchObject({ state: 'retrying', attempts: 2, nextAttemptAt: nextTry.toISOString(), lastError: 'SMTP 451: refused for now by the receiving server' });
    expect(rowOf((await listMail({ state: 'retrying', kind: 'receipt' })).rows, receipt.id)).toBeDefined();
    expect(rowOf((await listMail({ state: 'retrying', kind: 'year_end_statement' })).rows, receipt.id)).toBeUndefined();
    expect(rowOf((await listMail({ state: 'sent' })).rows, receipt.id)).toBeUndefined();
    const sent = await listMail({ state: 'sent', kind: 'receipt', pageSize: '1' });
    expect(sent.rows).toHaveLength(1);
    expect(sent.total).toBeGreaterThan(1);
    expect(sent.rows.every((row) => row.state === 'sent' && row.kind === 'receipt' && row.lastError === null)).toBe(true);

    for (const query of ['state=lost', 'kind=postcard', 'page=0', 'colour=blue']) {
      const answer = await staff('GET', `${STAFF_API.mail}?${query}`, viewer);
      expect(answer.statusCode, query).toBe(400);
      expect(Object.keys(answer.json<{ fieldErrors: object }>().fieldErrors), query).toHaveLength(1);
    }
  });

  it('names every kind of e-mail the outbox sends, and says what an error was in words', () => {
    expect([...STAFF_MAIL_KINDS].sort()).toEqual([...MAIL_KINDS].sort());
    expect(describeMailError(JSON.stringify({ code: 'ECONNREFUSED', name: 'Error' }))).toBe('The mail server could not be used (ECONNREFUSED)');
    expect(describeMailError('not json')).toBe('not json');
  });
});

describe('POST /api/staff/mail/:id/retry', () => {
  it('makes a failed message due now, audited; the relay sends it to the SMTP server', async () => {
    const address = `retry-${randomUUID()}@example.org`;
    const donationId = await give(address, 'monthly');
    const receipt = await receiptOf(donationId);
    // The receipt as the relay leaves it after three days of temporary refusals: failed, with its last error.
    await t.db.update(mailOutbox).set({ status: 'failed', attempts: 9, lastError: JSON.stringify({ responseCode: 421, name: 'Error' }) }).where(eq(mailOutbox.id, receipt.id));

    const answer = await retry(receipt.id);
    expect(answer.statusCode, answer.body).toBe(202);
    expect(answer.json()).toEqual({ success: true, id: receipt.id, recipient: address });
    expect(rowOf((await listMail({ state: 'retrying' })).rows, receipt.id)).toMatchObject({ state: 'retrying', attempts: 9, donationHasPlan: true });
    const audit = await t.db.select().from(adminAuditLog).where(and(eq(adminAuditLog.subjectType, MAIL_SUBJECT), eq(adminAuditLog.subjectId, receipt.id)));
    expect(audit).toMatchObject([{ action: MAIL_AUDIT_ACTIONS.retriedNow, actorEmail: finance.staffMember.email, details: { kind: 'receipt', recipient: address, previousStatus: 'failed', donationId } }]);

    expect(await t.app.mail.relayDue()).toMatchObject({ sent: 1 });
    expect(mailTo(address)).toHaveLength(1);
    expect(rowOf((await listMail({ state: 'sent' })).rows, receipt.id)).toMatchObject({ state: 'sent', attempts: 10 });
    // Sent: nothing more to retry.
    expect((await retry(receipt.id)).statusCode).toBe(409);
  });

  it('leaves a message a relay has claimed alone (409, not sent twice), and answers 404 for an unknown one', async () => {
    const address = `claimed-${randomUUID()}@example.org`;
    const receipt = await receiptOf(await give(address));
    const claimed = await claimDueMessages(t.db, { now: new Date(), leaseMs: CLAIM_LEASE_MS, limit: 100 });
    expect(claimed.map((row) => row.id)).toContain(receipt.id);
    const auditBefore = await t.db.$count(adminAuditLog);

    const answer = await retry(receipt.id);
    expect(answer.statusCode).toBe(409);
    expect(rowOf((await listMail({ state: 'queued' })).rows, receipt.id)).toMatchObject({ sending: true });
    const [row] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.id, receipt.id));
    expect(row).toMatchObject({ lockedUntil: receipt.lockedUntil ?? expect.any(Date), attempts: 1, status: 'pending' });
    expect(row!.nextAttemptAt).toEqual(receipt.nextAttemptAt);
    expect(await t.db.$count(adminAuditLog)).toBe(auditBefore);
    expect((await retry(randomUUID())).statusCode).toBe(404);
    expect((await retry('not-an-id')).statusCode).toBe(404);
    // Let the other tests' relay runs send it: the claim ends.
    await t.db.update(mailOutbox).set({ lockedUntil: null }).where(eq(mailOutbox.id, receipt.id));
  });

  it('refuses a message withdrawn on purpose (cancelled: a tribute card whose gift was refunded first) with 409, writing nothing', async () => {
    const address = `cancelled-${randomUUID()}@example.org`;
    const receipt = await receiptOf(await give(address));
    await t.db.update(mailOutbox).set({ status: 'cancelled' }).where(eq(mailOutbox.id, receipt.id));
    const auditBefore = await t.db.$count(adminAuditLog);

    const answer = await retry(receipt.id);
    expect(answer.statusCode).toBe(409);
    expect(answer.json()).toMatchObject({ error: MAIL_CANCELLED_MESSAGE });
    const [row] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.id, receipt.id));
    expect(row).toMatchObject({ status: 'cancelled', attempts: receipt.attempts });
    expect(await t.db.$count(adminAuditLog)).toBe(auditBefore);
  });

  it('refuses a viewer (403) and anyone without a session (401), writing nothing; a viewer reads the list', async () => {
    await t.app.mail.relayDue();
    const donationId = await give(MISTYPED);
    await t.app.mail.relayDue();
    const failed = await receiptOf(donationId);
    const auditBefore = await t.db.$count(adminAuditLog);
    expect((await retry(failed.id, viewer)).statusCode).toBe(403);
    expect((await retry(failed.id, null)).statusCode).toBe(401);
    expect((await staff('GET', STAFF_API.mail, null)).statusCode).toBe(401);
    expect((await staff('GET', STAFF_API.mail, viewer)).statusCode).toBe(200);
    expect(await t.db.$count(adminAuditLog)).toBe(auditBefore);
    expect((await receiptOf(donationId)).status).toBe('failed');
  });
});
