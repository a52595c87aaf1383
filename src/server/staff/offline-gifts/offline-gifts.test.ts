import { createHash, randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { API_PATHS } from '../../../shared/api';
import { UNSUPPORTED_CHARACTERS_MESSAGE } from '../../../shared/field-rules';
import { OFFLINE_CSV_COLUMNS, type OfflineGiftRequest } from '../../../shared/offline-gifts';
import { STAFF_API, staffApiPath } from '../../../shared/staff/paths';
import { ADMIN_OFFLINE_GIFTS_PATH, ADMIN_STATEMENTS_RUN_PATH } from '../../admin/paths';
import { adminAuditLog, campaigns, donations, mailOutbox, offlineGifts, receipts } from '../../db/schema';
import { todayIn } from '../../offline-gifts/service';
import { listReceiptsByEmail } from '../../receipts/repository';
import { startSmtpTestServer, type SmtpTestServer } from '../../testing/smtp-test-server';
import { createTestApp, validSubmission, type TestApp } from '../../testing/test-app';
import { signInStaffForTest, type StaffTestSession } from '../identity/testing/staff-session';

/**
 * Gifts received outside the site (issue #37, "Must be shown": the API tests) through the real app and database: recorded
 * once per Idempotency-Key, a likely duplicate confirmed first, days and amounts in range, a donor without an e-mail,
 * hostile text refused with nothing written, receipts numbered with the site's gifts, a void, a CSV all or none and once
 * only, and the operator's route.
 */

const TZ = 'America/Belize';
const ADMIN_TOKEN = 'correct-horse-battery-staple-0123456789';
let smtp: SmtpTestServer;
let t: TestApp;
let viewer: StaffTestSession;
let finance: StaffTestSession;
beforeAll(async () => {
  smtp = await startSmtpTestServer();
  t = await createTestApp({ env: { TZ, ADMIN_TOKEN, PUBLIC_URL: 'https://give.example.org', SMTP_URL: smtp.url } });
  viewer = await signInStaffForTest(t.app, t.db, { role: 'viewer' });
  finance = await signInStaffForTest(t.app, t.db, { role: 'finance' });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});
beforeEach(async () => {
  await t.reset();
  await t.db.delete(campaigns);
  smtp.received.length = 0;
});

const today = () => todayIn(TZ, new Date());
/** `YYYY-MM-DD` `days` before today in TZ. */
const daysAgo = (days: number) => {
  const date = new Date(`${today()}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() - days);
  return date.toISOString().slice(0, 10);
};

/** A $200 cheque from Jane on last week's date, its receipt e-mailed. */
function gift(overrides: Partial<OfflineGiftRequest> = {}): OfflineGiftRequest {
  return {
    method: 'cheque',
    reference: '001234',
    receivedOn: daysAgo(7),
    amountCents: 20_000,
    donor: { name: 'Jane Doe', email: 'jane@example.org', address: { street: '1 Reef Road', city: 'Hilo' } },
    cause: 'marine-protected-areas',
    note: 'Given at the office',
    sendReceipt: true,
    ...overrides,
  };
}

const record = (body: unknown, key: string | null = randomUUID(), session = finance) =>
  t.app.inject({ method: 'POST', url: STAFF_API.offlineGifts, headers: { ...session.headers, ...(key === null ? {} : { 'idempotency-key': key }) }, payload: body as object });
const voidGift = (id: string, reason = 'Cheque bounced') =>
  t.app.inject({ method: 'POST', url: staffApiPath(STAFF_API.offlineGiftVoid, id), headers: finance.headers, payload: { reason } });
const importCsv = (csv: string, recordIt: boolean) =>
  t.app.inject({ method: 'POST', url: STAFF_API.offlineGiftsImport, headers: finance.headers, payload: { csv, record: recordIt } });
const stats = async () => (await t.app.inject({ method: 'GET', url: API_PATHS.donationStats })).json<{ totalRaised: number; donationCount: number }>();
const countRows = async () => ({ donations: await t.countDonations(), offline: (await t.db.select().from(offlineGifts)).length });
/** How many audit entries of `action` exist (the audit log is kept across tests: compare before and after). */
const auditCount = async (action: string) => (await t.db.select().from(adminAuditLog).where(eq(adminAuditLog.action, action))).length;

describe('recording one gift', () => {
  it('records a cheque once however often it is sent, with its receipt, e-mail and audit; a key reused for another gift is 422', async () => {
    const key = randomUUID();
    const first = await record(gift(), key);
    expect(first.statusCode, first.body).toBe(201);
    const answer = first.json<{ donationId: string; receiptNumber: string; receiptEmailed: boolean }>();
    expect(answer).toMatchObject({ receiptNumber: expect.stringMatching(/^\d{4}-\d{6}$/), receiptEmailed: true });

    const again = await record(gift(), key);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(answer);
    expect(await countRows()).toEqual({ donations: 1, offline: 1 });

    const [row] = await t.db.select().from(donations).where(eq(donations.id, answer.donationId));
    expect(row).toMatchObject({ status: 'succeeded', paymentMethod: 'cheque', amountCents: 20_000, gateway: 'offline', donorEmail: 'jane@example.org', cardBrand: null });
    expect(await t.db.select({ kind: mailOutbox.kind, recipient: mailOutbox.recipient }).from(mailOutbox)).toEqual([{ kind: 'receipt', recipient: 'jane@example.org' }]);
    const audit = await t.db.select().from(adminAuditLog).where(and(eq(adminAuditLog.subjectId, answer.donationId), eq(adminAuditLog.action, 'donation.offline_recorded')));
    expect(audit).toEqual([expect.objectContaining({ actorStaffId: finance.staffMember.id })]);
    expect(await stats()).toMatchObject({ totalRaised: 200, donationCount: 1 });

    const reused = await record(gift({ amountCents: 30_000 }), key);
    expect(reused.statusCode).toBe(422);
    const noKey = await record(gift(), null);
    expect(noKey.statusCode).toBe(400);
    expect(await countRows()).toEqual({ donations: 1, offline: 1 });
  });

  it('asks for a confirmation before a likely duplicate (same donor, amount, day and reference), then records it', async () => {
    const first = await record(gift());
    expect(first.statusCode).toBe(201);
    const duplicate = await record(gift({ donor: { name: 'Jane Doe', email: 'JANE@example.org' } }));
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json()).toMatchObject({ code: 'likely_duplicate', duplicateOf: { donationId: first.json<{ donationId: string }>().donationId } });
    expect(await countRows()).toEqual({ donations: 1, offline: 1 });
    const otherReference = await record(gift({ reference: '001235' }));
    expect(otherReference.statusCode).toBe(201);
    const confirmed = await record(gift({ confirmDuplicate: true }));
    expect(confirmed.statusCode).toBe(201);
    expect(await countRows()).toEqual({ donations: 3, offline: 3 });
  });

  it('takes a day from the first of last year to today in TZ, and refuses one in the future, older, or not a day', async () => {
    const lastYearFirst = `${Number(today().slice(0, 4)) - 1}-01-01`;
    const tooOld = `${Number(today().slice(0, 4)) - 2}-12-31`;
    for (const receivedOn of [daysAgo(-1), tooOld, '2026-02-30', '15/01/2026']) {
      const refused = await record(gift({ receivedOn }));
      expect(refused.statusCode, receivedOn).toBe(400);
      expect(refused.json<{ fieldErrors: Record<string, string> }>().fieldErrors).toHaveProperty('receivedOn');
    }
    expect(await countRows()).toEqual({ donations: 0, offline: 0 });
    for (const receivedOn of [lastYearFirst, today()]) expect((await record(gift({ receivedOn }))).statusCode, receivedOn).toBe(201);
    const [row] = await t.db.select({ receivedOn: offlineGifts.receivedOn }).from(offlineGifts).where(eq(offlineGifts.receivedOn, lastYearFirst));
    expect(row).toBeDefined();
  });

  it('takes $1 to $1,000,000 in whole cents and refuses less, more or a fraction of a cent', async () => {
    for (const amountCents of [99, 100_000_001, 1250.5, 0, -100]) {
      const refused = await record(gift({ amountCents }));
      expect(refused.statusCode, String(amountCents)).toBe(400);
      expect(refused.json<{ fieldErrors: Record<string, string> }>().fieldErrors).toHaveProperty('amountCents');
    }
    expect(await countRows()).toEqual({ donations: 0, offline: 0 });
    expect((await record(gift({ amountCents: 100 }))).statusCode).toBe(201);
    expect((await record(gift({ amountCents: 100_000_000 }))).statusCode).toBe(201);
  });

  it('records a donor without an e-mail: no receipt e-mail, the PDF still there, her gifts under one donor by her name', async () => {
    const noEmail = gift({ donor: { name: 'Kai Nakamura' }, method: 'cash', reference: undefined, sendReceipt: true });
    const first = await record(noEmail);
    expect(first.statusCode, first.body).toBe(201);
    const { donationId, receiptEmailed } = first.json<{ donationId: string; receiptEmailed: boolean }>();
    expect(receiptEmailed).toBe(false);
    expect(await t.db.select().from(mailOutbox)).toEqual([]);
    const pdf = await t.app.inject({ method: 'GET', url: staffApiPath(STAFF_API.donationReceiptPdf, donationId), headers: viewer.headers });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const resend = await t.app.inject({ method: 'POST', url: staffApiPath(STAFF_API.donationReceiptResend, donationId), headers: finance.headers, payload: {} });
    expect(resend.statusCode, resend.body).toBe(409);
    expect(resend.json<{ error: string }>().error).toMatch(/no e-mail address/);
    expect(await t.db.select().from(mailOutbox)).toEqual([]);

    expect((await record({ ...noEmail, amountCents: 5000, donor: { name: ' kai nakamura ' } })).statusCode).toBe(201);
    const addresses = new Set((await t.db.select({ email: donations.donorEmail }).from(donations)).map((row) => row.email));
    expect(addresses.size).toBe(1);
    expect([...addresses][0]).toMatch(/@no-email\.invalid$/);
    const list = await t.app.inject({ method: 'GET', url: `${STAFF_API.donations}?paymentMethod=cash`, headers: viewer.headers });
    expect(list.json<{ rows: Array<{ email: string; paymentMethod: string }> }>().rows).toEqual([
      expect.objectContaining({ email: '', paymentMethod: 'cash' }),
      expect.objectContaining({ email: '', paymentMethod: 'cash' }),
    ]);
  });

  it('refuses control characters and over-long values with 400 naming the field, writing nothing', async () => {
    const auditBefore = await auditCount('donation.offline_recorded');
    const hostile: Array<[OfflineGiftRequest, string]> = [
      [gift({ donor: { name: 'Jane\u0000Doe' } }), 'donor.name'],
      [gift({ reference: 'A\u202Egnp.exe' }), 'reference'],
      [gift({ note: 'Given\u0007 at the office' }), 'note'],
      [gift({ donor: { name: 'Jane Doe', address: { city: 'Hilo\u001B[2J' } } }), 'donor.address.city'],
      [gift({ tribute: { type: 'memory', honoreeName: 'Lu\u2066ana' } }), 'tribute.honoreeName'],
      [gift({ note: 'x'.repeat(1001) }), 'note'],
      [gift({ reference: '9'.repeat(101) }), 'reference'],
      [gift({ donor: { name: 'J'.repeat(101) } }), 'donor.name'],
      [gift({ donor: { name: 'Jane Doe', email: `${'j'.repeat(250)}@example.org` } }), 'donor.email'],
      [gift({ donor: { name: 'Jane Doe', address: { street: 'S'.repeat(201) } } }), 'donor.address.street'],
      [gift({ tribute: { type: 'honor', honoreeName: 'H'.repeat(101) } }), 'tribute.honoreeName'],
    ];
    for (const [body, field] of hostile) {
      const refused = await record(body);
      expect(refused.statusCode, field).toBe(400);
      expect(Object.keys(refused.json<{ fieldErrors: Record<string, string> }>().fieldErrors), field).toContain(field);
    }
    expect((await record({ ...gift(), extra: 'field' })).statusCode).toBe(400);
    // An Idempotency-Key over 255 characters is no key: 400.
    expect((await record(gift(), 'k'.repeat(256))).statusCode).toBe(400);
    expect(await countRows()).toEqual({ donations: 0, offline: 0 });
    expect(await auditCount('donation.offline_recorded')).toBe(auditBefore);
  });

  it('records a dedication as the donation form does', async () => {
    const tribute = { type: 'memory' as const, honoreeName: 'Grandma Lu' };
    const offline = (await record(gift({ tribute }))).json<{ donationId: string }>();
    expect((await t.postDonation(validSubmission({ tribute }))).statusCode).toBe(200);
    const columns = { type: donations.tributeType, honoree: donations.tributeHonoreeName, notifyName: donations.tributeNotifyName, notifyEmail: donations.tributeNotifyEmail };
    const [fromPage] = await t.db.select(columns).from(donations).where(eq(donations.id, offline.donationId));
    const [fromForm] = await t.db.select(columns).from(donations).where(eq(donations.paymentMethod, 'card'));
    expect(fromPage).toEqual({ type: 'memory', honoree: 'Grandma Lu', notifyName: null, notifyEmail: null });
    expect(fromPage).toEqual(fromForm);
  });

  it('records a gift once when the button is pressed twice at once (the same key)', async () => {
    const key = randomUUID();
    const [first, second] = await Promise.all([record(gift(), key), record(gift(), key)]);
    expect([first.statusCode, second.statusCode], `${first.body} ${second.body}`).toEqual([201, 201]);
    expect(first.json<{ donationId: string }>().donationId).toBe(second.json<{ donationId: string }>().donationId);
    expect(await countRows()).toEqual({ donations: 1, offline: 1 });
    expect(await t.db.select().from(receipts)).toHaveLength(1);
  });

  it('numbers its receipt in one sequence with the site’s gifts', async () => {
    const site1 = await t.postDonation(validSubmission({ amount: 25 }));
    expect(site1.statusCode).toBe(200);
    const offline = (await record(gift())).json<{ receiptNumber: string }>().receiptNumber;
    await t.postDonation(validSubmission({ amount: 30 }));
    const numbers = (await t.db.select({ number: receipts.number }).from(receipts)).map((row) => row.number).sort();
    expect(numbers).toHaveLength(3);
    expect(numbers[1]).toBe(offline);
    expect(numbers.map((number) => Number(number.slice(5)))).toEqual([1, 2, 3]);
  });

  it('lets a viewer read but not record, import or void', async () => {
    expect((await record(gift(), randomUUID(), viewer)).statusCode).toBe(403);
    const imported = await t.app.inject({ method: 'POST', url: STAFF_API.offlineGiftsImport, headers: viewer.headers, payload: { csv: csvOf(2), record: true } });
    expect(imported.statusCode).toBe(403);
    // Even a file with a control character in it is not read for a viewer: 403 before any check.
    const hostile = await t.app.inject({ method: 'POST', url: STAFF_API.offlineGiftsImport, headers: viewer.headers, payload: { csv: csvOf(2, { 1: { donor_name: 'A\u0000B' } }), record: false } });
    expect(hostile.statusCode).toBe(403);
    expect(await countRows()).toEqual({ donations: 0, offline: 0 });
    const { donationId } = (await record(gift())).json<{ donationId: string }>();
    const voided = await t.app.inject({ method: 'POST', url: staffApiPath(STAFF_API.offlineGiftVoid, donationId), headers: viewer.headers, payload: { reason: 'Cheque bounced' } });
    expect(voided.statusCode).toBe(403);
    expect(await stats()).toMatchObject({ totalRaised: 200, donationCount: 1 });
    const anonymous = await t.app.inject({ method: 'POST', url: STAFF_API.offlineGifts, headers: { 'idempotency-key': randomUUID() }, payload: gift() });
    expect([401, 403]).toContain(anonymous.statusCode);
    expect(await countRows()).toEqual({ donations: 1, offline: 1 });
  });
});

describe('the year-end statement', () => {
  it('lists a gift received last year and recorded today in LAST year’s statement, dated the day received, not in this year’s', async () => {
    const lastYear = Number(today().slice(0, 4)) - 1;
    const receivedOn = `${lastYear}-12-20`;
    const offline = (await record(gift({ receivedOn }))).json<{ donationId: string; receiptNumber: string }>();
    // The receipt takes the next number of the year it is issued in (one sequence with the site's gifts).
    expect(offline.receiptNumber.startsWith(`${new Date().getUTCFullYear()}-`)).toBe(true);
    expect((await t.postDonation(validSubmission({ donorEmail: 'jane@example.org', amount: 25 }))).statusCode).toBe(200);
    // A donor without an e-mail who also gave last year: no statement can go to her.
    expect((await record(gift({ receivedOn, donor: { name: 'Kai Nakamura' }, method: 'cash', reference: undefined, amountCents: 5000 }))).statusCode).toBe(201);
    await t.app.mail.relayDue();
    smtp.received.length = 0;

    expect((await listReceiptsByEmail(t.db, 'jane@example.org', lastYear)).map((receipt) => receipt.donationId)).toEqual([offline.donationId]);
    expect((await listReceiptsByEmail(t.db, 'jane@example.org', lastYear + 1)).map((receipt) => receipt.amountCents)).toEqual([2500]);

    const run = await t.app.inject({ method: 'POST', url: ADMIN_STATEMENTS_RUN_PATH, headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, payload: { year: lastYear } });
    expect(run.statusCode, run.body).toBe(200);
    expect(run.json()).toEqual({ queued: 1 });
    expect(await t.db.select({ recipient: mailOutbox.recipient, year: mailOutbox.statementYear }).from(mailOutbox).where(eq(mailOutbox.kind, 'year_end_statement'))).toEqual([
      { recipient: 'jane@example.org', year: lastYear },
    ]);
    await t.app.mail.relayDue();
    const [statement] = smtp.received;
    expect(statement?.subject).toContain(String(lastYear));
    expect(statement?.text).toContain(`20 December ${lastYear}: $200.00`);
    expect(statement?.text).not.toContain('$25.00');

    // Staff can send it again from her page: last year is one of her statement years.
    const donorKey = createHash('sha256').update('jane@example.org').digest('hex');
    const page = await t.app.inject({ method: 'GET', url: staffApiPath(STAFF_API.donor, donorKey), headers: viewer.headers });
    expect(page.json<{ statementYears: number[] }>().statementYears).toEqual([lastYear]);
  });

  it('sends a cheque’s receipt saying Cheque and the day received, with its PDF', async () => {
    const receivedOn = daysAgo(20);
    expect((await record(gift({ receivedOn }))).statusCode).toBe(201);
    await t.app.mail.relayDue();
    const [receipt] = smtp.received;
    const day = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${receivedOn}T12:00:00Z`));
    expect(receipt?.text).toMatch(/Paid with:?\s+Cheque/);
    expect(receipt?.text).toContain(day);
    expect(receipt?.text).not.toMatch(/Paid with:?\s+Card/);
    expect(receipt?.attachments.map((attachment) => attachment.contentType)).toEqual(['application/pdf']);
  });
});

describe('voiding a gift', () => {
  it('voids a bounced cheque: every figure goes back, the receipt is voided, the donor told since her receipt was sent, audited', async () => {
    const { donationId } = (await record(gift())).json<{ donationId: string }>();
    await t.db.update(mailOutbox).set({ status: 'sent', sentAt: new Date() }).where(eq(mailOutbox.donationId, donationId));
    const voided = await voidGift(donationId);
    expect(voided.statusCode, voided.body).toBe(200);
    expect(voided.json()).toEqual({ donationId, receiptVoided: true, donorNotified: true });
    expect(await stats()).toMatchObject({ totalRaised: 0, donationCount: 0 });
    const [receipt] = await t.db.select().from(receipts).where(eq(receipts.donationId, donationId));
    expect(receipt?.voidedAt).toBeInstanceOf(Date);
    expect((await t.db.select({ kind: mailOutbox.kind }).from(mailOutbox)).map((row) => row.kind).sort()).toEqual(['receipt', 'receipt_void']);
    const audit = await t.db.select().from(adminAuditLog).where(and(eq(adminAuditLog.subjectId, donationId), eq(adminAuditLog.action, 'donation.offline_voided')));
    expect(audit).toEqual([expect.objectContaining({ details: expect.objectContaining({ reason: 'Cheque bounced' }) })]);
    expect((await voidGift(donationId)).statusCode).toBe(409);
  });

  it('voids once when two voids arrive at once', async () => {
    const { donationId } = (await record(gift())).json<{ donationId: string }>();
    const answers = await Promise.all([voidGift(donationId), voidGift(donationId)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 409]);
    const audit = await t.db.select().from(adminAuditLog).where(and(eq(adminAuditLog.subjectId, donationId), eq(adminAuditLog.action, 'donation.offline_voided')));
    expect(audit).toHaveLength(1);
  });

  it('cancels a receipt still waiting and tells the donor nothing; a site gift cannot be voided', async () => {
    const { donationId } = (await record(gift())).json<{ donationId: string }>();
    expect((await voidGift(donationId, 'Amount mistyped')).json()).toMatchObject({ donorNotified: false });
    expect(await t.db.select({ kind: mailOutbox.kind, status: mailOutbox.status }).from(mailOutbox)).toEqual([{ kind: 'receipt', status: 'cancelled' }]);
    await t.postDonation(validSubmission({ amount: 25 }));
    const [site] = await t.db.select({ id: donations.id }).from(donations).where(eq(donations.paymentMethod, 'card'));
    expect((await voidGift(site?.id ?? '')).statusCode).toBe(409);
  });
});

/** A CSV of `count` valid rows (distinct donors), with `bad` rows replaced by what they hold. */
function csvOf(count: number, bad: Record<number, Partial<Record<(typeof OFFLINE_CSV_COLUMNS)[number], string>>> = {}): string {
  const lines = [OFFLINE_CSV_COLUMNS.join(',')];
  for (let row = 1; row <= count; row += 1) {
    const cells: Record<string, string> = {
      received_on: daysAgo(3),
      method: row % 2 === 0 ? 'cash' : 'bank transfer',
      reference: `R${row}`,
      amount: `${10 + row}.50`,
      donor_name: `Donor ${row}`,
      donor_email: row % 3 === 0 ? '' : `donor${row}@example.org`,
      cause: 'research-science',
      send_receipt: 'no',
      ...bad[row],
    };
    lines.push(OFFLINE_CSV_COLUMNS.map((column) => cells[column] ?? '').join(','));
  }
  return `${lines.join('\n')}\n`;
}

describe('importing a CSV', () => {
  it('refuses a file with two bad rows whole, naming both; records it once fixed; records nothing the second time', async () => {
    const refused = await importCsv(csvOf(50, { 7: { amount: 'ten' }, 31: { received_on: daysAgo(-2) } }), true);
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json<{ errors: unknown[] }>().errors).toEqual([
      { row: 7, column: 'amount', message: expect.any(String) },
      { row: 31, column: 'received_on', message: 'The date received cannot be in the future' },
    ]);
    expect(await countRows()).toEqual({ donations: 0, offline: 0 });

    const checked = await importCsv(csvOf(50), false);
    expect(checked.statusCode, checked.body).toBe(200);
    expect(checked.json()).toEqual({ rows: 50, toRecord: 50, alreadyRecorded: 0 });
    expect(await countRows()).toEqual({ donations: 0, offline: 0 });

    const recorded = await importCsv(csvOf(50), true);
    expect(recorded.statusCode, recorded.body).toBe(201);
    expect(recorded.json()).toEqual({ rows: 50, recorded: 50, alreadyRecorded: 0 });
    expect(await stats()).toMatchObject({ donationCount: 50 });

    const again = await importCsv(csvOf(50), true);
    expect(again.json()).toEqual({ rows: 50, recorded: 0, alreadyRecorded: 50 });
    expect(await countRows()).toEqual({ donations: 50, offline: 50 });
  });

  it('refuses control characters, over-long values and a decimal comma, naming each row and column, writing nothing', async () => {
    const auditBefore = await auditCount('donation.offline_imported');
    const refused = await importCsv(
      csvOf(6, {
        2: { donor_name: 'Jane\u0000Doe' },
        3: { note: 'Paid \u202Eat the office' },
        4: { reference: 'R'.repeat(101) },
        5: { amount: '"200,50"' },
        6: { city: 'Hilo\u0007' },
      }),
      true,
    );
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.json<{ code: string; errors: unknown[] }>()).toMatchObject({
      code: 'import_refused',
      errors: [
        { row: 2, column: 'donor_name', message: UNSUPPORTED_CHARACTERS_MESSAGE },
        { row: 3, column: 'note', message: UNSUPPORTED_CHARACTERS_MESSAGE },
        { row: 4, column: 'reference', message: 'Reference must be at most 100 characters' },
        { row: 5, column: 'amount', message: 'Write the amount in dollars, e.g. 200 or 200.00' },
        { row: 6, column: 'city', message: UNSUPPORTED_CHARACTERS_MESSAGE },
      ],
    });
    // Checking only answers the same.
    expect((await importCsv(csvOf(2, { 1: { donor_name: 'A\u0000B' } }), false)).json()).toMatchObject({ errors: [{ row: 1, column: 'donor_name' }] });
    expect(await countRows()).toEqual({ donations: 0, offline: 0 });
    expect(await auditCount('donation.offline_imported')).toBe(auditBefore);
  });

  it('records the dedication columns as the donation form does, in its words too', async () => {
    const recorded = await importCsv(
      csvOf(3, { 1: { dedication_type: 'memory', honoree_name: 'Grandma Lu' }, 2: { dedication_type: 'In honour of', honoree_name: 'Coach Ray' } }),
      true,
    );
    expect(recorded.statusCode, recorded.body).toBe(201);
    const rows = await t.db.select({ name: donations.donorName, type: donations.tributeType, honoree: donations.tributeHonoreeName, notify: donations.tributeNotifyEmail }).from(donations);
    expect(rows.sort((a, b) => a.name.localeCompare(b.name))).toEqual([
      { name: 'Donor 1', type: 'memory', honoree: 'Grandma Lu', notify: null },
      { name: 'Donor 2', type: 'honor', honoree: 'Coach Ray', notify: null },
      { name: 'Donor 3', type: null, honoree: null, notify: null },
    ]);
    const halfDone = await importCsv(csvOf(2, { 1: { dedication_type: 'memory' }, 2: { honoree_name: 'Coach Ray' } }), false);
    expect(halfDone.json<{ errors: unknown[] }>().errors).toEqual([
      { row: 1, column: 'honoree_name', message: "Honoree's name is required" },
      { row: 2, column: 'dedication_type', message: expect.any(String) },
    ]);
  });

  it('reads a spreadsheet’s file: a byte-order mark, CRLF, semicolons and empty rows', async () => {
    const excel = `\uFEFF${csvOf(3).replaceAll(',', ';').replaceAll('\n', '\r\n')}${';'.repeat(16)}\r\n\r\n`;
    const recorded = await importCsv(excel, true);
    expect(recorded.statusCode, recorded.body).toBe(201);
    expect(recorded.json()).toEqual({ rows: 3, recorded: 3, alreadyRecorded: 0 });
    expect(await stats()).toMatchObject({ totalRaised: 37.5, donationCount: 3 });
    // The same gifts in a comma file with LF are the same rows: nothing more.
    expect((await importCsv(csvOf(3), true)).json()).toEqual({ rows: 3, recorded: 0, alreadyRecorded: 3 });
  });

  it('records the same file sent twice at once once', async () => {
    const answers = await Promise.all([importCsv(csvOf(50), true), importCsv(csvOf(50), true)]);
    expect(answers.map((answer) => answer.statusCode), answers.map((answer) => answer.body).join(' ')).toEqual([201, 201]);
    expect(answers.map((answer) => answer.json<{ recorded: number }>().recorded).sort((a, b) => a - b)).toEqual([0, 50]);
    expect(await countRows()).toEqual({ donations: 50, offline: 50 });
    expect(await t.db.select().from(receipts)).toHaveLength(50);
  });

  it('numbers the file’s receipts in one sequence with the site’s gifts, in the file’s order', async () => {
    await t.postDonation(validSubmission({ amount: 25 }));
    expect((await importCsv(csvOf(3), true)).statusCode).toBe(201);
    await t.postDonation(validSubmission({ amount: 30 }));
    const rows = await t.db
      .select({ sequence: receipts.sequence, name: donations.donorName, method: donations.paymentMethod })
      .from(receipts)
      .innerJoin(donations, eq(donations.id, receipts.donationId))
      .orderBy(receipts.sequence);
    expect(rows).toEqual([
      { sequence: 1, name: 'Ana Reef', method: 'card' },
      { sequence: 2, name: 'Donor 1', method: 'bank_transfer' },
      { sequence: 3, name: 'Donor 2', method: 'cash' },
      { sequence: 4, name: 'Donor 3', method: 'bank_transfer' },
      { sequence: 5, name: 'Ana Reef', method: 'card' },
    ]);
  });

  it('names an unknown campaign and an unknown column', async () => {
    const campaign = await importCsv(csvOf(2, { 2: { campaign: 'no-such-campaign' } }), true);
    expect(campaign.json<{ errors: unknown[] }>().errors).toEqual([{ row: 2, column: 'campaign', message: 'No campaign is named no-such-campaign' }]);
    const column = await importCsv('received_on,method,amount,donor_name,cause,colour\n', true);
    expect(column.json<{ errors: unknown[] }>().errors).toContainEqual({ row: 0, column: 'colour', message: expect.any(String) });
    expect(await countRows()).toEqual({ donations: 0, offline: 0 });
  });
});

describe('exports', () => {
  it('carry the payment method in the standard file and in each CRM’s own words', async () => {
    await record(gift());
    const standard = await t.app.inject({ method: 'GET', url: `${STAFF_API.donationsExport}?format=standard`, headers: finance.headers });
    const [header, line] = standard.body.trim().split('\n');
    const method = header?.split(',').indexOf('payment_method') ?? -1;
    expect(method).toBeGreaterThan(-1);
    expect(line?.split(',')[method]).toBe('cheque');
    const npsp = await t.app.inject({ method: 'GET', url: `${STAFF_API.donationsExport}?format=npsp`, headers: finance.headers });
    expect(npsp.body).toContain('Check');
  });
});

describe('the operator’s route', () => {
  const post = (body: unknown, key: string | null, token = ADMIN_TOKEN) =>
    t.app.inject({ method: 'POST', url: ADMIN_OFFLINE_GIFTS_PATH, headers: { authorization: `Bearer ${token}`, ...(key === null ? {} : { 'idempotency-key': key }) }, payload: body as object });

  it('records with the page’s body, once per Idempotency-Key, and refuses without the token', async () => {
    const key = randomUUID();
    const first = await post(gift(), key);
    expect(first.statusCode, first.body).toBe(201);
    const again = await post(gift(), key);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect((await post(gift(), null)).statusCode).toBe(400);
    expect((await post(gift(), randomUUID(), 'wrong-token-wrong-token-wrong-token-00')).statusCode).toBe(401);
    expect(await countRows()).toEqual({ donations: 1, offline: 1 });
  });
});
