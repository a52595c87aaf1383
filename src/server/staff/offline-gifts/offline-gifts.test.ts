import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { API_PATHS } from '../../../shared/api';
import { OFFLINE_CSV_COLUMNS, type OfflineGiftRequest } from '../../../shared/offline-gifts';
import { STAFF_API, staffApiPath } from '../../../shared/staff/paths';
import { ADMIN_OFFLINE_GIFTS_PATH } from '../../admin/paths';
import { adminAuditLog, campaigns, donations, mailOutbox, offlineGifts, receipts } from '../../db/schema';
import { todayIn } from '../../offline-gifts/service';
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
let t: TestApp;
let viewer: StaffTestSession;
let finance: StaffTestSession;
beforeAll(async () => {
  t = await createTestApp({ env: { TZ, ADMIN_TOKEN, PUBLIC_URL: 'https://give.example.org' } });
  viewer = await signInStaffForTest(t.app, t.db, { role: 'viewer' });
  finance = await signInStaffForTest(t.app, t.db, { role: 'finance' });
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await t.reset();
  await t.db.delete(campaigns);
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

  it('refuses control characters and over-long values with 400, writing nothing', async () => {
    const hostile: OfflineGiftRequest[] = [
      gift({ donor: { name: 'Jane\u0000Doe' } }),
      gift({ reference: 'A\u202Egnp.exe' }),
      gift({ note: 'x'.repeat(1001) }),
      gift({ reference: '9'.repeat(101) }),
      gift({ donor: { name: 'J'.repeat(101) } }),
    ];
    for (const body of hostile) expect((await record(body)).statusCode).toBe(400);
    expect((await record({ ...gift(), extra: 'field' })).statusCode).toBe(400);
    expect(await countRows()).toEqual({ donations: 0, offline: 0 });
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

  it('lets a viewer read but not record', async () => {
    expect((await record(gift(), randomUUID(), viewer)).statusCode).toBe(403);
    expect(await countRows()).toEqual({ donations: 0, offline: 0 });
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
