import { randomUUID } from 'node:crypto';
import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_BILLING_RUN_PATH } from '../../recurring/plugin';
import { CSRF_HEADER_NAME } from '../../../shared/api';
import { STAFF_API, staffApiPath } from '../../../shared/staff/paths';
import { StaffDonationDetailSchema, StaffRefundAnswerSchema } from '../../../shared/staff/donations-api';
import { adminAuditLog, donationRefunds, donations, mailOutbox, receipts } from '../../db/schema';
import { signInStaffForTest, type StaffTestSession } from '../identity/testing/staff-session';
import { startSmtpTestServer, type SmtpTestServer } from '../../testing/smtp-test-server';
import { createTestApp, validSubmission, type TestApp } from '../../testing/test-app';
import { amountTooLargeMessage } from '../../admin/refund-route';
import { DONATION_AUDIT_ACTIONS } from '../shared/donation-audit';

/**
 * A donation's detail and the staff's actions on it through the real app (issue #21, "A donation"): the detail holds
 * every field but never a card number; refund (the operator's refund semantics, a reason, recent strong auth,
 * idempotent), receipt resend, and e-mail correction whose new address gets the resent receipt and the plan's later
 * mail (the real SMTP test server); roles (a viewer gets 403 on every action, no session 401); each action's audit
 * entry names the staff member and the donation, and is written in the transaction of its effect.
 */

const ADMIN_TOKEN = 'correct-horse-battery-staple-0123456789';
let t: TestApp;
let smtp: SmtpTestServer;
let viewer: StaffTestSession;
let finance: StaffTestSession;
let admin: StaffTestSession;

beforeAll(async () => {
  smtp = await startSmtpTestServer();
  t = await createTestApp({ env: { SMTP_URL: smtp.url, ADMIN_TOKEN, PUBLIC_URL: 'http://localhost:3000' } });
  viewer = await signInStaffForTest(t.app, t.db, { role: 'viewer' });
  finance = await signInStaffForTest(t.app, t.db, { role: 'finance' });
  admin = await signInStaffForTest(t.app, t.db, { role: 'admin' });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});
beforeEach(() => {
  smtp.received.length = 0;
});

/** A succeeded donation made through the donor's API; resolves with its id. */
async function give(overrides: Parameters<typeof validSubmission>[0] = {}): Promise<string> {
  const answer = await t.postDonation(validSubmission({ donorEmail: `donor-${randomUUID()}@example.org`, ...overrides }));
  expect(answer.statusCode, answer.body).toBe(200);
  const transactionId = answer.json<{ data: { transactionId: string } }>().data.transactionId;
  const [row] = await t.db.select({ id: donations.id }).from(donations).where(eq(donations.gatewayTransactionId, transactionId));
  return row!.id;
}

/**
 * A staff request: `method` to `path` as `session`, with a JSON body and extra headers; with `session` null, as a
 * browser without a staff session (the page's CSRF cookie and header, so a write reaches the staff guard).
 */
async function staff(method: 'GET' | 'POST', path: string, session: StaffTestSession | null, payload?: object, headers: Record<string, string> = {}) {
  const csrf = session ? undefined : await t.csrf();
  const sent = session ? session.headers : { cookie: csrf!.cookie, [CSRF_HEADER_NAME]: csrf!.token };
  return t.app.inject({ method, url: path, headers: { ...sent, ...headers }, ...(payload ? { payload } : {}) });
}

const refund = (id: string, body: object, session: StaffTestSession | null = finance, key: string | null = randomUUID()) =>
  staff('POST', staffApiPath(STAFF_API.donationRefunds, id), session, body, key === null ? {} : { 'idempotency-key': key });
const resend = (id: string, session: StaffTestSession | null = finance) => staff('POST', staffApiPath(STAFF_API.donationReceiptResend, id), session);
const correct = (id: string, body: object, session: StaffTestSession | null = finance) => staff('POST', staffApiPath(STAFF_API.donationEmail, id), session, body);
const detail = (id: string, session: StaffTestSession | null = viewer) => staff('GET', staffApiPath(STAFF_API.donation, id), session);

const donationRow = async (id: string) => (await t.db.select().from(donations).where(eq(donations.id, id)))[0]!;
const auditOf = (id: string, action: string) =>
  t.db.select().from(adminAuditLog).where(and(eq(adminAuditLog.subjectId, id), eq(adminAuditLog.action, action))).orderBy(asc(adminAuditLog.createdAt));
/** The messages the SMTP server accepted for `address`. */
const mailTo = (address: string) => smtp.received.filter((mail) => (Array.isArray(mail.to) ? mail.to : [mail.to]).some((to) => to?.text.toLowerCase().includes(address)));

describe('GET /api/staff/donations/:id', () => {
  it('holds every field, the receipt, e-mails with their state, refunds and audit entries as one timeline; never a card number', async () => {
    const id = await give({ donorPhone: '+501 555 0100', message: 'For the reef', donorAddress: { street: '1 Coral Way', city: 'Belize City', state: '', zipCode: '', country: 'BZ' } });
    expect((await refund(id, { amountCents: 500, reason: 'Asked by the donor' })).statusCode).toBe(201);
    await t.app.mail.relayDue();
    const answer = await detail(id);
    expect(answer.statusCode, answer.body).toBe(200);
    const body = StaffDonationDetailSchema.parse(answer.json());
    expect(body.donation).toMatchObject({ id, status: 'partially_refunded', ledgerStatus: 'succeeded', amountCents: 2500, refundedCents: 500, keptCents: 2000, cardBrand: 'visa', last4: '4242', phone: '+501 555 0100', message: 'For the reef', address: { street: '1 Coral Way', city: 'Belize City', country: 'BZ' } });
    expect(body.receipt?.number).toMatch(/^\d{4}-\d{6}$/);
    expect(body.refunds).toMatchObject([{ amountCents: 500 }]);
    expect(body.emails.map((email) => [email.kind, email.state])).toEqual([['receipt', 'sent'], ['partial_refund', 'sent']]);
    expect(body.audit).toMatchObject([{ action: DONATION_AUDIT_ACTIONS.refund, actorType: 'staff', actorEmail: finance.staffMember.email, details: { amountCents: 500, reason: 'Asked by the donor' } }]);
    expect(body.timeline.map((event) => event.kind)).toEqual(expect.arrayContaining(['created', 'receipt_issued', 'refund', 'email_queued', 'email_sent', 'audit']));
    expect([...body.timeline].sort((a, b) => Date.parse(a.at) - Date.parse(b.at))).toEqual(body.timeline);
    // Never a card number: the donation was paid with 4242 4242 4242 4242.
    expect(answer.body).not.toMatch(/4242424242424242|4242 4242 4242 4242|42424242/);
  });

  it('shows a failed e-mail with its last error, and answers 404 for an unknown id and 401 without a session', async () => {
    const id = await give();
    await t.db.update(mailOutbox).set({ status: 'failed', attempts: 3, lastError: '550 5.1.1 mailbox unavailable' }).where(eq(mailOutbox.donationId, id));
    const body = StaffDonationDetailSchema.parse((await detail(id)).json());
    expect(body.emails).toMatchObject([{ kind: 'receipt', state: 'failed', attempts: 3, lastError: '550 5.1.1 mailbox unavailable' }]);
    expect((await detail(randomUUID())).statusCode).toBe(404);
    expect((await detail('not-a-uuid')).statusCode).toBe(404);
    expect((await detail(id, null)).statusCode).toBe(401);
  });

  it('serves the receipt PDF to staff', async () => {
    const id = await give();
    const pdf = await staff('GET', staffApiPath(STAFF_API.donationReceiptPdf, id), viewer);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await staff('GET', staffApiPath(STAFF_API.donationReceiptPdf, randomUUID()), viewer)).statusCode).toBe(404);
  });
});

describe('POST /api/staff/donations/:id/refunds', () => {
  it('refunds part with a reason (201), audited with the actor in the refund, and notifies the donor', async () => {
    const id = await give({ amount: 40 });
    const answer = await refund(id, { amountCents: 1500, reason: 'Duplicate gift' });
    expect(answer.statusCode, answer.body).toBe(201);
    expect(StaffRefundAnswerSchema.parse(answer.json())).toMatchObject({ refund: { amountCents: 1500 }, donation: { id, status: 'partially_refunded', amountCents: 4000, refundedCents: 1500 } });
    const [entry] = await auditOf(id, DONATION_AUDIT_ACTIONS.refund);
    expect(entry).toMatchObject({ actorType: 'staff', actorStaffId: finance.staffMember.id, actorEmail: finance.staffMember.email, subjectType: 'donation', subjectId: id, details: { amountCents: 1500, reason: 'Duplicate gift' } });
    expect(await t.db.select({ kind: mailOutbox.kind }).from(mailOutbox).where(eq(mailOutbox.kind, 'partial_refund'))).not.toHaveLength(0);
  });

  it('refunds all that is left without an amount, and a retry with the same key refunds nothing more', async () => {
    const id = await give({ amount: 30 });
    const key = randomUUID();
    const first = await refund(id, { reason: 'Donor asked' }, finance, key);
    expect(first.statusCode).toBe(201);
    const again = await refund(id, { reason: 'Donor asked' }, finance, key);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await t.db.select().from(donationRefunds).where(eq(donationRefunds.donationId, id))).toHaveLength(1);
    expect(await auditOf(id, DONATION_AUDIT_ACTIONS.refund)).toHaveLength(1);
    expect(await donationRow(id)).toMatchObject({ status: 'refunded', refundedCents: 3000 });
    expect((await t.db.select().from(receipts).where(eq(receipts.donationId, id)))[0]?.voidedAt).toBeInstanceOf(Date);
  });

  it('refuses more than what is left with 400 and writes nothing', async () => {
    const id = await give({ amount: 20 });
    expect((await refund(id, { amountCents: 500, reason: 'First part' })).statusCode).toBe(201);
    const over = await refund(id, { amountCents: 1501, reason: 'Too much' });
    expect(over.statusCode).toBe(400);
    expect(over.json()).toMatchObject({ fieldErrors: { amountCents: amountTooLargeMessage(1500) } });
    expect(await t.db.select().from(donationRefunds).where(eq(donationRefunds.donationId, id))).toHaveLength(1);
    expect(await auditOf(id, DONATION_AUDIT_ACTIONS.refund)).toHaveLength(1);
    expect(await donationRow(id)).toMatchObject({ refundedCents: 500, status: 'succeeded' });
  });

  it('needs a reason, an Idempotency-Key and a passkey or link sign-in within 15 minutes', async () => {
    const id = await give();
    const noReason = await refund(id, { amountCents: 100 });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json()).toMatchObject({ fieldErrors: { reason: expect.stringMatching(/Say why/) } });
    expect((await refund(id, { amountCents: 100, reason: 'ok' })).statusCode).toBe(400);
    expect((await refund(id, { reason: 'No key' }, finance, null)).statusCode).toBe(400);
    const stale = await signInStaffForTest(t.app, t.db, { role: 'finance', now: new Date(Date.now() - 16 * 60 * 1000) });
    const reauth = await refund(id, { reason: 'Stale sign-in' }, stale);
    expect(reauth.statusCode).toBe(403);
    expect(reauth.json()).toMatchObject({ code: 'staff_reauth_required' });
    expect(await t.db.select().from(donationRefunds).where(eq(donationRefunds.donationId, id))).toHaveLength(0);
    expect((await refund(randomUUID(), { reason: 'Nobody' })).statusCode).toBe(404);
  });
});

describe('resend and e-mail correction', () => {
  it('resends the receipt to the donation address (202), audited; 409 for a void receipt', async () => {
    const id = await give();
    const { donorEmail } = await donationRow(id);
    await t.app.mail.relayDue();
    smtp.received.length = 0;
    const answer = await resend(id);
    expect(answer.statusCode).toBe(202);
    expect(answer.json()).toEqual({ success: true, recipient: donorEmail });
    expect((await resend(id)).statusCode).toBe(202);
    await t.app.mail.relayDue();
    const receiptNumber = (await donationRow(id)) && (await t.db.select().from(receipts).where(eq(receipts.donationId, id)))[0]!.number;
    expect(mailTo(donorEmail).map((mail) => mail.subject)).toEqual([expect.stringContaining(receiptNumber), expect.stringContaining(receiptNumber)]);
    expect(await auditOf(id, DONATION_AUDIT_ACTIONS.receiptResent)).toMatchObject([{ actorEmail: finance.staffMember.email, details: { recipient: donorEmail } }, { actorType: 'staff' }]);

    expect((await refund(id, { reason: 'Refund all' })).statusCode).toBe(201);
    const void_ = await resend(id);
    expect(void_.statusCode).toBe(409);
    expect((await resend(randomUUID())).statusCode).toBe(404);
  });

  it("corrects the e-mail: the resent receipt and the plan's later e-mail go to the new address; the old one is in the audit entry", async () => {
    const id = await give({ frequency: 'monthly', donorEmail: 'mistyped@exmaple.org' });
    await t.app.mail.relayDue();
    smtp.received.length = 0;
    const answer = await correct(id, { email: 'right@example.org', resend: true });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toEqual({ email: 'right@example.org', previousEmail: 'mistyped@exmaple.org', planUpdated: true, receiptQueued: true });
    const [entry] = await auditOf(id, DONATION_AUDIT_ACTIONS.emailCorrected);
    expect(entry).toMatchObject({ actorType: 'staff', actorStaffId: finance.staffMember.id, subjectType: 'donation', subjectId: id, details: { previousEmail: 'mistyped@exmaple.org', email: 'right@example.org', receiptResent: true } });

    await t.app.mail.relayDue();
    expect(mailTo('right@example.org').map((mail) => mail.subject)).toEqual([expect.stringMatching(/^Your receipt /)]);
    expect(mailTo('mistyped@exmaple.org')).toEqual([]);

    // The plan's next charge (its renewal's receipt) goes to the corrected address too.
    const run = await t.app.inject({ method: 'POST', url: ADMIN_BILLING_RUN_PATH, headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, payload: { asOf: new Date(Date.now() + 40 * 86_400_000).toISOString() } });
    expect(run.json()).toMatchObject({ charged: 1 });
    smtp.received.length = 0;
    await t.app.mail.relayDue();
    expect(mailTo('right@example.org')).toHaveLength(1);
    expect(mailTo('mistyped@exmaple.org')).toEqual([]);
  });

  it('a pending message about the donation follows the correction; without resend nothing new is queued', async () => {
    const id = await give({ donorEmail: 'old@example.org' });
    const answer = await correct(id, { email: 'new@example.org', resend: false });
    expect(answer.json()).toMatchObject({ receiptQueued: false, planUpdated: false });
    const messages = await t.db.select({ kind: mailOutbox.kind, recipient: mailOutbox.recipient }).from(mailOutbox).where(eq(mailOutbox.donationId, id));
    expect(messages).toEqual([{ kind: 'receipt', recipient: 'new@example.org' }]);
  });

  it('refuses a bad address with 400 and changes nothing', async () => {
    const id = await give({ donorEmail: 'keep@example.org' });
    const bad = await correct(id, { email: 'not an address', resend: true });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ fieldErrors: { email: 'Please enter a valid email address' } });
    expect((await donationRow(id)).donorEmail).toBe('keep@example.org');
    expect((await correct(randomUUID(), { email: 'a@example.org', resend: false })).statusCode).toBe(404);
  });

  it('writes the audit entry in the transaction of the effect: when the entry cannot be written, the correction is undone', async () => {
    const id = await give({ donorEmail: 'stays@example.org' });
    // A fault in the database itself: the audit log refuses this one entry.
    await t.db.execute(sql.raw(`
      CREATE FUNCTION refuse_test_audit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.details->>'email' = 'refused@example.org' THEN RAISE EXCEPTION 'audit refused (test fault)'; END IF; RETURN NEW; END $$;
      CREATE TRIGGER refuse_test_audit BEFORE INSERT ON admin_audit_log FOR EACH ROW EXECUTE FUNCTION refuse_test_audit();`));
    try {
      const answer = await correct(id, { email: 'refused@example.org', resend: true });
      expect(answer.statusCode).toBe(500);
      expect((await donationRow(id)).donorEmail).toBe('stays@example.org');
      expect(await t.db.select().from(mailOutbox).where(and(eq(mailOutbox.donationId, id), eq(mailOutbox.kind, 'receipt_resend')))).toEqual([]);
    } finally {
      await t.db.execute(sql.raw('DROP TRIGGER refuse_test_audit ON admin_audit_log; DROP FUNCTION refuse_test_audit();'));
    }
  });
});

describe('roles', () => {
  it('a viewer gets 403 on every action and changes nothing; no session gets 401; admin may act', async () => {
    const id = await give();
    for (const answer of [
      await refund(id, { reason: 'Viewer tries' }, viewer),
      await resend(id, viewer),
      await correct(id, { email: 'x@example.org', resend: true }, viewer),
      await staff('GET', `${STAFF_API.donationsExport}?format=standard`, viewer),
    ]) {
      expect(answer.statusCode).toBe(403);
      expect(answer.json()).toMatchObject({ code: 'staff_forbidden' });
    }
    for (const answer of [
      await refund(id, { reason: 'Nobody' }, null),
      await resend(id, null),
      await correct(id, { email: 'x@example.org', resend: true }, null),
      await staff('GET', STAFF_API.donations, null),
    ]) {
      expect(answer.statusCode).toBe(401);
    }
    expect(await t.db.select().from(donationRefunds).where(eq(donationRefunds.donationId, id))).toEqual([]);
    expect((await donationRow(id)).donorEmail).not.toBe('x@example.org');
    expect((await resend(id, admin)).statusCode).toBe(202);
  });

  it('every staff write needs the CSRF token like the donor side', async () => {
    const id = await give();
    const { cookie } = finance.headers;
    const answer = await t.app.inject({ method: 'POST', url: staffApiPath(STAFF_API.donationReceiptResend, id), headers: { cookie } });
    expect(answer.statusCode).toBe(403);
  });
});
