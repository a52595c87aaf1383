import { randomUUID } from 'node:crypto';
import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CSRF_HEADER_NAME } from '../../../shared/api';
import { MANAGE_PLAN_API_PATH } from '../../../shared/recurring';
import { PLAN_CHANGE_NOT_ALLOWED_MESSAGE, PLAN_CHARGE_UNDER_WAY_MESSAGE } from '../../../shared/recurring-api';
import { STAFF_API, staffApiPath } from '../../../shared/staff/paths';
import { StaffPlanChangeAnswerSchema, StaffPlanDetailSchema, StaffPlanListAnswerSchema, type StaffPlanDetail } from '../../../shared/staff/plans-api';
import { adminAuditLog, donationRefunds, donations, mailOutbox, receipts, recurringPlanChanges, recurringPlans } from '../../db/schema';
import { ATTACHES_THEN_DECLINES_CARD } from '../../payments/test-vault';
import type { PaymentGateway } from '../../payments/gateway';
import { createTestGateway } from '../../payments/test-gateway';
import { manualClock } from '../../platform/clock';
import { runBilling } from '../../recurring/billing';
import { applyPlanChange } from '../../recurring/manage';
import { createManageLinkSigner } from '../../recurring/manage-link';
import { signInStaffForTest, type StaffTestSession } from '../identity/testing/staff-session';
import { donorKeyOf } from '../shared/donor-key';
import { memoryLog } from '../../testing/payment-attempts';
import { createTestApp, FUTURE_EXPIRY_YEAR, validSubmission, type TestApp } from '../../testing/test-app';

/**
 * The staff plans API through the real app and database (issue #22, "Recurring plans /staff/plans"): the list's
 * filters, search and totals; a plan's page with its dunning state, charges and changes by who made them; each action
 * through the donor's own code (from the next charge, the donor e-mailed, 409 while a charge is under way, a cancelled
 * plan never charged again), a cancel with refund made once under one Idempotency-Key; roles (viewer 403, no session
 * 401); the audit entry in the transaction of the change; bad input 400 with nothing written.
 */

const clock = manualClock(new Date('2027-01-31T15:00:00Z'));
let t: TestApp;
/** While true, the gateway's refunds fail (a timeout or network error: outcome unknown). */
let refundsFail = false;
let viewer: StaffTestSession;
let finance: StaffTestSession;

beforeAll(async () => {
  const inner = createTestGateway();
  const gateway: PaymentGateway = { ...inner, refund: (request) => (refundsFail ? Promise.reject(new Error('gateway unreachable (test fault)')) : inner.refund(request)) };
  t = await createTestApp({ clock, gateway });
});
afterAll(async () => {
  await t?.close();
});
/** Moves the clock to `instant` and signs the viewer and the finance member in again then (a session ends when idle). */
async function setClock(instant: string) {
  clock.set(new Date(instant));
  viewer = await signInStaffForTest(t.app, t.db, { role: 'viewer', now: clock.now() });
  finance = await signInStaffForTest(t.app, t.db, { role: 'finance', now: clock.now() });
}

beforeEach(async () => {
  refundsFail = false;
  await t.reset();
  await setClock('2027-01-31T15:00:00Z');
});

/** Starts a plan through the donor's API (the test card) and resolves with its row. */
async function startPlan(overrides: Parameters<typeof validSubmission>[0] = {}, card: Parameters<typeof validSubmission>[1] = {}) {
  const donorEmail = overrides.donorEmail ?? `donor-${randomUUID()}@example.org`;
  const answer = await t.postDonation(validSubmission({ amount: 30, frequency: 'monthly', ...overrides, donorEmail }, card));
  expect(answer.statusCode, answer.body).toBe(200);
  const [plan] = await t.db
    .select({ plan: recurringPlans })
    .from(recurringPlans)
    .innerJoin(donations, eq(donations.id, recurringPlans.firstDonationId))
    .where(eq(donations.donorEmail, donorEmail));
  if (!plan) throw new Error('no plan');
  return plan.plan;
}

/** A staff request as `session` (null: a browser with CSRF cookies but no staff session). */
async function staff(method: 'GET' | 'POST', url: string, session: StaffTestSession | null, payload?: object, headers: Record<string, string> = {}) {
  const csrf = session ? undefined : await t.csrf();
  const sent = session ? session.headers : { cookie: csrf!.cookie, [CSRF_HEADER_NAME]: csrf!.token };
  return t.app.inject({ method, url, headers: { ...sent, ...headers }, ...(payload ? { payload } : {}) });
}

const list = (query: string, session: StaffTestSession | null = viewer) => staff('GET', `${STAFF_API.plans}${query}`, session);
const detail = async (id: string) => {
  const answer = await staff('GET', staffApiPath(STAFF_API.plan, id), viewer);
  expect(answer.statusCode, answer.body).toBe(200);
  return StaffPlanDetailSchema.parse(answer.json());
};
const change = (id: string, body: object, session: StaffTestSession | null = finance, headers: Record<string, string> = {}) =>
  staff('POST', staffApiPath(STAFF_API.planChanges, id), session, body, headers);
const manageLink = (id: string, session: StaffTestSession | null = finance) => staff('POST', staffApiPath(STAFF_API.planManageLink, id), session, {});

const planRow = async (id: string) => (await t.db.select().from(recurringPlans).where(eq(recurringPlans.id, id)))[0]!;
const planMail = async (id: string) => (await t.db.select({ kind: mailOutbox.kind, recipient: mailOutbox.recipient }).from(mailOutbox).where(eq(mailOutbox.recurringPlanId, id))).map((m) => m.kind);
const history = (id: string) => t.db.select().from(recurringPlanChanges).where(eq(recurringPlanChanges.planId, id)).orderBy(asc(recurringPlanChanges.createdAt));
const auditOf = (id: string) => t.db.select().from(adminAuditLog).where(eq(adminAuditLog.subjectId, id)).orderBy(asc(adminAuditLog.createdAt));
const renewals = (id: string) => t.db.select().from(donations).where(and(eq(donations.recurringPlanId, id), sql`${donations.recurringPeriod} > 0`));
const runAt = async (instant: string) => {
  await setClock(instant);
  return t.app.billing.run();
};

describe('GET /api/staff/plans', () => {
  it('filters by status, frequency, cause, next charge dates and amount; searches name, e-mail and the first receipt number', async () => {
    const ana = await startPlan({ donorName: 'Ana Flores', donorEmail: 'ana@example.org', amount: 30, cause: 'research-science' });
    const ben = await startPlan({ donorName: 'Ben Young', donorEmail: 'ben@example.org', amount: 50, frequency: 'yearly', cause: 'education-outreach' });
    const cara = await startPlan({ donorName: 'Cara Lopez', donorEmail: 'cara@example.org', amount: 10 });
    expect((await change(cara.id, { action: 'pause' })).statusCode).toBe(200);

    const ids = async (query: string) => {
      const answer = await list(query);
      expect(answer.statusCode, answer.body).toBe(200);
      return StaffPlanListAnswerSchema.parse(answer.json()).rows.map((row) => row.id).sort();
    };
    expect(await ids('?status=paused')).toEqual([cara.id]);
    expect(await ids('?status=active&frequency=monthly')).toEqual([ana.id]);
    expect(await ids('?cause=education-outreach')).toEqual([ben.id]);
    // Monthly: next charge 2027-02-28; yearly: 2028-01-31; paused: none (left out by a date filter).
    expect(await ids('?nextFrom=2027-02-01&nextTo=2027-03-31')).toEqual([ana.id]);
    expect(await ids('?nextFrom=2028-01-31')).toEqual([ben.id]);
    expect(await ids('?amountMin=20&amountMax=40.00')).toEqual([ana.id]);
    expect(await ids('?q=ana')).toEqual([ana.id]);
    expect(await ids('?q=BEN%40example.org')).toEqual([ben.id]);
    const [receipt] = await t.db.select({ number: receipts.number }).from(receipts).where(eq(receipts.donationId, cara.firstDonationId));
    expect(await ids(`?q=${receipt!.number}`)).toEqual([cara.id]);

    const first = StaffPlanListAnswerSchema.parse((await list('?sort=amount&order=desc&pageSize=2')).json());
    expect(first.rows.map((row) => row.id)).toEqual([ben.id, ana.id]);
    expect(first.rows[0]).toMatchObject({ donorName: 'Ben Young', email: 'ben@example.org', donorKey: donorKeyOf('ben@example.org'), amountCents: 5000, frequency: 'yearly', nextChargeOn: '2028-01-31', status: 'active' });
    expect(first.totals).toEqual({ count: 3, activeCount: 2, activeMonthlyCents: 3000 + 417 });
    const second = StaffPlanListAnswerSchema.parse((await list('?sort=amount&order=desc&pageSize=2&page=2')).json());
    expect(second.rows.map((row) => row.id)).toEqual([cara.id]);
    expect(second.rows[0]?.nextChargeOn).toBeNull();
  });

  it('counts yearly plans a twelfth, rounded half up once on their sum (decision 0068)', async () => {
    for (const amount of [50, 50]) await startPlan({ amount, frequency: 'yearly' });
    const answer = StaffPlanListAnswerSchema.parse((await list('')).json());
    // 2 x 5000 / 12 = 833.33: 833 (a twelfth of each, rounded, would say 834).
    expect(answer.totals).toEqual({ count: 2, activeCount: 2, activeMonthlyCents: 833 });
  });

  it('refuses a bad query with 400 and fieldErrors', async () => {
    for (const [query, field] of [
      ['?status=lapsed', 'status'],
      ['?nextFrom=2027-02-30', 'nextFrom'],
      ['?nextFrom=2027-03-01&nextTo=2027-02-01', 'nextTo'],
      ['?amountMin=ten', 'amountMin'],
      ['?sort=donor', 'sort'],
      ['?colour=red', 'colour'],
    ] as const) {
      const answer = await list(query);
      expect(answer.statusCode, query).toBe(400);
      expect(Object.keys(answer.json<{ fieldErrors: object }>().fieldErrors), query).toContain(field);
    }
  });
});

describe('GET /api/staff/plans/:id', () => {
  it('shows the donor, card, next charge, charges with receipts, and the dunning state and changes of a declining card', async () => {
    const plan = await startPlan({ donorName: 'Dee Marsh', donorEmail: 'Dee@Example.org' });
    // The donor's new card, saved from their manage link, is declined at the renewal.
    const newCard = { number: ATTACHES_THEN_DECLINES_CARD, holderName: 'Dee Marsh', expiryMonth: '12', expiryYear: FUTURE_EXPIRY_YEAR, cvv: '123', type: 'visa' as const };
    expect((await applyPlanChange({ db: t.db, gateway: t.gateway, minAmountCents: 100 }, plan.id, { action: 'update_card', creditCard: newCard }, clock.now())).status).toBe('changed');
    await runAt('2027-02-28T01:00:00Z');
    const shown = await detail(plan.id);
    expect(shown).toMatchObject({
      status: 'past_due',
      amountCents: 3000,
      frequency: 'monthly',
      donor: { name: 'Dee Marsh', email: 'Dee@Example.org', donorKey: donorKeyOf('dee@example.org') },
      card: { last4: '0341' },
      nextChargeOn: '2027-03-01',
      dunning: { retry: 1, retriesTotal: 3, nextRetryAt: '2027-03-01T01:00:00.000Z', pastDueSince: '2027-02-28T01:00:00.000Z' },
      lastCharge: { donationId: plan.firstDonationId, amountCents: 3000, refundableCents: 3000 },
    });
    expect(shown.charges.map((c) => [c.period, c.attempt, c.date, c.status, c.receiptNumber === null])).toEqual([
      [1, 1, '2027-02-28', 'failed', true],
      [0, 1, '2027-01-31', 'succeeded', false],
    ]);
    expect(shown.changes).toEqual([
      expect.objectContaining({ actorType: 'billing', action: 'past_due', staffEmail: null, details: expect.objectContaining({ retry: 1, retryAt: '2027-03-01T01:00:00.000Z' }) }),
      expect.objectContaining({ actorType: 'donor', action: 'update_card', staffEmail: null, details: { cardBrand: 'visa', cardLast4: '0341' } }),
    ]);
    expect(JSON.stringify(shown)).not.toContain(ATTACHES_THEN_DECLINES_CARD);
    expect((await staff('GET', staffApiPath(STAFF_API.plan, randomUUID()), viewer)).statusCode).toBe(404);
    expect((await staff('GET', staffApiPath(STAFF_API.plan, 'nope'), viewer)).statusCode).toBe(404);
  });

  it("records the billing runner's changes: past due, each retry scheduled, paused after the last, and a recovery", async () => {
    const donor = { db: t.db, gateway: t.gateway, minAmountCents: 100 };
    const card = (number: string) => ({ number, holderName: 'Dee Marsh', expiryMonth: '12', expiryYear: FUTURE_EXPIRY_YEAR, cvv: '123', type: 'visa' as const });
    const failing = await startPlan();
    const recovering = await startPlan();
    for (const plan of [failing, recovering]) expect((await applyPlanChange(donor, plan.id, { action: 'update_card', creditCard: card(ATTACHES_THEN_DECLINES_CARD) }, clock.now())).status).toBe('changed');
    await runAt('2027-02-28T01:00:00Z');
    expect((await applyPlanChange(donor, recovering.id, { action: 'update_card', creditCard: card('4242424242424242') }, clock.now())).status).toBe('changed');
    for (const instant of ['2027-03-01T02:00:00Z', '2027-03-03T02:00:00Z', '2027-03-07T02:00:00Z']) await runAt(instant);
    const actions = async (id: string) => (await detail(id)).changes.map((c) => `${c.actorType}:${c.action}`).reverse();
    expect(await actions(failing.id)).toEqual(['donor:update_card', 'billing:past_due', 'billing:retry_scheduled', 'billing:retry_scheduled', 'billing:paused_after_failures']);
    expect(await actions(recovering.id)).toEqual(['donor:update_card', 'billing:past_due', 'donor:update_card', 'billing:recovered']);
    expect(await planRow(failing.id)).toMatchObject({ status: 'paused' });
    expect(await planRow(recovering.id)).toMatchObject({ status: 'active', period: 2 });
  });

  it("records the donor's own changes from the manage link and the runner's resume after a pause, with who made each", async () => {
    const plan = await startPlan();
    const token = createManageLinkSigner(t.config.cookieSecret).sign(plan.id, clock.now());
    const csrf = await t.csrf();
    const donorChange = await t.app.inject({
      method: 'POST',
      url: MANAGE_PLAN_API_PATH.replace(':token', token),
      headers: { cookie: csrf.cookie, [CSRF_HEADER_NAME]: csrf.token },
      payload: { action: 'pause', until: '2027-04-15' },
    });
    expect(donorChange.statusCode, donorChange.body).toBe(200);
    await runAt('2027-04-15T00:30:00Z');
    const changes = (await detail(plan.id)).changes;
    expect(changes.map((c) => [c.actorType, c.action, c.details])).toEqual([
      ['billing', 'resumed_after_pause', { pausedUntil: '2027-04-15', nextChargeOn: '2027-04-30' }],
      ['donor', 'pause', { until: '2027-04-15' }],
    ]);
  });
});

describe('POST /api/staff/plans/:id/changes', () => {
  it('changes the amount and cause from the next charge, e-mails the donor, and records who made it in history and audit', async () => {
    const plan = await startPlan({ amount: 30 });
    const lowered = await change(plan.id, { action: 'change_amount', amountCents: 1500 });
    expect(lowered.statusCode, lowered.body).toBe(200);
    expect(StaffPlanChangeAnswerSchema.parse(lowered.json())).toMatchObject({ plan: { amountCents: 1500 }, refund: null });
    expect((await change(plan.id, { action: 'change_cause', cause: 'education-outreach' })).statusCode).toBe(200);
    expect(await planMail(plan.id)).toEqual(['plan_changed', 'plan_changed']);
    const changes = (await detail(plan.id)).changes;
    expect(changes.map((c) => [c.actorType, c.staffEmail, c.action, c.details])).toEqual([
      ['staff', finance.staffMember.email, 'change_cause', { fromCause: 'research-science', toCause: 'education-outreach' }],
      ['staff', finance.staffMember.email, 'change_amount', { fromAmountCents: 3000, toAmountCents: 1500 }],
    ]);
    const audit = await auditOf(plan.id);
    expect(audit.map((a) => [a.action, a.actorType, a.actorStaffId])).toEqual([
      ['plan.change_amount', 'staff', finance.staffMember.id],
      ['plan.change_cause', 'staff', finance.staffMember.id],
    ]);
    // The first gift stays as given; the next renewal charges the new amount for the new cause.
    await runAt('2027-02-28T01:00:00Z');
    expect((await renewals(plan.id)).map((r) => [r.amountCents, r.cause, r.status])).toEqual([[1500, 'education-outreach', 'succeeded']]);
  });

  it('pauses until a date, resumes, and pauses until resumed, each e-mailed; a paused plan is not charged', async () => {
    const plan = await startPlan();
    const paused = await change(plan.id, { action: 'pause', until: '2027-05-01' });
    expect(paused.statusCode, paused.body).toBe(200);
    expect(StaffPlanChangeAnswerSchema.parse(paused.json()).plan).toMatchObject({ status: 'paused', pausedUntil: '2027-05-01', nextChargeOn: null });
    await runAt('2027-02-28T01:00:00Z');
    expect(await renewals(plan.id)).toEqual([]);
    await setClock('2027-03-02T10:00:00Z');
    const resumed = await change(plan.id, { action: 'resume' });
    expect(StaffPlanChangeAnswerSchema.parse(resumed.json()).plan).toMatchObject({ status: 'active', pausedUntil: null, nextChargeOn: '2027-03-31' });
    expect((await change(plan.id, { action: 'resume' })).json()).toMatchObject({ error: PLAN_CHANGE_NOT_ALLOWED_MESSAGE });
    expect((await change(plan.id, { action: 'pause' })).statusCode).toBe(200);
    expect(await planRow(plan.id)).toMatchObject({ status: 'paused', pausedUntil: null });
    expect(await planMail(plan.id)).toEqual(['plan_changed', 'plan_changed', 'plan_changed']);
  });

  it('answers a cancel or a pause while a charge is under way exactly as the donor gets it (409, Retry-After), and changes nothing', async () => {
    const plan = await startPlan();
    const failing: PaymentGateway = { ...t.gateway, chargeSavedPaymentMethod: () => Promise.reject(new Error('gateway down')) };
    await setClock('2027-02-28T01:00:00Z');
    expect(await runBilling({ db: t.db, gateway: failing, log: memoryLog().logger, retryDays: [1, 3, 7] }, clock.now())).toEqual({ charged: 0, failed: 0, skipped: 1 });
    const token = createManageLinkSigner(t.config.cookieSecret).sign(plan.id, clock.now());
    const csrf = await t.csrf();
    const donors = await t.app.inject({ method: 'POST', url: MANAGE_PLAN_API_PATH.replace(':token', token), headers: { cookie: csrf.cookie, [CSRF_HEADER_NAME]: csrf.token }, payload: { action: 'cancel' } });
    for (const body of [{ action: 'cancel' }, { action: 'pause' }, { action: 'cancel', refundLastCharge: true, reason: 'Donor phoned' }]) {
      const answer = await change(plan.id, body, finance, { 'idempotency-key': randomUUID() });
      expect(answer.statusCode, JSON.stringify(body)).toBe(409);
      expect(answer.headers['retry-after']).toBe('300');
      expect(answer.json()).toEqual(donors.json());
      expect(answer.json()).toMatchObject({ error: PLAN_CHARGE_UNDER_WAY_MESSAGE });
    }
    expect(donors.statusCode).toBe(409);
    expect(await planRow(plan.id)).toMatchObject({ status: 'active' });
    expect(await history(plan.id)).toEqual([]);
    expect(await t.db.select().from(donationRefunds)).toEqual([]);
  });

  it('cancels and refunds the last charge once under one Idempotency-Key; the cancelled plan is never charged again', async () => {
    const plan = await startPlan({ donorEmail: 'eve@example.org' });
    const key = randomUUID();
    const body = { action: 'cancel', refundLastCharge: true, reason: 'Donor phoned to stop' };
    const first = await change(plan.id, body, finance, { 'idempotency-key': key });
    expect(first.statusCode, first.body).toBe(200);
    const answer = StaffPlanChangeAnswerSchema.parse(first.json());
    expect(answer.plan).toMatchObject({ status: 'cancelled', lastCharge: { donationId: plan.firstDonationId, refundableCents: 0 } });
    expect(answer.refund).toMatchObject({ refund: { amountCents: 3000 }, donation: { id: plan.firstDonationId, status: 'refunded', refundedCents: 3000 } });
    const again = await change(plan.id, body, finance, { 'idempotency-key': key });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(StaffPlanChangeAnswerSchema.parse(again.json()).refund?.refund.id).toBe(answer.refund?.refund.id);
    expect(await t.db.select().from(donationRefunds)).toHaveLength(1);
    // Another key finds nothing left to refund; a plain cancel finds the plan cancelled already.
    expect((await change(plan.id, body, finance, { 'idempotency-key': randomUUID() })).statusCode).toBe(409);
    expect((await change(plan.id, { action: 'cancel' })).json()).toMatchObject({ error: PLAN_CHANGE_NOT_ALLOWED_MESSAGE });
    // The donor is told of the cancel and of the refund (the voided receipt); the audit names both.
    expect(await planMail(plan.id)).toEqual(['plan_changed']);
    expect((await t.db.select({ kind: mailOutbox.kind }).from(mailOutbox).where(eq(mailOutbox.donationId, plan.firstDonationId))).map((m) => m.kind)).toContain('receipt_void');
    expect((await auditOf(plan.id)).map((a) => a.action)).toEqual(['plan.cancel']);
    expect((await auditOf(plan.firstDonationId)).map((a) => a.action)).toEqual(['donation.refund']);
    expect((await history(plan.id)).map((h) => [h.actorType, h.action])).toEqual([['staff', 'cancel']]);
    for (const instant of ['2027-02-28T01:00:00Z', '2027-03-31T01:00:00Z', '2027-06-30T01:00:00Z']) {
      expect(await runAt(instant)).toEqual({ charged: 0, failed: 0, skipped: 0 });
    }
    expect(await renewals(plan.id)).toEqual([]);
  });

  it('a cancel whose refund fails stands; its refund stays pending until the reconciler settles it (not made: failed); a new key then makes the refund, once', async () => {
    const plan = await startPlan();
    const key = randomUUID();
    const body = { action: 'cancel', refundLastCharge: true, reason: 'Donor phoned to stop' };
    refundsFail = true;
    const unknown = await change(plan.id, body, finance, { 'idempotency-key': key });
    expect(unknown.statusCode, unknown.body).toBe(503);
    expect(await planRow(plan.id)).toMatchObject({ status: 'cancelled' });
    // Decision 0095: the refund was written pending before the gateway was asked; the same key is told it is being settled.
    expect((await t.db.select().from(donationRefunds)).map((row) => row.status)).toEqual(['pending']);
    refundsFail = false;
    expect((await change(plan.id, body, finance, { 'idempotency-key': key })).statusCode).toBe(503);
    // The gateway made no refund under its key: the reconciler settles it failed, and the same key answers that.
    expect((await t.reconcile()).refunds).toEqual({ succeeded: 0, failed: 1, unresolved: 0 });
    expect((await change(plan.id, body, finance, { 'idempotency-key': key })).statusCode).toBe(409);
    const retried = await change(plan.id, body, finance, { 'idempotency-key': randomUUID() });
    expect(retried.statusCode, retried.body).toBe(200);
    expect(StaffPlanChangeAnswerSchema.parse(retried.json()).refund?.donation).toMatchObject({ status: 'refunded', refundedCents: 3000 });
    expect((await t.db.select().from(donationRefunds)).map((row) => row.status).sort()).toEqual(['failed', 'succeeded']);
    expect((await history(plan.id)).map((h) => h.action)).toEqual(['cancel']);
    expect((await auditOf(plan.id)).map((a) => a.action)).toEqual(['plan.cancel']);
    expect(await planMail(plan.id)).toEqual(['plan_changed']);
  });

  it('a cancel with refund needs an Idempotency-Key and a recent passkey sign-in: else it writes nothing', async () => {
    const plan = await startPlan();
    const body = { action: 'cancel', refundLastCharge: true, reason: 'Donor phoned' };
    const noKey = await change(plan.id, body);
    expect(noKey.statusCode).toBe(400);
    const stale = await signInStaffForTest(t.app, t.db, { role: 'finance', now: new Date(clock.now().getTime() - 16 * 60_000) });
    const reauth = await change(plan.id, body, stale, { 'idempotency-key': randomUUID() });
    expect(reauth.statusCode).toBe(403);
    expect(reauth.json()).toMatchObject({ code: 'staff_reauth_required' });
    const noReason = await change(plan.id, { action: 'cancel', refundLastCharge: true }, finance, { 'idempotency-key': randomUUID() });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json()).toMatchObject({ fieldErrors: { reason: expect.any(String) } });
    expect(await planRow(plan.id)).toMatchObject({ status: 'active' });
    expect(await history(plan.id)).toEqual([]);
    expect(await auditOf(plan.id)).toEqual([]);
    expect(await planMail(plan.id)).toEqual([]);
    // Without a refund, a stale sign-in may cancel: only refunds need the recent passkey (issue #21).
    expect((await change(plan.id, { action: 'cancel' }, stale)).statusCode).toBe(200);
  });

  it('refuses bad input with 400 and fieldErrors, and writes nothing', async () => {
    const plan = await startPlan();
    for (const [body, field] of [
      [{ action: 'change_amount', amountCents: 50 }, 'amountCents'],
      [{ action: 'change_amount', amountCents: 12.5 }, 'amountCents'],
      [{ action: 'change_cause', cause: 'whales' }, 'cause'],
      [{ action: 'pause', until: '2027-01-31' }, 'until'],
      [{ action: 'pause', until: '2029-01-01' }, 'until'],
      [{ action: 'cancel', refundLastCharge: true, reason: 'x' }, 'reason'],
    ] as const) {
      const answer = await change(plan.id, body, finance, { 'idempotency-key': randomUUID() });
      expect(answer.statusCode, JSON.stringify(body)).toBe(400);
      expect(Object.keys(answer.json<{ fieldErrors: object }>().fieldErrors), JSON.stringify(body)).toContain(field);
    }
    expect((await change(plan.id, { action: 'explode' })).statusCode).toBe(400);
    expect(await planRow(plan.id)).toMatchObject({ status: 'active', amountCents: 3000, cause: plan.cause, pausedUntil: null });
    expect(await history(plan.id)).toEqual([]);
    expect(await auditOf(plan.id)).toEqual([]);
    expect(await planMail(plan.id)).toEqual([]);
    expect((await change(randomUUID(), { action: 'cancel' })).statusCode).toBe(404);
  });

  it('writes the audit entry in the transaction of the change: when it cannot be written, the plan, its history and its e-mail are not changed', async () => {
    const plan = await startPlan();
    await t.db.execute(sql.raw(`
      CREATE FUNCTION refuse_plan_audit() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.action = 'plan.cancel' THEN RAISE EXCEPTION 'audit refused (test fault)'; END IF; RETURN NEW; END $$;
      CREATE TRIGGER refuse_plan_audit BEFORE INSERT ON admin_audit_log FOR EACH ROW EXECUTE FUNCTION refuse_plan_audit();`));
    try {
      expect((await change(plan.id, { action: 'cancel' })).statusCode).toBe(500);
      expect(await planRow(plan.id)).toMatchObject({ status: 'active' });
      expect(await history(plan.id)).toEqual([]);
      expect(await planMail(plan.id)).toEqual([]);
    } finally {
      await t.db.execute(sql.raw('DROP TRIGGER refuse_plan_audit ON admin_audit_log; DROP FUNCTION refuse_plan_audit();'));
    }
  });
});

describe('POST /api/staff/plans/:id/manage-link', () => {
  it("e-mails the donor the manage links as the donor's own request does, audited, without the link in the answer", async () => {
    const plan = await startPlan({ donorEmail: 'fay@example.org' });
    const sent = await manageLink(plan.id);
    expect(sent.statusCode, sent.body).toBe(202);
    expect(sent.json()).toEqual({ success: true, queued: true });
    const mail = await t.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'manage_links'));
    expect(mail.map((m) => m.recipient)).toEqual(['fay@example.org']);
    // Within the hour, the message already sent serves: none more.
    expect((await manageLink(plan.id)).json()).toEqual({ success: true, queued: false });
    expect((await auditOf(plan.id)).map((a) => [a.action, a.details])).toEqual([
      ['plan.manage_link_sent', { recipient: 'fay@example.org', queued: true }],
      ['plan.manage_link_sent', { recipient: 'fay@example.org', queued: false }],
    ]);
    expect((await change(plan.id, { action: 'cancel' })).statusCode).toBe(200);
    expect((await manageLink(plan.id)).statusCode).toBe(409);
    expect((await manageLink(randomUUID())).statusCode).toBe(404);
  });
});

describe('roles', () => {
  it('a viewer reads plans but gets 403 on every action; no session gets 401; nothing is written', async () => {
    const plan = await startPlan();
    expect((await list('', viewer)).statusCode).toBe(200);
    const read: StaffPlanDetail = await detail(plan.id);
    expect(read.status).toBe('active');
    for (const answer of [
      await change(plan.id, { action: 'change_amount', amountCents: 1000 }, viewer),
      await change(plan.id, { action: 'pause' }, viewer),
      await change(plan.id, { action: 'resume' }, viewer),
      await change(plan.id, { action: 'cancel', refundLastCharge: true, reason: 'Viewer tries' }, viewer, { 'idempotency-key': randomUUID() }),
      await manageLink(plan.id, viewer),
    ]) {
      expect(answer.statusCode).toBe(403);
      expect(answer.json()).toMatchObject({ code: 'staff_forbidden' });
    }
    for (const answer of [await list('', null), await staff('GET', staffApiPath(STAFF_API.plan, plan.id), null), await change(plan.id, { action: 'cancel' }, null), await manageLink(plan.id, null)]) {
      expect(answer.statusCode).toBe(401);
    }
    expect(await planRow(plan.id)).toMatchObject({ status: 'active', amountCents: 3000 });
    expect(await history(plan.id)).toEqual([]);
    expect(await t.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'manage_links'))).toEqual([]);
    const admin = await signInStaffForTest(t.app, t.db, { role: 'admin', now: clock.now() });
    expect((await change(plan.id, { action: 'pause' }, admin)).statusCode).toBe(200);
  });
});

describe('issue #36: the cancel reason and one meaning of "charges so far"', () => {
  it('stores the reason staff give for a cancel on the plan and in its audit entry, and its page shows it; a bad reason is refused', async () => {
    const plan = await startPlan({ donorEmail: 'rhea@example.org' });
    const short = await change(plan.id, { action: 'cancel', cancelReason: 'no' });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({ fieldErrors: { cancelReason: expect.stringMatching(/at least 3 characters/) } });
    expect((await change(plan.id, { action: 'cancel', cancelReason: 'x'.repeat(501) })).statusCode).toBe(400);
    expect((await planRow(plan.id)).status).toBe('active');
    const cancelled = await change(plan.id, { action: 'cancel', cancelReason: '  Donor lost her job; call again in spring  ' });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(StaffPlanChangeAnswerSchema.parse(cancelled.json()).plan).toMatchObject({ status: 'cancelled', cancelReason: 'Donor lost her job; call again in spring' });
    expect((await planRow(plan.id)).cancelReason).toBe('Donor lost her job; call again in spring');
    expect((await auditOf(plan.id)).find((entry) => entry.action === 'plan.cancel')).toMatchObject({
      actorEmail: finance.staffMember.email,
      details: { reason: 'Donor lost her job; call again in spring', refundLastCharge: false },
    });
    expect((await detail(plan.id)).cancelReason).toBe('Donor lost her job; call again in spring');
  });

  it('counts the same charges so far on the donation, donor and plan pages: every charge made, a refunded one included, not a declined try', async () => {
    const plan = await startPlan({ donorEmail: 'Sol@Example.org' });
    await runAt('2027-02-28T01:00:00Z');
    const [renewal] = await renewals(plan.id);
    expect(renewal?.status).toBe('succeeded');
    // The first gift refunded in full still counts as a charge made.
    const refunded = await change(plan.id, { action: 'cancel', cancelReason: 'Asked by phone', refundLastCharge: true, reason: 'Charged twice by mistake' }, finance, { 'idempotency-key': randomUUID() });
    expect(refunded.statusCode, refunded.body).toBe(200);
    const onPlanPage = (await detail(plan.id)).chargeCount;
    const onDonationPage = (await staff('GET', staffApiPath(STAFF_API.donation, plan.firstDonationId), viewer)).json().plan.chargeCount;
    const onRenewalPage = (await staff('GET', staffApiPath(STAFF_API.donation, renewal!.id), viewer)).json().plan.chargeCount;
    const onDonorPage = (await staff('GET', staffApiPath(STAFF_API.donor, donorKeyOf('sol@example.org')), viewer)).json().plans[0].chargeCount;
    expect([onPlanPage, onDonationPage, onRenewalPage, onDonorPage]).toEqual([2, 2, 2, 2]);
  });
});
