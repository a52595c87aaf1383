import { sql } from 'drizzle-orm';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STAFF_API } from '../../../shared/staff/paths';
import { STAFF_AMOUNT_MESSAGE, STAFF_DATE_MESSAGE, StaffDonationListAnswerSchema, type StaffDonationListAnswer } from '../../../shared/staff/donations-api';
import { adminAuditLog, donations, receipts, type NewDonationRow } from '../../db/schema';
import { signInStaffForTest, type StaffTestSession } from '../identity/testing/staff-session';
import { createTestApp, type TestApp } from '../../testing/test-app';

/**
 * The staff's list of donations through the real app (issue #21, "Donations"; the search of issue #36): every filter and search form, sorting,
 * pagination, the totals of the filtered set with refunds and disputes, 400 on bad filters, and the export of exactly
 * the filtered set. The staff's days are those of TZ (America/Belize here, UTC-6, as the digest's). Runs on the
 * embedded PostgreSQL test server, and on DATABASE_URL's when it is set.
 */

let t: TestApp;
let viewer: StaffTestSession;
let finance: StaffTestSession;

/** What a test gift is: its donation's columns, and how it ended. */
type Gift = Partial<NewDonationRow> & {
  name: string;
  email: string;
  amountCents: number;
  createdAt: Date;
  outcome: 'succeeded' | 'failed' | 'pending' | 'refunded' | 'partially_refunded' | 'disputed';
  refundedCents?: number;
  receipt?: string;
};

/** Writes `gift` as the ledger leaves it (inserted pending, then moved) with its receipt; returns its id. */
async function addGift({ name, email, outcome, receipt, refundedCents, ...columns }: Gift): Promise<string> {
  const [row] = await t.db
    .insert(donations)
    .values({
      frequency: 'one-time',
      cause: 'research-science',
      gateway: 'test',
      isTestPayment: true,
      ...columns,
      donorName: name,
      donorEmail: email,
      updatedAt: columns.createdAt,
    })
    .returning({ id: donations.id });
  const id = row!.id;
  if (outcome === 'pending') return id;
  if (outcome === 'failed') {
    await t.db.execute(sql`UPDATE donations SET status = 'failed', decline_code = 'card_declined' WHERE id = ${id}`);
    return id;
  }
  await t.db.execute(
    sql`UPDATE donations SET status = 'succeeded', card_brand = 'visa', card_last4 = '4242', gateway_transaction_id = ${columns.gatewayTransactionId ?? `ch_test_${id.replaceAll('-', '')}`} WHERE id = ${id}`,
  );
  if (receipt) {
    const [year, sequence] = receipt.split('-');
    await t.db.insert(receipts).values({ number: receipt, donationId: id, year: Number(year), sequence: Number(sequence), issuedAt: columns.createdAt });
  }
  if (outcome === 'refunded') await t.db.execute(sql`UPDATE donations SET refunded_cents = amount_cents, status = 'refunded' WHERE id = ${id}`);
  if (outcome === 'partially_refunded') await t.db.execute(sql`UPDATE donations SET refunded_cents = ${refundedCents ?? 100} WHERE id = ${id}`);
  if (outcome === 'disputed') await t.db.execute(sql`UPDATE donations SET status = 'disputed', dispute_status = 'needs_response' WHERE id = ${id}`);
  return id;
}

/** GET the list (or another staff path) as `session` with `query`. */
function get(query: Record<string, string>, session: StaffTestSession | null = viewer, path: string = STAFF_API.donations) {
  return t.app.inject({ method: 'GET', url: `${path}?${new URLSearchParams(query).toString()}`, headers: session?.headers ?? {} });
}

/** The list's answer to `query`, checked 200 and against its schema. */
async function list(query: Record<string, string> = {}): Promise<StaffDonationListAnswer> {
  const response = await get(query);
  expect(response.statusCode, response.body).toBe(200);
  return StaffDonationListAnswerSchema.parse(response.json());
}

/** The donor names of `answer`'s rows, in order. */
const names = (answer: StaffDonationListAnswer) => answer.rows.map((row) => row.donorName);

const ids: Record<string, string> = {};
beforeAll(async () => {
  t = await createTestApp({ env: { TZ: 'America/Belize' } });
  viewer = await signInStaffForTest(t.app, t.db, { role: 'viewer' });
  finance = await signInStaffForTest(t.app, t.db, { role: 'finance' });
  // Belize is UTC-6 all year: 2026-03-10T03:00Z is still 9 March there.
  ids.maria = await addGift({ name: 'María García', email: 'mgarcia@reef.example', amountCents: 2500, createdAt: new Date('2026-03-10T03:00:00Z'), outcome: 'succeeded', receipt: '2026-000001', cause: 'marine-protected-areas', gatewayTransactionId: 'ch_test_maria', paymentIntentId: 'pi_test_maria', gateway: 'stripe', isTestPayment: false });
  ids.mario = await addGift({ name: 'Mario Rossi', email: 'mario.rossi@example.org', amountCents: 10000, createdAt: new Date('2026-03-10T12:00:00Z'), outcome: 'refunded', receipt: '2026-000002', frequency: 'monthly' });
  ids.ana = await addGift({ name: 'Ana Reef', email: 'ana@example.org', amountCents: 5000, createdAt: new Date('2026-03-11T12:00:00Z'), outcome: 'partially_refunded', refundedCents: 1250, receipt: '2026-000003', frequency: 'yearly', cause: 'education-outreach', campaign: 'spring-appeal', feeCoveredCents: 181 });
  ids.omar = await addGift({ name: 'Omar Martin', email: 'omar@example.net', amountCents: 7500, createdAt: new Date('2026-03-12T12:00:00Z'), outcome: 'disputed', receipt: '2026-000004' });
  ids.lena = await addGift({ name: 'Lena Smart', email: 'lena@example.org', amountCents: 1000, createdAt: new Date('2026-03-13T12:00:00Z'), outcome: 'failed' });
  ids.zoe = await addGift({ name: 'Zoe Amar', email: 'zoe@example.org', amountCents: 1500, createdAt: new Date('2026-03-14T12:00:00Z'), outcome: 'pending', gateway: 'stripe', isTestPayment: false });
});
afterAll(async () => {
  await t?.close();
});

describe('GET /api/staff/donations', () => {
  it('answers a page of rows, newest first, with brand and last4, the derived status and the totals of every row', async () => {
    const answer = await list();
    expect(names(answer)).toEqual(['Zoe Amar', 'Lena Smart', 'Omar Martin', 'Ana Reef', 'Mario Rossi', 'María García']);
    expect(answer.rows.map((row) => row.status)).toEqual(['pending', 'failed', 'disputed', 'partially_refunded', 'refunded', 'succeeded']);
    expect(answer.rows.at(-1)).toMatchObject({ id: ids.maria, receiptNumber: '2026-000001', cardBrand: 'visa', last4: '4242', mode: 'live', gateway: 'stripe', amountCents: 2500, refundedCents: 0 });
    expect(answer).toMatchObject({ page: 1, pageSize: 25 });
    // Gross: the four charged gifts (not the pending and declined attempts); refunds and the dispute leave the net.
    expect(answer.totals).toEqual({ count: 6, grossCents: 2500 + 10000 + 5000 + 7500, refundedCents: 10000 + 1250, disputedCents: 7500, netCents: 2500 + 3750 });
    const { grossCents, refundedCents, disputedCents, netCents } = answer.totals;
    expect(grossCents - refundedCents - disputedCents).toBe(netCents);
  });

  it('filters by each status as derived from the ledger, with totals of the filtered set', async () => {
    const byStatus = async (status: string) => names(await list({ status }));
    expect(await byStatus('succeeded')).toEqual(['María García']);
    expect(await byStatus('refunded')).toEqual(['Mario Rossi']);
    expect(await byStatus('partially_refunded')).toEqual(['Ana Reef']);
    expect(await byStatus('disputed')).toEqual(['Omar Martin']);
    expect(await byStatus('failed')).toEqual(['Lena Smart']);
    expect(await byStatus('pending')).toEqual(['Zoe Amar']);
    expect((await list({ status: 'partially_refunded' })).totals).toEqual({ count: 1, grossCents: 5000, refundedCents: 1250, disputedCents: 0, netCents: 3750 });
  });

  it('filters by days in the staff time zone, both ends included', async () => {
    // 2026-03-10T03:00Z is 9 March in Belize: not in 10 March there.
    expect(names(await list({ from: '2026-03-10', to: '2026-03-10' }))).toEqual(['Mario Rossi']);
    expect(names(await list({ from: '2026-03-09', to: '2026-03-09' }))).toEqual(['María García']);
    expect(names(await list({ from: '2026-03-12' }))).toEqual(['Zoe Amar', 'Lena Smart', 'Omar Martin']);
    expect(names(await list({ to: '2026-03-10' }))).toEqual(['Mario Rossi', 'María García']);
    expect(names(await list({ status: 'refunded', from: '2026-03-01', to: '2026-03-31' }))).toEqual(['Mario Rossi']);
  });

  it('filters by frequency, cause, gateway, test or live, and an amount range in dollars', async () => {
    expect(names(await list({ frequency: 'monthly' }))).toEqual(['Mario Rossi']);
    expect(names(await list({ frequency: 'yearly' }))).toEqual(['Ana Reef']);
    expect(names(await list({ cause: 'marine-protected-areas' }))).toEqual(['María García']);
    expect(names(await list({ gateway: 'stripe' }))).toEqual(['Zoe Amar', 'María García']);
    expect(names(await list({ mode: 'live' }))).toEqual(['Zoe Amar', 'María García']);
    expect(names(await list({ mode: 'test', gateway: 'test' }))).toEqual(['Lena Smart', 'Omar Martin', 'Ana Reef', 'Mario Rossi']);
    expect(names(await list({ amountMin: '25', amountMax: '75.00' }))).toEqual(['Omar Martin', 'Ana Reef', 'María García']);
    expect(names(await list({ amountMin: '10.01' }))).toEqual(['Zoe Amar', 'Omar Martin', 'Ana Reef', 'Mario Rossi', 'María García']);
  });

  it('filters by the campaign of the donor\'s link, in any case, and shows each row\'s campaign and covered fee (issue #23)', async () => {
    const answer = await list({ campaign: 'Spring-Appeal' });
    expect(names(answer)).toEqual(['Ana Reef']);
    expect(answer.rows[0]).toMatchObject({ campaign: 'spring-appeal', feeCoveredCents: 181, amountCents: 5000 });
    expect(names(await list({ campaign: 'autumn-gala' }))).toEqual([]);
    expect((await list()).rows.find((row) => row.donorName === 'María García')).toMatchObject({ campaign: null, feeCoveredCents: 0 });
    const refused = await get({ campaign: 'spring appeal' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ fieldErrors: { campaign: expect.any(String) } });
  });

  it('searches any part of a name or e-mail in any case and accent, any part of a receipt number, gateway ids exactly (issue #36)', async () => {
    // "mar" is in María, Mario, Martin, Omar, Amar and Smart: every one of them (issue #36: any part, not only a word's start).
    expect(names(await list({ q: 'mar' })).sort()).toEqual(['Lena Smart', 'Mario Rossi', 'María García', 'Omar Martin', 'Zoe Amar']);
    // "MARÍA" is María's whole name; Mario is one letter away (a typo tolerated), a weaker match listed after her.
    expect(names(await list({ q: 'MARÍA' }))[0]).toBe('María García');
    expect(names(await list({ q: 'gar' }))).toEqual(['María García']);
    expect(names(await list({ q: 'mar gar' }))).toEqual(['María García']);
    expect(names(await list({ q: 'rossi' }))).toEqual(['Mario Rossi']);
    expect(names(await list({ q: 'mgarc' }))).toEqual(['María García']);
    expect(names(await list({ q: 'reef.exam' }))).toEqual(['María García']);
    expect(names(await list({ q: 'mgarcia@reef.example' }))).toEqual(['María García']);
    expect(names(await list({ q: 'arcia' }))).toEqual(['María García']);
    expect(names(await list({ q: '2026-000003' }))).toEqual(['Ana Reef']);
    expect(names(await list({ q: '2026-00000' })).sort()).toEqual(['Ana Reef', 'Mario Rossi', 'María García', 'Omar Martin']);
    expect(names(await list({ q: 'ch_test_maria' }))).toEqual(['María García']);
    expect(names(await list({ q: 'pi_test_maria' }))).toEqual(['María García']);
    expect(names(await list({ q: 'ch_test_mari' }))).toEqual([]);
    expect(names(await list({ q: 'mar', status: 'refunded' }))).toEqual(['Mario Rossi']);
    expect((await list({ q: 'mar' })).totals.count).toBe(5);
  });

  it('sorts by date or amount either way and pages through the set without overlap', async () => {
    expect(names(await list({ sort: 'date', order: 'asc' }))[0]).toBe('María García');
    expect(names(await list({ sort: 'amount', order: 'desc' }))).toEqual(['Mario Rossi', 'Omar Martin', 'Ana Reef', 'María García', 'Zoe Amar', 'Lena Smart']);
    expect(names(await list({ sort: 'amount', order: 'asc' }))[0]).toBe('Lena Smart');
    const pages = await Promise.all([1, 2, 3].map((page) => list({ sort: 'amount', pageSize: '2', page: String(page) })));
    expect(pages.map(names)).toEqual([['Mario Rossi', 'Omar Martin'], ['Ana Reef', 'María García'], ['Zoe Amar', 'Lena Smart']]);
    expect(pages.every((page) => page.totals.count === 6 && page.pageSize === 2)).toBe(true);
    expect((await list({ page: '4', pageSize: '2' })).rows).toEqual([]);
  });

  it('refuses a bad filter with 400 and a message naming the field', async () => {
    const cases: Array<[Record<string, string>, string, string | RegExp]> = [
      [{ status: 'lost' }, 'status', /Choose one of succeeded, failed, pending, refunded, partially_refunded, disputed/],
      [{ from: '2026-02-30' }, 'from', STAFF_DATE_MESSAGE],
      [{ to: '10/03/2026' }, 'to', STAFF_DATE_MESSAGE],
      [{ from: '2026-03-12', to: '2026-03-10' }, 'to', /must not end before it starts/],
      [{ amountMin: '12.345' }, 'amountMin', STAFF_AMOUNT_MESSAGE],
      [{ amountMax: '-5' }, 'amountMax', STAFF_AMOUNT_MESSAGE],
      [{ amountMin: '50', amountMax: '10' }, 'amountMax', /must not be below/],
      [{ cause: 'whales' }, 'cause', /Choose one of/],
      [{ gateway: 'paypal' }, 'gateway', /Choose one of test, stripe/],
      [{ mode: 'sandbox' }, 'mode', /Choose one of test, live/],
      [{ frequency: 'weekly' }, 'frequency', /Choose one of/],
      [{ sort: 'name' }, 'sort', /Choose one of date, amount/],
      [{ page: '0' }, 'page', /page is a whole number/],
      [{ pageSize: '101' }, 'pageSize', /page size is a whole number from 1 to 100/],
      [{ q: 'x'.repeat(201) }, 'q', /at most 200 characters/],
    ];
    for (const [query, field, message] of cases) {
      const response = await get(query);
      expect(response.statusCode, JSON.stringify(query)).toBe(400);
      const body = response.json() as { success: boolean; fieldErrors?: Record<string, string> };
      expect(body.success).toBe(false);
      expect(body.fieldErrors?.[field], JSON.stringify(query)).toMatch(message);
    }
    const unknown = await get({ colour: 'blue' });
    expect(unknown.statusCode).toBe(400);
  });

  it('answers 401 without a session, and no-store', async () => {
    const response = await get({}, null);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ success: false, code: 'staff_unauthenticated' });
    expect((await get({})).headers['cache-control']).toBe('no-store');
  });
});

describe('GET /api/staff/donations/export', () => {
  /** The CSV of `query` as finance, parsed into records by header. */
  async function exported(query: Record<string, string>): Promise<Array<Record<string, string>>> {
    const response = await get(query, finance, STAFF_API.donationsExport);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8; header=present');
    // Issue #36: the unfiltered list's file is named "all", a narrowed one "filtered".
    const scope = Object.keys(query).some((key) => key !== 'format') ? 'filtered' : 'all';
    expect(response.headers['content-disposition']).toMatch(new RegExp(`^attachment; filename="donations-[a-z]+-${scope}-\\d{4}-\\d{2}-\\d{2}\\.csv"$`));
    return parse(response.body, { columns: true }) as Array<Record<string, string>>;
  }

  it('writes exactly the receipted gifts of the filtered set, in the standard format and the CRM formats', async () => {
    const filters: Array<Record<string, string>> = [{}, { q: 'mar' }, { status: 'refunded' }, { from: '2026-03-11', to: '2026-03-31' }, { amountMin: '50' }, { cause: 'marine-protected-areas' }];
    for (const filter of filters) {
      const listed = (await list({ ...filter, pageSize: '100' })).rows.filter((row) => row.receiptNumber !== null);
      const rows = await exported({ ...filter, format: 'standard' });
      expect(rows.map((row) => row.donation_id).sort(), JSON.stringify(filter)).toEqual(listed.map((row) => row.id).sort());
    }
    // A CRM file holds the kept gifts of the set, at the amount kept: María's whole gift and what is left of Ana's.
    const npsp = await exported({ from: '2026-03-01', format: 'npsp' });
    expect(npsp.map((row) => [row.npsp__Contact1_Lastname__c, row.npsp__Donation_Amount__c])).toEqual([['García', '25.00'], ['Reef', '37.50']]);
    for (const format of ['bloomerang', 'lgl', 'civicrm']) expect(await exported({ q: 'ana', format })).toHaveLength(1);
  });

  it('is audited with the staff member, the format and the filters', async () => {
    await exported({ status: 'refunded', format: 'lgl' });
    const entries = await t.db.select().from(adminAuditLog).where(sql`${adminAuditLog.action} = 'donation.export'`);
    expect(entries.at(-1)).toMatchObject({ actorType: 'staff', actorStaffId: finance.staffMember.id, actorEmail: finance.staffMember.email, details: { format: 'lgl', filters: { status: 'refunded' } } });
  });

  it('is refused to a viewer (403), without a session (401), and with a bad format or filter (400)', async () => {
    expect((await get({ format: 'standard' }, viewer, STAFF_API.donationsExport)).statusCode).toBe(403);
    expect((await get({ format: 'standard' }, null, STAFF_API.donationsExport)).statusCode).toBe(401);
    const badFormat = await get({ format: 'xlsx' }, finance, STAFF_API.donationsExport);
    expect(badFormat.statusCode).toBe(400);
    expect(badFormat.json()).toMatchObject({ fieldErrors: { format: 'Choose one of standard, npsp, bloomerang, lgl, civicrm' } });
    expect((await get({ format: 'npsp', status: 'lost' }, finance, STAFF_API.donationsExport)).statusCode).toBe(400);
  });
});
