import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CSRF_HEADER_NAME } from '../../../shared/api';
import { StaffDonorDetailSchema, StaffDonorListAnswerSchema, type StaffDonorRow } from '../../../shared/staff/donors-api';
import { STAFF_API, staffApiPath } from '../../../shared/staff/paths';
import { adminAuditLog, donations, donorTotals, mailOutbox } from '../../db/schema';
import { manualClock } from '../../platform/clock';
import { queueYearEndStatements } from '../../receipts/statements';
import { signInStaffForTest, type StaffTestSession } from '../identity/testing/staff-session';
import { startSmtpTestServer, type SmtpTestServer } from '../../testing/smtp-test-server';
import { createTestApp, validSubmission, type TestApp } from '../../testing/test-app';
import { donorKeyOf, donorKeySql } from '../shared/donor-key';
import { DONOR_AUDIT_ACTIONS, DONOR_SUBJECT } from './statement-resend';

/**
 * The staff donors API through the real app and database (issue #22, "Donors"): one donor per address compared
 * case-insensitively, a corrected address counting as the same donor; the totals net of full and partial refunds; this
 * calendar year in the staff's TZ against the lifetime; a donor's page with gifts, plans, receipts and statements; a
 * year's statement sent again (audited, delivered by the real SMTP test server); the roles; bad input.
 * The app's clock stands on 1 February of next year in America/Belize (UTC-6), so this year is the last finished one.
 */

/** The year the tests run in (the database's clock dates the receipts), and the app's clock: 1 February of the next. */
const YEAR = new Date().getUTCFullYear();
const NEXT = YEAR + 1;
const NOW = new Date(`${NEXT}-02-01T18:00:00Z`);
let t: TestApp;
let smtp: SmtpTestServer;
let viewer: StaffTestSession;
let finance: StaffTestSession;

beforeAll(async () => {
  smtp = await startSmtpTestServer();
  t = await createTestApp({ clock: manualClock(NOW), env: { SMTP_URL: smtp.url, TZ: 'America/Belize', PUBLIC_URL: 'http://localhost:3000', LOG_LEVEL: 'error' } });
  viewer = await signInStaffForTest(t.app, t.db, { role: 'viewer', now: NOW });
  finance = await signInStaffForTest(t.app, t.db, { role: 'finance', now: NOW });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

/** A succeeded donation made through the donor's API; resolves with its id. */
async function give(overrides: Parameters<typeof validSubmission>[0]): Promise<string> {
  const answer = await t.postDonation(validSubmission(overrides));
  expect(answer.statusCode, answer.body).toBe(200);
  const transactionId = answer.json<{ data: { transactionId: string } }>().data.transactionId;
  const [row] = await t.db.select({ id: donations.id }).from(donations).where(eq(donations.gatewayTransactionId, transactionId));
  return row!.id;
}

/** A staff request as `session` (null: a browser without a staff session, with the page's CSRF credentials). */
async function staff(method: 'GET' | 'POST', url: string, session: StaffTestSession | null, payload?: object, headers: Record<string, string> = {}) {
  const csrf = session ? undefined : await t.csrf();
  const sent = session ? session.headers : { cookie: csrf!.cookie, [CSRF_HEADER_NAME]: csrf!.token };
  return t.app.inject({ method, url, headers: { ...sent, ...headers }, ...(payload ? { payload } : {}) });
}

const listDonors = async (query: Record<string, string>, session: StaffTestSession = viewer) => {
  const answer = await staff('GET', `${STAFF_API.donors}?${new URLSearchParams(query).toString()}`, session);
  expect(answer.statusCode, answer.body).toBe(200);
  return StaffDonorListAnswerSchema.parse(answer.json());
};
const donorPage = async (key: string) => {
  const answer = await staff('GET', staffApiPath(STAFF_API.donor, key), viewer);
  expect(answer.statusCode, answer.body).toBe(200);
  return StaffDonorDetailSchema.parse(answer.json());
};
const refund = (id: string, body: object) =>
  staff('POST', staffApiPath(STAFF_API.donationRefunds, id), finance, body, { 'idempotency-key': randomUUID() });
const resendStatement = (key: string, body: object, session: StaffTestSession | null = finance) =>
  staff('POST', staffApiPath(STAFF_API.donorStatementResend, key), session, body);
/** Moves a donation's creation (and its receipt's issuance) to `at`: test data standing for a gift made then. */
const madeAt = (id: string, at: string) => t.db.update(donations).set({ createdAt: new Date(at) }).where(eq(donations.id, id));
/** A unique address of a test, `<name>-<uuid>@example.org`. */
const addressOf = (name: string) => `${name}-${randomUUID()}@example.org`;
/** The only row of a donors list answer. */
const onlyRow = (rows: StaffDonorRow[]) => {
  expect(rows).toHaveLength(1);
  return rows[0]!;
};

describe('the donor key', () => {
  it('is the same in JS and in PostgreSQL: SHA-256 of the address trimmed and lower-cased', async () => {
    const address = ' Ana.María@Example.ORG ';
    const result = (await t.db.execute(sql`SELECT ${sql.raw(donorKeySql('$$' + address + '$$'))} AS key`)) as unknown as { rows: { key: string }[] };
    expect(result.rows[0]?.key).toBe(donorKeyOf(address));
    expect(donorKeyOf(address)).toBe(donorKeyOf('ana.maría@example.org'));
  });
});

describe('GET /api/staff/donors', () => {
  it('groups gifts by address whatever its case, and a gift whose address was corrected joins the corrected donor', async () => {
    const address = addressOf('ana');
    const first = await give({ donorEmail: address.toUpperCase(), donorName: 'Ana Pérez', amount: 10 });
    await give({ donorEmail: address, donorName: 'Ana P.', amount: 20 });
    const typo = await give({ donorEmail: address.replace('@example.org', '@exmaple.org'), donorName: 'Ana Pérez', amount: 30 });
    await madeAt(first, `${YEAR - 1}-03-01T12:00:00Z`);
    // Before the correction, the mistyped address is a donor of its own.
    expect((await listDonors({ q: address })).rows.map((row) => row.giftCount)).toEqual([2]);
    const corrected = await staff('POST', staffApiPath(STAFF_API.donationEmail, typo), finance, { email: address, resend: false });
    expect(corrected.statusCode, corrected.body).toBe(200);

    const row = onlyRow((await listDonors({ q: address })).rows);
    expect(row).toMatchObject({ donorKey: donorKeyOf(address), email: address, giftCount: 3, lifetimeCents: 6000, activePlans: 0, firstGiftAt: `${YEAR - 1}-03-01T12:00:00.000Z` });
    expect(row.names.sort()).toEqual(['Ana P.', 'Ana Pérez']);
    // Searching by the name finds the donor too; the old address finds nothing.
    expect((await listDonors({ q: `Ana ${address.split('@')[0]!.slice(4, 12)}` })).rows.map((r) => r.donorKey)).toContain(row.donorKey);
    expect((await listDonors({ q: address.replace('@example.org', '@exmaple.org') })).rows).toEqual([]);
  });

  it('counts lifetime and this year net of full and partial refunds, this year being the calendar year in the staff TZ', async () => {
    const address = addressOf('net');
    const kept = await give({ donorEmail: address, amount: 25 });
    const partly = await give({ donorEmail: address, amount: 40 });
    const whole = await give({ donorEmail: address, amount: 10 });
    const newYearsEveInBelize = await give({ donorEmail: address, amount: 7 });
    expect((await refund(partly, { amountCents: 1500, reason: 'Asked by the donor' })).statusCode).toBe(201);
    expect((await refund(whole, { reason: 'Duplicate gift' })).statusCode).toBe(201);
    // 03:00 UTC on 1 January is still 31 December in Belize (UTC-6); 07:00 UTC is 1 January there.
    await madeAt(newYearsEveInBelize, `${NEXT}-01-01T03:00:00Z`);
    await madeAt(kept, `${NEXT}-01-01T07:00:00Z`);
    await madeAt(partly, `${NEXT}-01-15T12:00:00Z`);
    await madeAt(whole, `${NEXT}-01-20T12:00:00Z`);

    const answer = await listDonors({ q: address });
    expect(answer.year).toBe(NEXT);
    // Lifetime: 25 + (40 - 15) + 7 = $57 (the full refund counts nothing); this year: 25 + 25 = $50 (the $7 is last year in Belize).
    expect(onlyRow(answer.rows)).toMatchObject({ giftCount: 4, lifetimeCents: 5700, thisYearCents: 5000, lastGiftAt: `${NEXT}-01-20T12:00:00.000Z` });
    const page = await donorPage(donorKeyOf(address));
    expect(page.figures).toMatchObject({ giftCount: 4, lifetimeCents: 5700, thisYearCents: 5000 });
  });

  it('filters by active plan and by the last gift days, sorts by lifetime, pages, and answers 400 to a bad query with fieldErrors', async () => {
    const tag = randomUUID().slice(0, 8);
    const monthly = `plan-${tag}@example.org`;
    const small = `small-${tag}@example.org`;
    const large = `large-${tag}@example.org`;
    await give({ donorEmail: monthly, donorName: `Marta ${tag}`, amount: 15, frequency: 'monthly' });
    await give({ donorEmail: small, donorName: `Marta ${tag}`, amount: 5 });
    const old = await give({ donorEmail: large, donorName: `Marta ${tag}`, amount: 90 });
    await madeAt(old, `${YEAR - 1}-06-30T12:00:00Z`);

    const all = await listDonors({ q: `marta ${tag}`, sort: 'lifetime' });
    expect(all.total).toBe(3);
    expect(all.rows.map((row) => row.email)).toEqual([large, monthly, small]);
    expect(all.rows.find((row) => row.email === monthly)?.activePlans).toBe(1);
    expect((await listDonors({ q: `marta ${tag}`, plan: 'active' })).rows.map((row) => row.email)).toEqual([monthly]);
    expect((await listDonors({ q: `marta ${tag}`, plan: 'none', sort: 'lifetime', order: 'asc' })).rows.map((row) => row.email)).toEqual([small, large]);
    expect((await listDonors({ q: `marta ${tag}`, to: `${YEAR - 1}-06-30` })).rows.map((row) => row.email)).toEqual([large]);
    expect((await listDonors({ q: `marta ${tag}`, from: `${YEAR - 1}-07-01` })).rows.map((row) => row.email).sort()).toEqual([monthly, small].sort());
    const second = await listDonors({ q: `marta ${tag}`, sort: 'lifetime', pageSize: '2', page: '2' });
    expect(second.rows.map((row) => row.email)).toEqual([small]);
    expect(second.total).toBe(3);
    // Without a filter, every donor is counted.
    const everyone = await listDonors({ pageSize: '1' });
    expect(everyone.total).toBe(await t.db.$count(donorTotals));
    expect(everyone.total).toBeGreaterThanOrEqual(3);

    for (const query of ['sort=name', 'plan=maybe', 'from=2026-02-30', 'from=2026-05-02&to=2026-05-01', 'pageSize=101', 'colour=blue']) {
      const answer = await staff('GET', `${STAFF_API.donors}?${query}`, viewer);
      expect(answer.statusCode, query).toBe(400);
      expect(Object.keys(answer.json<{ fieldErrors: object }>().fieldErrors), query).toHaveLength(1);
    }
  });
});

describe("a donor's page and a year's statement sent again", () => {
  it('lists gifts with receipts, plans and the statements sent; finance sends a year again, audited, and the donor receives it', async () => {
    const address = addressOf('statement');
    const monthly = await give({ donorEmail: address, donorName: 'Rosa Tzul', amount: 12, frequency: 'monthly' });
    await give({ donorEmail: address.toUpperCase(), donorName: 'Rosa Tzul', amount: 30 });
    const key = donorKeyOf(address);
    // The January runner's statements of this year (the gifts' receipts are dated now), sent by the relay.
    await queueYearEndStatements(t.db, YEAR);
    await t.app.mail.relayDue();

    const page = await donorPage(key);
    expect(page).toMatchObject({ donorKey: key, names: ['Rosa Tzul'], statementYears: [YEAR], figures: { giftCount: 2, lifetimeCents: 4200, activePlans: 1 } });
    expect(page.emails.map((email) => email.toLowerCase())).toEqual([address, address]);
    expect(page.gifts).toHaveLength(2);
    expect(page.gifts.every((gift) => /^\d{4}-\d{6,}$/.test(gift.receiptNumber ?? '') && !gift.receiptVoided)).toBe(true);
    expect(page.plans).toMatchObject([{ firstDonationId: monthly, status: 'active', amountCents: 1200, frequency: 'monthly', chargeCount: 1 }]);
    expect(page.statements).toMatchObject([{ year: YEAR, state: 'sent', recipient: address }]);

    smtp.received.length = 0;
    const answer = await resendStatement(key, { year: YEAR });
    expect(answer.statusCode, answer.body).toBe(202);
    expect(answer.json()).toEqual({ success: true, year: YEAR, recipient: page.email });
    const audit = await t.db.select().from(adminAuditLog).where(and(eq(adminAuditLog.subjectType, DONOR_SUBJECT), eq(adminAuditLog.subjectId, key)));
    expect(audit).toMatchObject([{ action: DONOR_AUDIT_ACTIONS.statementResent, actorType: 'staff', actorEmail: finance.staffMember.email, details: { year: YEAR, recipient: page.email } }]);
    await t.app.mail.relayDue();
    const delivered = smtp.received.filter((mail) => mail.subject?.startsWith(`Your ${YEAR} donations`));
    expect(delivered).toHaveLength(1);
    expect(delivered[0]?.text).toContain('30.00');
    expect((await donorPage(key)).statements.map((statement) => [statement.year, statement.state])).toEqual([[YEAR, 'sent'], [YEAR, 'sent']]);
  });

  it('refuses a year not over or without gifts (409), a bad body (400), and answers 404 for an unknown key, writing nothing', async () => {
    const address = addressOf('refused');
    await give({ donorEmail: address });
    const key = donorKeyOf(address);
    const outboxBefore = await t.db.$count(mailOutbox);
    const auditBefore = await t.db.$count(adminAuditLog);
    for (const year of [NEXT, YEAR - 1]) {
      const answer = await resendStatement(key, { year });
      expect(answer.statusCode, String(year)).toBe(409);
      expect(answer.json<{ fieldErrors: object }>().fieldErrors).toHaveProperty('year');
    }
    for (const body of [{}, { year: String(YEAR) }, { year: YEAR + 0.5 }, { year: YEAR, to: 'x@example.org' }]) {
      const answer = await resendStatement(key, body);
      expect(answer.statusCode, JSON.stringify(body)).toBe(400);
      expect(answer.json<{ fieldErrors: object }>().fieldErrors).toBeDefined();
    }
    expect((await resendStatement(donorKeyOf(addressOf('nobody')), { year: YEAR })).statusCode).toBe(404);
    expect((await resendStatement('not-a-key', { year: YEAR })).statusCode).toBe(404);
    expect((await staff('GET', staffApiPath(STAFF_API.donor, donorKeyOf(addressOf('nobody'))), viewer)).statusCode).toBe(404);
    expect(await t.db.$count(mailOutbox)).toBe(outboxBefore);
    expect(await t.db.$count(adminAuditLog)).toBe(auditBefore);
  });
});

describe('the donors table the database keeps', () => {
  it('holds, for every address with a charged gift, the figures its gifts give now (after corrections, refunds and moved dates)', async () => {
    const live = (await t.db.execute(sql`
      SELECT lower(btrim(donor_email)) AS address, donor_key(donor_email) AS donor_key, min(created_at) AS first_gift_at, max(created_at) AS last_gift_at,
        count(*)::int AS gift_count, coalesce(sum(amount_cents - refunded_cents) FILTER (WHERE status = 'succeeded'), 0)::bigint AS lifetime_cents
      FROM donations WHERE status IN ('succeeded', 'refunded', 'disputed') GROUP BY 1, 2 ORDER BY 1`)) as unknown as { rows: object[] };
    const kept = (await t.db.execute(sql`SELECT address, donor_key, first_gift_at, last_gift_at, gift_count, lifetime_cents FROM donor_totals ORDER BY 1`)) as unknown as { rows: object[] };
    expect(live.rows.length).toBeGreaterThan(5);
    expect(kept.rows).toEqual(live.rows);
  });
});

describe('the donors table under concurrent changes', () => {
  it("recomputes one donor's row after another transaction's change to the same donor commits, losing neither", async () => {
    const address = addressOf('concurrent');
    const first = await give({ donorEmail: address, amount: 40 });
    const second = await give({ donorEmail: address, amount: 60 });
    let firstUpdated!: () => void;
    let releaseFirst!: () => void;
    const updated = new Promise<void>((resolve) => (firstUpdated = resolve));
    const release = new Promise<void>((resolve) => (releaseFirst = resolve));
    const firstTransaction = t.db.transaction(async (tx) => {
      await tx.update(donations).set({ refundedCents: 1000 }).where(eq(donations.id, first));
      firstUpdated();
      await release;
    });
    await updated;
    // The second transaction's recompute waits for the first's lock on the donor's row...
    const secondTransaction = t.db.transaction(async (tx) => {
      await tx.update(donations).set({ refundedCents: 500 }).where(eq(donations.id, second));
    });
    await expect
      .poll(async () => {
        const waiting = (await t.db.execute(sql`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`)) as unknown as { rows: { n: number }[] };
        return waiting.rows[0]?.n ?? 0;
      })
      .toBeGreaterThan(0);
    releaseFirst();
    await Promise.all([firstTransaction, secondTransaction]);
    // ...then sees its committed refund: (40 - 10) + (60 - 5) = $85.
    const [row] = await t.db.select().from(donorTotals).where(eq(donorTotals.donorKey, donorKeyOf(address)));
    expect(row).toMatchObject({ giftCount: 2, lifetimeCents: 8500 });
  });
});

describe('roles', () => {
  it('lets a viewer read but not resend (403), and anyone without a session nothing (401)', async () => {
    const address = addressOf('roles');
    await give({ donorEmail: address });
    const key = donorKeyOf(address);
    const auditBefore = await t.db.$count(adminAuditLog);
    expect((await resendStatement(key, { year: YEAR }, viewer)).statusCode).toBe(403);
    expect((await resendStatement(key, { year: YEAR }, null)).statusCode).toBe(401);
    expect((await staff('GET', STAFF_API.donors, null)).statusCode).toBe(401);
    expect((await staff('GET', staffApiPath(STAFF_API.donor, key), null)).statusCode).toBe(401);
    expect((await staff('GET', staffApiPath(STAFF_API.donor, key), viewer)).statusCode).toBe(200);
    expect(await t.db.$count(adminAuditLog)).toBe(auditBefore);
  });
});
