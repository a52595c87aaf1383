import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CSRF_HEADER_NAME } from '../../shared/api';
import { MANAGE_PLAN_API_PATH } from '../../shared/recurring';
import { donations, recurringPlans } from '../db/schema';
import { manualClock } from '../platform/clock';
import { createTestApp, validSubmission, type CsrfCredentials, type TestApp } from '../testing/test-app';
import { createManageLinkSigner } from './manage-link';

/**
 * A recurring gift whose donor covers the card fee (issue #23, section 2: "Recurring gifts keep the choice for every
 * renewal; the manage link can turn it off"), through the real app, database, test gateway and billing run.
 */

const clock = manualClock(new Date('2027-01-31T15:00:00Z'));
let t: TestApp;
let csrf: CsrfCredentials;
beforeAll(async () => {
  t = await createTestApp({ clock, env: { CAMPAIGNS: 'spring-appeal' } });
  csrf = await t.csrf();
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await t.reset();
  clock.set(new Date('2027-01-31T15:00:00Z'));
});

/** Gives $30 monthly covering the fee ($31.21: (30.00 + 0.30) / 0.971 rounded up) by the spring-appeal link; returns the plan's id and manage token. */
async function startCoveringPlan() {
  const answer = await t.postDonation(validSubmission({ amount: 30, frequency: 'monthly', coverFee: true, campaign: 'spring-appeal' }));
  expect(answer.statusCode, answer.body).toBe(200);
  const [plan] = await t.db.select().from(recurringPlans).orderBy(asc(recurringPlans.createdAt));
  const id = plan?.id ?? '';
  return { id, token: createManageLinkSigner(t.config.cookieSecret).sign(id, clock.now()) };
}

const apiPath = (token: string) => MANAGE_PLAN_API_PATH.replace(':token', token);
const change = (token: string, body: object) =>
  t.app.inject({ method: 'POST', url: apiPath(token), headers: { cookie: csrf.cookie, [CSRF_HEADER_NAME]: csrf.token }, payload: body });
const runAt = (instant: string) => {
  clock.set(new Date(instant));
  return t.app.billing.run();
};
/** The succeeded charge of `planId`'s `period`. */
async function chargeOf(planId: string, period: number) {
  const [row] = await t.db
    .select()
    .from(donations)
    .where(and(eq(donations.recurringPlanId, planId), eq(donations.recurringPeriod, period), eq(donations.status, 'succeeded')));
  return row;
}

describe('a monthly gift that covers the card fee', () => {
  it('keeps the gift and the fee apart on its plan, and every renewal charges both, in the same campaign', async () => {
    const { id, token } = await startCoveringPlan();
    expect((await t.db.select().from(recurringPlans).where(eq(recurringPlans.id, id)))[0]).toMatchObject({ amountCents: 3000, feeCoveredCents: 121 });
    expect(await chargeOf(id, 0)).toMatchObject({ amountCents: 3121, feeCoveredCents: 121, campaign: 'spring-appeal' });
    expect((await t.app.inject({ method: 'GET', url: apiPath(token) })).json()).toMatchObject({ data: { amount: 30, feeCovered: 1.21 } });

    await runAt('2027-02-28T15:00:00Z');
    expect(await chargeOf(id, 1)).toMatchObject({ amountCents: 3121, feeCoveredCents: 121, campaign: 'spring-appeal' });
  });

  it('stops adding the fee once the donor turns it off with the manage link', async () => {
    const { id, token } = await startCoveringPlan();
    const stopped = await change(token, { action: 'stop_covering_fee' });
    expect(stopped.statusCode, stopped.body).toBe(200);
    expect(stopped.json()).toMatchObject({ data: { amount: 30, feeCovered: 0 } });

    await runAt('2027-02-28T15:00:00Z');
    expect(await chargeOf(id, 1)).toMatchObject({ amountCents: 3000, feeCoveredCents: 0 });
  });

  it('covers the fee of a new amount the donor sets, computed on it', async () => {
    const { id, token } = await startCoveringPlan();
    expect((await change(token, { action: 'change_amount', amount: 40 })).statusCode).toBe(200);
    // (40.00 + 0.30) / 0.971 = 41.503..., rounded up: $41.51.
    expect((await t.db.select().from(recurringPlans).where(eq(recurringPlans.id, id)))[0]).toMatchObject({ amountCents: 4000, feeCoveredCents: 151 });
    await runAt('2027-02-28T15:00:00Z');
    expect(await chargeOf(id, 1)).toMatchObject({ amountCents: 4151, feeCoveredCents: 151 });
  });
});
