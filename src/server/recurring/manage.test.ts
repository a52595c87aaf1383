import { asc, eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CSRF_HEADER_NAME } from '../../shared/api';
import { managePlanPagePath, MANAGE_CARD_SETUP_API_PATH, MANAGE_LINKS_API_PATH, MANAGE_PLAN_API_PATH } from '../../shared/recurring';
import { MANAGE_LINKS_CONFIRMATION, PLAN_CHANGE_NOT_ALLOWED_MESSAGE } from '../../shared/recurring-api';
import { createCapabilitySigner } from '../platform/capability-link';
import { mailOutbox, recurringPlans } from '../db/schema';
import { manualClock } from '../platform/clock';
import { ATTACHES_THEN_DECLINES_CARD } from '../payments/test-vault';
import { createTestApp, FUTURE_EXPIRY_YEAR, validSubmission, type CsrfCredentials, type TestApp } from '../testing/test-app';
import { createManageLinkSigner } from './manage-link';

/**
 * The donor's manage link (issue #13): GET reads the plan and changes nothing; each change is a CSRF-checked POST,
 * takes effect from the next charge and is confirmed by e-mail; a cancelled plan is never charged again;
 * /api/recurring/manage-links answers 202 whatever the address.
 */

const clock = manualClock(new Date('2027-01-31T15:00:00Z'));
let t: TestApp;
let csrf: CsrfCredentials;
beforeAll(async () => {
  t = await createTestApp({ clock });
  csrf = await t.csrf();
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await t.reset();
  clock.set(new Date('2027-01-31T15:00:00Z'));
});

/** Gives $30 monthly and returns the plan's id and its manage token. */
async function startPlan(email = 'ana@example.org') {
  expect((await t.postDonation(validSubmission({ amount: 30, frequency: 'monthly', donorEmail: email }))).statusCode).toBe(200);
  const [plan] = await t.db.select().from(recurringPlans).orderBy(asc(recurringPlans.createdAt));
  const id = plan?.id ?? '';
  return { id, token: createManageLinkSigner(t.config.cookieSecret).sign(id, clock.now()) };
}

const apiPath = (token: string) => MANAGE_PLAN_API_PATH.replace(':token', token);
const read = (token: string) => t.app.inject({ method: 'GET', url: apiPath(token) });
const change = (token: string, body: object, credentials: CsrfCredentials | null = csrf) =>
  t.app.inject({ method: 'POST', url: apiPath(token), headers: credentials ? { cookie: credentials.cookie, [CSRF_HEADER_NAME]: credentials.token } : {}, payload: body });
const planMail = async () =>
  (await t.db.select({ kind: mailOutbox.kind }).from(mailOutbox).where(isNotNull(mailOutbox.recurringPlanId))).map((row) => row.kind);
const runAt = (instant: string) => {
  clock.set(new Date(instant));
  return t.app.billing.run();
};

describe('reading a plan with its manage link', () => {
  it('shows the plan (amount, frequency, cause, next charge, card, status, charges) and changes nothing', async () => {
    const { id, token } = await startPlan();
    const before = await t.db.select().from(recurringPlans).where(eq(recurringPlans.id, id));
    const answer = await read(token);
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({
      success: true,
      data: {
        amount: 30,
        feeCovered: 0,
        currency: 'USD',
        frequency: 'monthly',
        cause: 'research-science',
        status: 'active',
        nextChargeOn: '2027-02-28',
        pausedUntil: null,
        anchorDate: '2027-01-31',
        card: { brand: 'visa', last4: '4242', expiryMonth: 12, expiryYear: Number(FUTURE_EXPIRY_YEAR) },
        charges: [{ date: '2027-01-31', amount: 30, status: 'succeeded' }],
        paymentToConfirm: null,
      },
    });
    expect(await t.db.select().from(recurringPlans).where(eq(recurringPlans.id, id))).toEqual(before);
    expect(await planMail()).toEqual([]);
    expect(managePlanPagePath(token)).toBe(`/donate/manage/${token}`);
  });

  it('answers the same 404 for a forged, altered, other-purpose or unknown token', async () => {
    const { id, token } = await startPlan();
    const forged = createCapabilitySigner(Buffer.alloc(32, 7), { purpose: 'recurring-plan', validDays: 10 }).sign(id, clock.now());
    const receiptKind = createCapabilitySigner(Buffer.alloc(32, 7), { purpose: 'receipt-pdf', validDays: 10 }).sign(id, clock.now());
    const altered = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');
    for (const bad of [forged, receiptKind, altered, 'nothing']) {
      expect((await read(bad)).statusCode, bad).toBe(404);
      expect((await change(bad, { action: 'cancel' })).statusCode, bad).toBe(404);
    }
  });
});

describe('changing a plan', () => {
  it('refuses a change without the CSRF token', async () => {
    const { token } = await startPlan();
    expect((await change(token, { action: 'cancel' }, null)).statusCode).toBe(403);
    expect((await read(token)).json()).toMatchObject({ data: { status: 'active' } });
  });

  it('refuses Stripe SetupIntents in test mode (the card fields post the card)', async () => {
    const { token } = await startPlan();
    const setup = await t.app.inject({ method: 'POST', url: MANAGE_CARD_SETUP_API_PATH.replace(':token', token), headers: { cookie: csrf.cookie, [CSRF_HEADER_NAME]: csrf.token }, payload: {} });
    expect(setup.statusCode).toBe(400);
    expect((await change(token, { action: 'use_setup_intent', setupIntentId: 'seti_123' })).statusCode).toBe(400);
  });

  it('changes the amount from the next charge and the cause, each confirmed by e-mail', async () => {
    const { token } = await startPlan();
    expect((await change(token, { action: 'change_amount', amount: 0.5 })).statusCode).toBe(400);
    expect((await change(token, { action: 'change_amount', amount: 45 })).json()).toMatchObject({ data: { amount: 45 } });
    expect((await change(token, { action: 'change_cause', cause: 'education-outreach' })).json()).toMatchObject({ data: { cause: 'education-outreach' } });
    expect(await planMail()).toEqual(['plan_changed', 'plan_changed']);
    expect(await runAt('2027-02-28T00:00:00Z')).toMatchObject({ charged: 1 });
    expect((await read(token)).json()).toMatchObject({ data: { charges: [{ date: '2027-02-28', amount: 45, status: 'succeeded' }, { amount: 30 }] } });
  });

  it('pauses until resumed (nothing charged meanwhile), then resumes on the next calendar date', async () => {
    const { token } = await startPlan();
    expect((await change(token, { action: 'resume' })).statusCode).toBe(409);
    expect((await change(token, { action: 'pause' })).json()).toMatchObject({ data: { status: 'paused', nextChargeOn: null } });
    expect(await runAt('2027-03-31T00:00:00Z')).toEqual({ charged: 0, failed: 0, skipped: 0 });
    clock.set(new Date('2027-04-10T08:00:00Z'));
    expect((await change(token, { action: 'resume' })).json()).toMatchObject({ data: { status: 'active', nextChargeOn: '2027-04-30' } });
    expect(await runAt('2027-04-30T00:00:00Z')).toEqual({ charged: 1, failed: 0, skipped: 0 });
  });

  it('a past-due plan paused and resumed on its due day is tried again at once, with the card updated meanwhile', async () => {
    const { token } = await startPlan();
    const card = (number: string) => ({ number, holderName: 'Ana Reef', expiryMonth: '11', expiryYear: FUTURE_EXPIRY_YEAR, cvv: '123' });
    expect((await change(token, { action: 'update_card', creditCard: card(ATTACHES_THEN_DECLINES_CARD) })).statusCode).toBe(200);
    expect(await runAt('2027-02-28T00:00:00Z')).toEqual({ charged: 0, failed: 1, skipped: 0 });
    clock.set(new Date('2027-02-28T09:00:00Z'));
    expect((await change(token, { action: 'pause' })).json()).toMatchObject({ data: { status: 'paused' } });
    expect((await change(token, { action: 'resume' })).json()).toMatchObject({ data: { status: 'active', nextChargeOn: '2027-02-28' } });
    expect((await change(token, { action: 'update_card', creditCard: card('5555555555554444') })).statusCode).toBe(200);
    expect(await runAt('2027-02-28T10:00:00Z')).toEqual({ charged: 1, failed: 0, skipped: 0 });
    expect((await read(token)).json()).toMatchObject({ data: { status: 'active', nextChargeOn: '2027-03-31' } });
    expect(await runAt('2027-02-28T11:00:00Z')).toEqual({ charged: 0, failed: 0, skipped: 0 });
  });

  it('pauses until a date after today, and billing resumes it on that date', async () => {
    const { token } = await startPlan();
    expect((await change(token, { action: 'pause', until: '2027-01-31' })).statusCode).toBe(400);
    // Not a calendar date, or further than a year: refused, nothing changed.
    for (const until of ['2027-02-30', '2027-13-01', '9999-12-31', '2028-03-01']) {
      const refused = await change(token, { action: 'pause', until });
      expect(refused.statusCode, until).toBe(400);
      expect(refused.json<{ fieldErrors?: Record<string, string> }>().fieldErrors?.until, until).toBeTruthy();
    }
    expect((await read(token)).json()).toMatchObject({ data: { status: 'active' } });
    expect((await change(token, { action: 'pause', until: '2027-04-15' })).json()).toMatchObject({ data: { status: 'paused', pausedUntil: '2027-04-15' } });
    expect(await runAt('2027-03-31T00:00:00Z')).toEqual({ charged: 0, failed: 0, skipped: 0 });
    expect(await runAt('2027-04-15T00:00:00Z')).toEqual({ charged: 0, failed: 0, skipped: 0 });
    expect((await read(token)).json()).toMatchObject({ data: { status: 'active', nextChargeOn: '2027-04-30', pausedUntil: null } });
    expect(await runAt('2027-04-30T00:00:00Z')).toEqual({ charged: 1, failed: 0, skipped: 0 });
  });

  it('updates the card with the spec card fields (a refused card changes nothing), never storing the number', async () => {
    const { id, token } = await startPlan();
    const card = (number: string) => ({ number, holderName: 'Ana Reef', expiryMonth: '11', expiryYear: FUTURE_EXPIRY_YEAR, cvv: '123' });
    expect((await change(token, { action: 'update_card', creditCard: card('4000000000009995') })).statusCode).toBe(402);
    const updated = await change(token, { action: 'update_card', creditCard: card('5555555555554444') });
    expect(updated.json()).toMatchObject({ data: { card: { brand: 'mastercard', last4: '4444', expiryMonth: 11 } } });
    const [row] = await t.db.select().from(recurringPlans).where(eq(recurringPlans.id, id));
    expect(JSON.stringify(row)).not.toContain('5555555555554444');
  });

  it('cancels with one POST; a cancelled plan takes no change and is never charged again', async () => {
    const { token } = await startPlan();
    expect((await change(token, { action: 'cancel' })).json()).toMatchObject({ data: { status: 'cancelled', nextChargeOn: null } });
    for (const body of [{ action: 'resume' }, { action: 'cancel' }, { action: 'change_amount', amount: 10 }]) {
      const refused = await change(token, body);
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toEqual({ success: false, error: PLAN_CHANGE_NOT_ALLOWED_MESSAGE, code: 'plan_change_not_allowed' });
    }
    for (const instant of ['2027-02-28T00:00:00Z', '2027-03-31T00:00:00Z', '2028-01-31T00:00:00Z']) {
      expect(await runAt(instant)).toEqual({ charged: 0, failed: 0, skipped: 0 });
    }
  });
});

describe('asking for the manage links', () => {
  it('answers 202 with one sentence whatever the address, and e-mails an address with plans once per hour', async () => {
    await startPlan('Ana@Example.org');
    const ask = (email: string) =>
      t.app.inject({ method: 'POST', url: MANAGE_LINKS_API_PATH, headers: { cookie: csrf.cookie, [CSRF_HEADER_NAME]: csrf.token }, payload: { email } });
    for (const email of ['nobody@example.org', 'ana@example.org', 'ANA@example.org']) {
      const answer = await ask(email);
      expect(answer.statusCode).toBe(202);
      expect(answer.json()).toEqual({ success: true, message: MANAGE_LINKS_CONFIRMATION });
    }
    const links = await t.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'manage_links'));
    expect(links.map((row) => row.recipient)).toEqual(['Ana@Example.org']);
    expect(await t.app.mail.relayDue()).toMatchObject({ failed: 0 });
  });
});
