import { randomUUID } from 'node:crypto';
import { and, eq, inArray, isNull, ne } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS, IDEMPOTENCY_KEY_HEADER } from '../../../shared/api';
import type { Cause } from '../../../shared/causes';
import type { Frequency } from '../../../shared/frequencies';
import { DASHBOARD_PERIOD_MESSAGE, StaffDashboardSchema, type MoneyTotals, type StaffDashboard } from '../../../shared/staff/dashboard-api';
import { staffApiPath, STAFF_API } from '../../../shared/staff/paths';
import { ADMIN_DONATIONS_EXPORT_PATH } from '../../admin/paths';
import { donations, mailOutbox, receipts, recurringPlans } from '../../db/schema';
import { markDonationDisputed } from '../../ledger/intent-ledger';
import { ATTACHES_THEN_DECLINES_CARD } from '../../payments/test-vault';
import { manualClock } from '../../platform/clock';
import { FUTURE_EXPIRY_YEAR, createTestApp, validSubmission, type TestApp } from '../../testing/test-app';
import { startSmtpTestServer, type SmtpTestServer } from '../../testing/smtp-test-server';
import { ADMIN_BILLING_RUN_PATH } from '../../recurring/plugin';
import { cardColumnsOf } from '../../recurring/plans';
import { signInStaffForTest, type StaffTestSession } from '../identity/testing/staff-session';
import { totalsOfStandardExport } from './testing/export-totals';

/**
 * The staff dashboard (issue #22, "Dashboard /staff": "a test builds a known ledger (gifts, partial and full refunds, a
 * dispute, renewals, a failed renewal) and checks each figure to the cent"), through the real app and database: gifts
 * and plans made through POST /api/process-donation, refunds through the staff refund route, renewals and a declined
 * renewal through the operator's billing run, a receipt refused by a real SMTP server (550). The dispute is the
 * ledger's move the Stripe webhook makes (the test gateway has no disputes). Each row is then dated (as the digest's
 * test does) on a manual clock at NOW, in America/Belize (UTC-6), and every figure is checked by hand and against the
 * donations list's totals, the staff export, the operator export and /api/donations/stats for the same days.
 */

const TZ = 'America/Belize';
const ADMIN_TOKEN = 'dashboard-test-admin-token-0123456789abcdef';
/** Noon in Belize on Wednesday 10 March 2027: "today". */
const NOW = new Date('2027-03-10T18:00:00.000Z');
/** The instant of `time` on `date` in Belize (UTC-6 all year). */
const local = (date: string, time = '12:00:00.000') => new Date(`${date}T${time}-06:00`);
const BOUNCING = 'bounce@example.org';

const clock = manualClock(NOW);
let smtp: SmtpTestServer;
let t: TestApp;
let viewer: StaffTestSession;
let finance: StaffTestSession;

/** Dates the donation `id` (created, updated, its receipt issued) at `instant`, as if it had been made then. */
async function dateGift(id: string, instant: Date): Promise<void> {
  await t.db.update(donations).set({ createdAt: instant, updatedAt: instant }).where(eq(donations.id, id));
  await t.db.update(receipts).set({ issuedAt: instant, year: instant.getUTCFullYear() }).where(eq(receipts.donationId, id));
}

/** The donations of `email` (exact), oldest try first. */
const giftsOf = (email: string) => t.db.select().from(donations).where(eq(donations.donorEmail, email)).orderBy(donations.recurringPeriod, donations.createdAt);

/**
 * Gives `amountCents` as `email` through the API (the clock at `at` for a plan, so its calendar starts that day), with
 * `card` (the test Visa by default), and dates the donation at `at`; returns its id.
 */
async function give(email: string, amountCents: number, cause: Cause, at: Date, frequency: Frequency = 'one-time', card?: string): Promise<string> {
  if (frequency !== 'one-time') clock.set(at);
  const answer = await t.postDonation(validSubmission({ donorEmail: email, amount: amountCents / 100, cause, frequency }, card ? { number: card } : {}));
  clock.set(NOW);
  const transactionId = (answer.json() as { data?: { transactionId?: string } }).data?.transactionId;
  const [gift] = await t.db
    .select({ id: donations.id })
    .from(donations)
    .where(transactionId ? eq(donations.gatewayTransactionId, transactionId) : and(eq(donations.donorEmail, email), eq(donations.status, 'failed')));
  if (!gift) throw new Error(`no gift of ${email}: ${answer.body}`);
  await dateGift(gift.id, at);
  return gift.id;
}

/** Refunds `amountCents` (all that is left when undefined) of `id` through the staff refund route, as finance. */
async function refund(id: string, amountCents?: number): Promise<void> {
  const response = await t.app.inject({
    method: 'POST',
    url: staffApiPath(STAFF_API.donationRefunds, id),
    headers: { ...finance.headers, [IDEMPOTENCY_KEY_HEADER]: randomUUID() },
    payload: { amountCents, reason: 'Asked by the donor' },
  });
  expect(response.statusCode, response.body).toBe(201);
}

/**
 * The known ledger (Belize days; today = 2027-03-10; last30 = 02-09..03-10):
 * - today: A $100 research refunded $30 (09:00); B $50 education refunded in full (10:00); D's $30 monthly renewal
 *   (08:00, by the billing run); J $10 research at today's first millisecond; a declined one-time try (no money);
 * - 03-09: G $60 marine (a returning donor: `Gil@Example.org` gave $25 on 2026-02-01); L $10 research at its last millisecond;
 * - 03-08: $5 education from BOUNCING (its receipt refused: 550); 03-07: C $40 marine, disputed;
 * - 03-01: F's $120 yearly marine plan; 02-10: D's $30 monthly research plan; 02-08: N $7 research (just before last30);
 * - 01-20: M $200 research; 01-15: E's $20 monthly education plan, whose renewal is declined (past due now);
 * - a year before: H $80 education on 2026-03-10, I $15 research on 2026-02-20, Gil's $25 on 2026-02-01;
 * - mail: BOUNCING's receipt failed, one message still retried after an error.
 */
async function buildLedger(): Promise<void> {
  // Plans first, each started on its day (the clock there), then its card changed for E to one that declines.
  await give('d@example.org', 3000, 'research-science', local('2027-02-10'), 'monthly');
  await give('e@example.org', 2000, 'education-outreach', local('2027-01-15'), 'monthly');
  await give('f@example.org', 12000, 'marine-protected-areas', local('2027-03-01'), 'yearly');
  const saved = await t.gateway.savePaymentMethod({ number: ATTACHES_THEN_DECLINES_CARD, expiryMonth: 12, expiryYear: Number(FUTURE_EXPIRY_YEAR), cvc: '123' });
  if (saved.status !== 'saved') throw new Error('card not saved');
  const [firstOfE] = await giftsOf('e@example.org');
  await t.db.update(recurringPlans).set(cardColumnsOf(saved.paymentMethod)).where(eq(recurringPlans.firstDonationId, firstOfE!.id));

  const a = await give('a@example.org', 10000, 'research-science', local('2027-03-10', '09:00:00.000'));
  const b = await give('b@example.org', 5000, 'education-outreach', local('2027-03-10', '10:00:00.000'));
  await give('j@example.org', 1000, 'research-science', local('2027-03-10', '00:00:00.000'));
  await give('l@example.org', 1000, 'research-science', local('2027-03-09', '23:59:59.999'));
  await give('gil@example.org', 6000, 'marine-protected-areas', local('2027-03-09'));
  await give('Gil@Example.org', 2500, 'research-science', local('2026-02-01'));
  await give(BOUNCING, 500, 'education-outreach', local('2027-03-08'));
  const c = await give('c@example.org', 4000, 'marine-protected-areas', local('2027-03-07'));
  await give('n@example.org', 700, 'research-science', local('2027-02-08'));
  await give('m@example.org', 20000, 'research-science', local('2027-01-20'));
  await give('h@example.org', 8000, 'education-outreach', local('2026-03-10'));
  await give('i@example.org', 1500, 'research-science', local('2026-02-20'));
  await give('declined@example.org', 3000, 'research-science', local('2027-03-10', '11:00:00.000'), 'one-time', '4000000000000002');

  await refund(a, 3000);
  await refund(b);
  const [disputed] = await giftsOf('c@example.org');
  expect(await markDonationDisputed(t.db, c, disputed!.gatewayTransactionId!, 'needs_response')).toBe(true);

  // The billing run of today (the operator's route): D's renewal is charged, E's declined.
  const run = await t.app.inject({ method: 'POST', url: ADMIN_BILLING_RUN_PATH, headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, payload: { asOf: NOW.toISOString() } });
  expect(run.json()).toEqual({ charged: 1, failed: 1, skipped: 0 });
  const renewal = (await giftsOf('d@example.org')).find((row) => row.recurringPeriod === 1);
  await dateGift(renewal!.id, local('2027-03-10', '08:00:00.000'));
  expect((await giftsOf('e@example.org')).map((row) => row.status)).toEqual(['succeeded', 'failed']);

  // Mail: one message still retried after an error; the rest sent, but BOUNCING's receipt, which the server refuses.
  await t.db
    .update(mailOutbox)
    .set({ attempts: 2, lastError: '{"code":"ETIMEDOUT"}', nextAttemptAt: new Date('2030-01-01T00:00:00Z') })
    .where(and(eq(mailOutbox.donationId, a), eq(mailOutbox.kind, 'receipt')));
  await t.db.update(mailOutbox).set({ status: 'sent' }).where(and(eq(mailOutbox.status, 'pending'), isNull(mailOutbox.lastError), ne(mailOutbox.recipient, BOUNCING)));
  expect(await t.app.mail.relayDue()).toMatchObject({ sent: 0, failed: 1 });
}

beforeAll(async () => {
  smtp = await startSmtpTestServer({ rejectRecipients: [BOUNCING] });
  t = await createTestApp({ clock, env: { TZ, ADMIN_TOKEN, SMTP_URL: smtp.url } });
  viewer = await signInStaffForTest(t.app, t.db, { role: 'viewer', now: NOW });
  finance = await signInStaffForTest(t.app, t.db, { role: 'finance', now: NOW });
  await buildLedger();
}, 120_000);
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

/** GET `url` with `query` as `session` (none when null). */
const get = (url: string, query: Record<string, string> = {}, session: StaffTestSession | null = viewer, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url: `${url}?${new URLSearchParams(query).toString()}`, headers: { ...(session?.headers ?? {}), ...headers } });

/** The dashboard of `period`, checked 200 and against its schema. */
async function dashboard(period?: string): Promise<StaffDashboard> {
  const response = await get(STAFF_API.dashboard, period ? { period } : {});
  expect(response.statusCode, response.body).toBe(200);
  return StaffDashboardSchema.parse(response.json());
}

const totals = (count: number, grossCents: number, refundedCents: number, disputedCents: number, netCents: number): MoneyTotals => ({ count, grossCents, refundedCents, disputedCents, netCents });
const zeroGroup = { netCents: 0, count: 0, yearBeforeNetCents: 0 };

describe('GET /api/staff/dashboard', () => {
  it('counts each period and its year before to the cent, in Belize days', async () => {
    const answer = await dashboard();
    expect(answer.timeZone).toBe(TZ);
    expect(answer.today).toBe('2027-03-10');
    expect(answer.periods).toEqual([
      { period: 'today', days: { from: '2027-03-10', to: '2027-03-10' }, totals: totals(4, 19000, 8000, 0, 11000), yearBefore: { days: { from: '2026-03-10', to: '2026-03-10' }, totals: totals(1, 8000, 0, 0, 8000) } },
      { period: 'last7', days: { from: '2027-03-04', to: '2027-03-10' }, totals: totals(8, 30500, 8000, 4000, 18500), yearBefore: { days: { from: '2026-03-04', to: '2026-03-10' }, totals: totals(1, 8000, 0, 0, 8000) } },
      { period: 'last30', days: { from: '2027-02-09', to: '2027-03-10' }, totals: totals(10, 45500, 8000, 4000, 33500), yearBefore: { days: { from: '2026-02-09', to: '2026-03-10' }, totals: totals(2, 9500, 0, 0, 9500) } },
      { period: 'year', days: { from: '2027-01-01', to: '2027-03-10' }, totals: totals(13, 68200, 8000, 4000, 56200), yearBefore: { days: { from: '2026-01-01', to: '2026-03-10' }, totals: totals(3, 12000, 0, 0, 12000) } },
    ]);
    expect(answer.selected).toEqual(answer.periods[2]);
  });

  it('breaks the selected period down by cause, one-time versus recurring, and new versus returning donors', async () => {
    const answer = await dashboard('last30');
    expect(answer.byCause).toEqual([
      { cause: 'marine-protected-areas', netCents: 18000, count: 3, yearBeforeNetCents: 0 },
      { cause: 'research-science', netCents: 15000, count: 5, yearBeforeNetCents: 1500 },
      { cause: 'education-outreach', netCents: 500, count: 2, yearBeforeNetCents: 8000 },
      { cause: 'sustainable-development', ...zeroGroup },
      { cause: 'communications-marketing', ...zeroGroup },
    ]);
    expect(answer.byFrequency).toEqual([
      { frequency: 'one-time', netCents: 15500, count: 7, yearBeforeNetCents: 9500 },
      { frequency: 'monthly', netCents: 6000, count: 2, yearBeforeNetCents: 0 },
      { frequency: 'yearly', netCents: 12000, count: 1, yearBeforeNetCents: 0 },
    ]);
    // New: a, d (two gifts, one donor), j, l, the bouncing donor, f; returning: Gil, whatever the case of the address.
    expect(answer.donors).toEqual({ newDonors: { donorCount: 6, netCents: 27500 }, returningDonors: { donorCount: 1, netCents: 6000 } });
    const today = await dashboard('today');
    expect(today.selected.period).toBe('today');
    expect(today.donors).toEqual({ newDonors: { donorCount: 2, netCents: 8000 }, returningDonors: { donorCount: 1, netCents: 3000 } });
  });

  it('counts active plans with their monthly equivalent, renewals failing now and e-mails failing now', async () => {
    const answer = await dashboard();
    // D $30 a month, F $120 a year (a twelfth: $10); E past due for its $20 renewal.
    expect(answer.activePlans).toEqual({ count: 2, monthlyEquivalentCents: 4000 });
    expect(answer.failingRenewals).toEqual({ count: 1, amountCents: 2000 });
    expect(answer.failingMail).toEqual({ retrying: 1, failed: 1 });
  });

  it('gives the daily net of the last 30 days and the monthly net of the year, each with a year before, adding up to the periods', async () => {
    const answer = await dashboard();
    expect(answer.daily).toHaveLength(30);
    expect(answer.daily[0]?.date).toBe('2027-02-09');
    const day = (date: string) => answer.daily.find((entry) => entry.date === date);
    expect(day('2027-03-10')).toEqual({ date: '2027-03-10', netCents: 11000, yearBeforeNetCents: 8000 });
    expect(day('2027-03-09')).toEqual({ date: '2027-03-09', netCents: 7000, yearBeforeNetCents: 0 });
    expect(day('2027-03-07')).toEqual({ date: '2027-03-07', netCents: 0, yearBeforeNetCents: 0 });
    expect(day('2027-02-20')).toEqual({ date: '2027-02-20', netCents: 0, yearBeforeNetCents: 1500 });
    const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
    expect(sum(answer.daily.map((entry) => entry.netCents))).toBe(33500);
    expect(sum(answer.daily.map((entry) => entry.yearBeforeNetCents))).toBe(9500);
    expect(answer.monthly).toEqual([
      { month: '2027-01', netCents: 22000, yearBeforeNetCents: 0 },
      { month: '2027-02', netCents: 3700, yearBeforeNetCents: 4000 },
      { month: '2027-03', netCents: 30500, yearBeforeNetCents: 8000 },
    ]);
  });

  it('agrees with the donations list totals and the staff export of the same days, for every period and its year before', async () => {
    const answer = await dashboard();
    for (const { days, totals: expected } of answer.periods.flatMap((entry) => [entry, entry.yearBefore])) {
      const list = await get(STAFF_API.donations, days);
      expect(list.statusCode).toBe(200);
      const { count: _allTries, ...money } = (list.json() as { totals: MoneyTotals }).totals;
      const { count: _charged, ...dashboardMoney } = expected;
      expect(money, JSON.stringify(days)).toEqual(dashboardMoney);
      const exported = await get(STAFF_API.donationsExport, { ...days, format: 'standard' }, finance);
      expect(exported.statusCode).toBe(200);
      expect(totalsOfStandardExport(exported.body), JSON.stringify(days)).toEqual(expected);
    }
  });

  it("agrees with the operator's export of the same days, which counts UTC days: only a gift between UTC and Belize midnight differs", async () => {
    const answer = await dashboard();
    const operatorExport = async (days: { from: string; to: string }) => {
      const response = await get(ADMIN_DONATIONS_EXPORT_PATH, { ...days, format: 'standard' }, null, { authorization: `Bearer ${ADMIN_TOKEN}` });
      expect(response.statusCode, response.body).toBe(200);
      return totalsOfStandardExport(response.body);
    };
    for (const entry of answer.periods.filter((period) => period.period !== 'today')) {
      expect(await operatorExport(entry.days), entry.period).toEqual(entry.totals);
      expect(await operatorExport(entry.yearBefore.days), entry.period).toEqual(entry.yearBefore.totals);
    }
    // L's $10 at 23:59:59.999 on 9 March in Belize is 05:59:59.999 on 10 March in UTC: the operator's day, not the staff's.
    const today = answer.periods[0]!;
    expect(await operatorExport(today.days)).toEqual({ ...today.totals, count: today.totals.count + 1, grossCents: today.totals.grossCents + 1000, netCents: today.totals.netCents + 1000 });
  });

  it('agrees with /api/donations/stats: every kept gift lies in this year or the year before, by cause and by frequency', async () => {
    const year = await dashboard('year');
    const stats = (await t.app.inject({ method: 'GET', url: API_PATHS.donationStats })).json() as {
      totalRaised: number;
      byCause: { cause: Cause; totalRaised: number }[];
      byFrequency: { frequency: Frequency; totalRaised: number }[];
    };
    const cents = (dollars: number) => Math.round(dollars * 100);
    expect(cents(stats.totalRaised)).toBe(year.selected.totals.netCents + year.selected.yearBefore.totals.netCents);
    const netOfCause = Object.fromEntries(year.byCause.filter((row) => row.netCents + row.yearBeforeNetCents > 0).map((row) => [row.cause, row.netCents + row.yearBeforeNetCents]));
    expect(Object.fromEntries(stats.byCause.map((row) => [row.cause, cents(row.totalRaised)]))).toEqual(netOfCause);
    const netOfFrequency = Object.fromEntries(year.byFrequency.filter((row) => row.netCents + row.yearBeforeNetCents > 0).map((row) => [row.frequency, row.netCents + row.yearBeforeNetCents]));
    expect(Object.fromEntries(stats.byFrequency.map((row) => [row.frequency, cents(row.totalRaised)]))).toEqual(netOfFrequency);
  });

  it('answers 401 without a session, and no-store; a viewer reads it', async () => {
    const anonymous = await get(STAFF_API.dashboard, {}, null);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ success: false, code: 'staff_unauthenticated' });
    const asViewer = await get(STAFF_API.dashboard, {}, viewer);
    expect(asViewer.statusCode).toBe(200);
    expect(asViewer.headers['cache-control']).toBe('no-store');
  });

  it('answers 400 with fieldErrors for an unknown period or parameter', async () => {
    const badPeriod = await get(STAFF_API.dashboard, { period: 'decade' });
    expect(badPeriod.statusCode).toBe(400);
    expect(badPeriod.json()).toMatchObject({ success: false, fieldErrors: { period: DASHBOARD_PERIOD_MESSAGE } });
    const unknown = await get(STAFF_API.dashboard, { from: '2027-01-01' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ success: false });
  });
});

// Keeps the ledger's rows honest: the statuses the figures above rest on.
describe('the known ledger', () => {
  it('holds the refunds, the dispute and the declined tries as the API left them', async () => {
    const rows = await t.db
      .select({ email: donations.donorEmail, status: donations.status, refundedCents: donations.refundedCents })
      .from(donations)
      .where(inArray(donations.donorEmail, ['a@example.org', 'b@example.org', 'c@example.org', 'declined@example.org']))
      .orderBy(donations.donorEmail);
    expect(rows).toEqual([
      { email: 'a@example.org', status: 'succeeded', refundedCents: 3000 },
      { email: 'b@example.org', status: 'refunded', refundedCents: 5000 },
      { email: 'c@example.org', status: 'disputed', refundedCents: 0 },
      { email: 'declined@example.org', status: 'failed', refundedCents: 0 },
    ]);
  });
});
