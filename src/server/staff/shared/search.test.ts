import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditPageSchema } from '../../../shared/staff/identity-api';
import { STAFF_API } from '../../../shared/staff/paths';
import { StaffDonationListAnswerSchema, type StaffDonationListAnswer } from '../../../shared/staff/donations-api';
import { StaffDonorListAnswerSchema } from '../../../shared/staff/donors-api';
import { donations, receipts } from '../../db/schema';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { recordStaffAction } from '../identity/audit-record';
import { signInStaffForTest, type StaffTestSession } from '../identity/testing/staff-session';

/**
 * The staff's search through the real app (issue #36, part 2 "Search finds what staff type"; decision 0111): any part
 * of a name, e-mail or receipt number, case and accents ignored, a typo tolerated, best matches first, an empty result,
 * LIKE's own characters taken literally and bad input refused; the donors list finds by the same search; the audit's
 * actor and action filters take a part of an address and an action family. On the embedded PostgreSQL test server,
 * and on DATABASE_URL's when it is set (CI's PostgreSQL 15).
 */

let t: TestApp;
let viewer: StaffTestSession;
let admin: StaffTestSession;

/** Writes a charged gift of `name` <`email`> at `createdAt` with receipt `receipt`. */
async function addGift(name: string, email: string, createdAt: string, receipt: string): Promise<void> {
  const [row] = await t.db
    .insert(donations)
    .values({ frequency: 'one-time', cause: 'research-science', gateway: 'test', isTestPayment: true, amountCents: 2500, donorName: name, donorEmail: email, createdAt: new Date(createdAt), updatedAt: new Date(createdAt) })
    .returning({ id: donations.id });
  const id = row!.id;
  await t.db.execute(sql`UPDATE donations SET status = 'succeeded', card_brand = 'visa', card_last4 = '4242', gateway_transaction_id = ${`ch_test_${id.replaceAll('-', '')}`} WHERE id = ${id}`);
  const [year, sequence] = receipt.split('-');
  await t.db.insert(receipts).values({ number: receipt, donationId: id, year: Number(year), sequence: Number(sequence), issuedAt: new Date(createdAt) });
}

/** GET `path` with `query` as `session`. */
function get(path: string, query: Record<string, string>, session: StaffTestSession = viewer) {
  return t.app.inject({ method: 'GET', url: `${path}?${new URLSearchParams(query).toString()}`, headers: session.headers });
}

/** The donations list's answer to the search `q`, checked 200 and against its schema. */
async function search(q: string): Promise<StaffDonationListAnswer> {
  const response = await get(STAFF_API.donations, { q });
  expect(response.statusCode, response.body).toBe(200);
  return StaffDonationListAnswerSchema.parse(response.json());
}

/** The donor names found by `q`, in the list's order. */
const found = async (q: string) => (await search(q)).rows.map((row) => row.donorName);

beforeAll(async () => {
  t = await createTestApp();
  viewer = await signInStaffForTest(t.app, t.db, { role: 'viewer' });
  admin = await signInStaffForTest(t.app, t.db, { role: 'admin', email: 'Ada.Admin@reef.example' });
  await addGift('Grace Okonkwo', 'grace.okonkwo@example.org', '2026-03-01T12:00:00Z', '2026-000101');
  await addGift('Lucía Méndez', 'lucia@example.net', '2026-03-02T12:00:00Z', '2026-000102');
  await addGift('Margaret Smith', 'margaret.smith@example.com', '2026-03-03T12:00:00Z', '2026-000103');
  // Newer than Margaret, and a weaker match of "smith" (a part of a longer word): listed after her when searched.
  await addGift('Anna Smithers', 'anna@example.com', '2026-03-04T12:00:00Z', '2026-000104');
  await addGift('Mark Margolis', 'mark@example.com', '2026-03-05T12:00:00Z', '2026-000105');
});
afterAll(async () => {
  await t?.close();
});

describe('the staff search (GET /api/staff/donations?q=)', () => {
  it('finds any part of a name or e-mail, in any case', async () => {
    expect(await found('konkwo')).toEqual(['Grace Okonkwo']);
    expect(await found('ONKW')).toEqual(['Grace Okonkwo']);
    expect(await found('example.net')).toEqual(['Lucía Méndez']);
    expect(await found('grace okon')).toEqual(['Grace Okonkwo']);
  });

  it('ignores accents on either side', async () => {
    expect(await found('Mendez')).toEqual(['Lucía Méndez']);
    expect(await found('lucia méndez')).toEqual(['Lucía Méndez']);
    expect(await found('LÚCÍA')).toEqual(['Lucía Méndez']);
  });

  it('tolerates a typo, without finding a merely similar name', async () => {
    expect(await found('Margret')).toEqual(['Margaret Smith']);
    expect(await found('Mendes')).toEqual(['Lucía Méndez']);
    expect(await found('margret smith')).toEqual(['Margaret Smith']);
  });

  it('finds any part of a receipt number, and only its gift', async () => {
    expect(await found('000103')).toEqual(['Margaret Smith']);
    expect(await found('2026-000102')).toEqual(['Lucía Méndez']);
    expect((await found('2026-0001')).sort()).toEqual(['Anna Smithers', 'Grace Okonkwo', 'Lucía Méndez', 'Margaret Smith', 'Mark Margolis']);
  });

  it('lists the best matches first, then the newest', async () => {
    // Both contain "smith"; Margaret's is a whole word, Anna's a part of one: Margaret first although Anna's gift is newer.
    expect(await found('smith')).toEqual(['Margaret Smith', 'Anna Smithers']);
    // Without a search, the newest first as before.
    expect((await search('')).rows.map((row) => row.donorName).slice(0, 2)).toEqual(['Mark Margolis', 'Anna Smithers']);
  });

  it('answers an empty page and zero totals when nothing matches, and takes LIKE characters literally', async () => {
    const none = await search('zzqxv');
    expect(none.rows).toEqual([]);
    expect(none.totals.count).toBe(0);
    expect(await found('%')).toEqual([]);
    expect(await found('_')).toEqual([]);
    expect(await found('gr_ce')).toEqual([]);
  });

  it('refuses bad input with 400 and the field named, never 5xx', async () => {
    for (const q of ['x'.repeat(201), 'a\u0000b', 'a\u202Eb']) {
      const response = await get(STAFF_API.donations, { q });
      expect(response.statusCode, JSON.stringify(q)).toBe(400);
      expect(response.json()).toMatchObject({ success: false, fieldErrors: { q: expect.any(String) } });
    }
  });

  it('finds donors by the same search (GET /api/staff/donors?q=)', async () => {
    const donors = async (q: string) => StaffDonorListAnswerSchema.parse((await get(STAFF_API.donors, { q })).json()).rows.map((row) => row.email);
    expect(await donors('konkwo')).toEqual(['grace.okonkwo@example.org']);
    expect(await donors('Mendez')).toEqual(['lucia@example.net']);
    expect(await donors('smith')).toEqual(['margaret.smith@example.com', 'anna@example.com']);
  });
});

describe('the audit filters (GET /api/staff/audit)', () => {
  it('take a part of the actor address and an action family, in any case', async () => {
    const member = { id: admin.staffMember.id, email: admin.staffMember.email };
    for (const action of ['donation.refund', 'plan.cancel', 'plan.change_amount']) await recordStaffAction(t.db, { staffMember: member, requestId: null, action, subjectType: 'x', subjectId: action });
    const audit = async (query: Record<string, string>) => AuditPageSchema.parse((await get(STAFF_API.audit, query, admin)).json()).rows.map((row) => row.action);
    expect(await audit({ actor: 'ada.admin@', action: 'REFUND' })).toEqual(['donation.refund']);
    expect((await audit({ actor: 'reef.EXAMPLE', action: 'plan.' })).sort()).toEqual(['plan.cancel', 'plan.change_amount']);
    expect(await audit({ actor: 'someone-else' })).toEqual([]);
    // LIKE's own characters are taken literally.
    expect(await audit({ action: '%' })).toEqual([]);
  });
});
