import { randomUUID } from 'node:crypto';
import { desc } from 'drizzle-orm';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Locale } from '../../../shared/i18n/locales';
import { STAFF_API, staffApiPath } from '../../../shared/staff/paths';
import { recurringPlans, type RecurringPlanRow } from '../../db/schema';
import type { PaymentGateway } from '../../payments/gateway';
import { createTestGateway } from '../../payments/test-gateway';
import { manualClock } from '../../platform/clock';
import { CANCELLATION_MAIL_HOLD_MS } from '../../recurring/plan-change-mail';
import { signInStaffForTest } from '../identity/testing/staff-session';
import { startSmtpTestServer, type SmtpTestServer } from '../../testing/smtp-test-server';
import { createTestApp, validSubmission, type TestApp } from '../../testing/test-app';
import { changePlanForStaff } from './actions';

/**
 * The donor's e-mail of a plan staff cancel (issue #32, part 5; decision 0097b), through the real relay and SMTP test
 * server, in English and Spanish: a cancellation's own message; with the last charge refunded in the same step, it says
 * so ("cancelled with refund") and counts what was given without the refunded gift. The message waits for the refund
 * (held CANCELLATION_MAIL_HOLD_MS), goes as soon as the refund is made or fails, and after the hold if the process
 * died in between.
 */

const PUBLIC_URL = 'https://give.example.org';
const clock = manualClock(new Date('2027-01-31T15:00:00Z'));
let smtp: SmtpTestServer;
let t: TestApp;
let refundsFail = false;
beforeAll(async () => {
  smtp = await startSmtpTestServer();
  const inner = createTestGateway();
  const gateway: PaymentGateway = { ...inner, refund: (request) => (refundsFail ? Promise.reject(new Error('gateway unreachable (test fault)')) : inner.refund(request)) };
  t = await createTestApp({ clock, gateway, env: { PUBLIC_URL, SMTP_URL: smtp.url } });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});
beforeEach(async () => {
  refundsFail = false;
  await t.reset();
  clock.set(new Date('2027-01-31T15:00:00Z'));
});

/** Gives $30 monthly on the `locale` pages; with `renewed`, the billing run charges its February renewal too. */
async function startPlan(locale: Locale, renewed: boolean): Promise<RecurringPlanRow> {
  expect((await t.postDonation(validSubmission({ amount: 30, frequency: 'monthly', donorEmail: 'ana@example.org', locale }))).statusCode).toBe(200);
  if (renewed) {
    clock.set(new Date('2027-02-28T01:00:00Z'));
    expect(await t.app.billing.run()).toMatchObject({ charged: 1 });
  }
  const [plan] = await t.db.select().from(recurringPlans).orderBy(desc(recurringPlans.createdAt)).limit(1);
  if (!plan) throw new Error('no plan');
  return plan;
}

/** A finance member cancels plan `planId` as the staff page does, refunding its last charge; resolves with the status. */
async function cancelWithRefund(planId: string): Promise<number> {
  const finance = await signInStaffForTest(t.app, t.db, { role: 'finance', now: clock.now() });
  const answer = await t.app.inject({
    method: 'POST',
    url: staffApiPath(STAFF_API.planChanges, planId),
    headers: { ...finance.headers, 'idempotency-key': randomUUID() },
    payload: { action: 'cancel', refundLastCharge: true, reason: 'Donor phoned to stop' },
  });
  return answer.statusCode;
}

/** Relays what is due and returns the plan messages received (a receipt's void notice left out). */
async function planMailSent(): Promise<ParsedMail[]> {
  smtp.received.length = 0;
  expect(await t.app.mail.relayDue()).toMatchObject({ failed: 0 });
  return smtp.received.filter((mail) => /cancel/i.test(mail.subject ?? ''));
}

describe('a plan staff cancel, refunding its last charge', () => {
  it('tells an English donor the gift is cancelled and its last charge refunded, and what was kept of her gifts', async () => {
    const plan = await startPlan('en', true);
    expect(await cancelWithRefund(plan.id)).toBe(200);
    const [mail, ...more] = await planMailSent();
    expect(more).toEqual([]);
    expect(mail?.subject).toBe('Your $30.00 USD monthly gift is cancelled and its last charge refunded');
    expect(mail?.text).toContain('Your $30.00 USD monthly gift is cancelled: there will be no further charges to your card.');
    expect(mail?.text).toContain('Through it you gave $30.00 USD in 1 gift. Thank you for it.');
    expect(mail?.text).toContain('We also refunded $30.00 USD of your last gift to your card; your bank may take a few days to show it.');
    expect(mail?.text).toContain(`${PUBLIC_URL}/donate\n`);
    expect(mail?.text).not.toMatch(/now \$|was changed/);
  });

  it('tells a Spanish donor in Spanish, with the Spanish donation page', async () => {
    const plan = await startPlan('es', false);
    expect(await cancelWithRefund(plan.id)).toBe(200);
    const [mail, ...more] = await planMailSent();
    expect(more).toEqual([]);
    expect(mail?.subject).toBe('Se canceló tu donación de 30\u00a0US$ al mes y se reembolsó su último cargo');
    expect(mail?.text).toContain('Todas las donaciones hechas con ella se reembolsaron: nada de ella queda cobrado a tu tarjeta.');
    expect(mail?.text).toContain('También reembolsamos 30\u00a0US$ de tu última donación a tu tarjeta; tu banco puede tardar unos días en mostrarlo.');
    expect(mail?.text).toContain(`${PUBLIC_URL}/es/donate\n`);
  });

  it('sends the plain cancellation at once when the refund fails', async () => {
    const plan = await startPlan('en', true);
    refundsFail = true;
    expect(await cancelWithRefund(plan.id)).toBe(503);
    const [mail] = await planMailSent();
    expect(mail?.subject).toBe('Your $30.00 USD monthly gift is cancelled');
    expect(mail?.text).toContain('Through it you gave $60.00 USD in 2 gifts. Thank you for them.');
    expect(mail?.text).not.toContain('refunded');
  });

  it('holds the cancellation for its refund, and sends it without one after the hold if the refund never came', async () => {
    const plan = await startPlan('en', false);
    const finance = await signInStaffForTest(t.app, t.db, { role: 'finance', now: clock.now() });
    // The cancel alone, as a process that died before its refund left it.
    const outcome = await changePlanForStaff(
      { db: t.db, gateway: t.gateway, minAmountCents: 100 },
      plan.id,
      { action: 'cancel', refundLastCharge: true, reason: 'Donor phoned' },
      { staffMember: finance.staffMember, requestId: 'test' },
      clock.now(),
    );
    expect(outcome.status).toBe('changed');
    expect(await planMailSent()).toEqual([]);
    clock.advance(CANCELLATION_MAIL_HOLD_MS);
    const [mail] = await planMailSent();
    expect(mail?.subject).toBe('Your $30.00 USD monthly gift is cancelled');
    expect(mail?.text).toContain('Through it you gave $30.00 USD in 1 gift. Thank you for it.');
  });
});
