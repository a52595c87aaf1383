import { desc } from 'drizzle-orm';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CSRF_HEADER_NAME } from '../../shared/api';
import type { Locale } from '../../shared/i18n/locales';
import { MANAGE_PLAN_API_PATH } from '../../shared/recurring';
import { recurringPlans } from '../db/schema';
import { manualClock } from '../platform/clock';
import { startSmtpTestServer, type SmtpTestServer } from '../testing/smtp-test-server';
import { createTestApp, validSubmission, type TestApp } from '../testing/test-app';
import { createManageLinkSigner } from './manage-link';

/**
 * The e-mail of each change a donor makes with the manage link (issue #32, part 5; decision 0097b), as the donor reads
 * it through the real relay and SMTP test server, in English and in Spanish: a change says the gift as it stands now; a
 * pause and a resume say so; a cancellation is its own message (no further charges, what was given, how to give again
 * with the donation page's link), never "now $30.00 USD monthly". The staff's cancel with refund: staff-plans.
 */

const PUBLIC_URL = 'https://give.example.org';
const clock = manualClock(new Date('2027-01-31T15:00:00Z'));
let smtp: SmtpTestServer;
let t: TestApp;
beforeAll(async () => {
  smtp = await startSmtpTestServer();
  t = await createTestApp({ clock, env: { PUBLIC_URL, SMTP_URL: smtp.url } });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});
beforeEach(async () => {
  await t.reset();
  clock.set(new Date('2027-01-31T15:00:00Z'));
  smtp.received.length = 0;
});

/** Gives $30 monthly on the `locale` pages and returns its plan's manage token. */
async function startPlan(locale: Locale): Promise<string> {
  expect((await t.postDonation(validSubmission({ amount: 30, frequency: 'monthly', donorEmail: 'ana@example.org', locale }))).statusCode).toBe(200);
  const [plan] = await t.db.select().from(recurringPlans).orderBy(desc(recurringPlans.createdAt)).limit(1);
  if (!plan) throw new Error('no plan');
  return createManageLinkSigner(t.config.cookieSecret).sign(plan.id, clock.now());
}

/** Makes `body`'s change with the manage link, as the page does, and returns the e-mail it sends, as received. */
async function changeAndRead(token: string, body: object): Promise<ParsedMail> {
  const csrf = await t.csrf();
  const answer = await t.app.inject({
    method: 'POST',
    url: MANAGE_PLAN_API_PATH.replace(':token', token),
    headers: { cookie: csrf.cookie, [CSRF_HEADER_NAME]: csrf.token },
    payload: body,
  });
  expect(answer.statusCode, answer.body).toBe(200);
  smtp.received.length = 0;
  expect(await t.app.mail.relayDue()).toMatchObject({ failed: 0 });
  const plan = smtp.received.filter((mail) => !/receipt|recibo/i.test(mail.subject ?? ''));
  expect(plan).toHaveLength(1);
  return plan[0] as ParsedMail;
}

/** The lines of a message's plain-text part, trimmed. */
const linesOf = (mail: ParsedMail) => (mail.text ?? '').split('\n').map((line) => line.trim());

const MANAGE_LINK = /\/donate\/manage\/[\w-]+\.\d+\.[\w-]{32}/;

describe('the e-mails of a donor changing a plan given in English', () => {
  it('changed, paused, resumed and cancelled each say what happened', async () => {
    const token = await startPlan('en');

    const changed = await changeAndRead(token, { action: 'change_amount', amount: 40 });
    expect(changed.subject).toBe('Your recurring gift was changed: now $40.00 USD monthly');
    expect(changed.text).toContain('Your change is saved and takes effect from the next charge. Here is your gift as it stands now.');
    expect(linesOf(changed)).toContain('Your gift: $40.00 USD monthly');
    expect(changed.html).toMatch(MANAGE_LINK);

    const paused = await changeAndRead(token, { action: 'pause' });
    expect(paused.subject).toBe('Your $40.00 USD monthly gift is paused');
    expect(paused.text).toContain('Your gift is paused: your card will not be charged until you resume it.');
    expect(linesOf(paused)).toContain('Status: Paused');
    expect(paused.text).not.toContain('was changed');

    const resumed = await changeAndRead(token, { action: 'resume' });
    expect(resumed.subject).toBe('Your $40.00 USD monthly gift is active again');
    expect(resumed.text).toContain('Your gift is active again, from the next charge shown below.');
    expect(linesOf(resumed)).toContain('Next charge: 28 February 2027');

    const pausedUntil = await changeAndRead(token, { action: 'pause', until: '2027-05-15' });
    expect(pausedUntil.text).toContain('Your gift is paused until 15 May 2027: your card will not be charged before then, and the gift starts again by itself on that day.');

    const cancelled = await changeAndRead(token, { action: 'cancel' });
    expect(cancelled.subject).toBe('Your $40.00 USD monthly gift is cancelled');
    expect(linesOf(cancelled)).toContain('YOUR RECURRING GIFT IS CANCELLED');
    expect(cancelled.text).toContain('Your $40.00 USD monthly gift is cancelled: there will be no further charges to your card.');
    expect(cancelled.text).toContain('Through it you gave $30.00 USD in 1 gift. Thank you for it.');
    expect(cancelled.text).toContain('Should you wish to give again, one gift or a new recurring one, the link below leads to the donation page.');
    expect(linesOf(cancelled)).toContain('Give again');
    expect(linesOf(cancelled)).toContain(`${PUBLIC_URL}/donate`);
    expect(linesOf(cancelled)).toContain('Status: Cancelled');
    expect(cancelled.html).toContain(`href="${PUBLIC_URL}/donate"`);
    for (const wrong of ['was changed', 'now $', 'takes effect from the next charge', 'If you did not make this change', 'Next charge']) {
      expect(cancelled.text).not.toContain(wrong);
    }
    expect(cancelled.html).not.toMatch(MANAGE_LINK);
  });
});

describe('the e-mails of a donor changing a plan given in Spanish', () => {
  it('changed, paused, resumed and cancelled each say what happened, in Spanish, with the Spanish donation page', async () => {
    const token = await startPlan('es');

    const changed = await changeAndRead(token, { action: 'change_amount', amount: 40 });
    expect(changed.subject).toBe('Se modificó tu donación recurrente: ahora es de 40\u00a0US$ al mes');

    const paused = await changeAndRead(token, { action: 'pause', until: '2027-05-15' });
    expect(paused.subject).toBe('Tu donación de 40\u00a0US$ al mes está en pausa');
    expect(paused.text).toContain('Tu donación está en pausa hasta el 15 de mayo de 2027: no se hará ningún cargo a tu tarjeta antes de esa fecha, y la donación se reanudará sola ese día.');

    const resumed = await changeAndRead(token, { action: 'resume' });
    expect(resumed.subject).toBe('Tu donación de 40\u00a0US$ al mes está activa de nuevo');
    expect(resumed.text).toContain('Tu donación está activa de nuevo, a partir del próximo cargo que ves abajo.');

    const cancelled = await changeAndRead(token, { action: 'cancel' });
    expect(cancelled.subject).toBe('Se canceló tu donación de 40\u00a0US$ al mes');
    expect(linesOf(cancelled)).toContain('SE CANCELÓ TU DONACIÓN RECURRENTE');
    expect(cancelled.text).toContain('Se canceló tu donación de 40\u00a0US$ al mes: no se harán más cargos a tu tarjeta.');
    expect(cancelled.text).toContain('Con ella donaste 30\u00a0US$ en 1 donación. Gracias por ella.');
    expect(linesOf(cancelled)).toContain('Donar de nuevo');
    expect(linesOf(cancelled)).toContain(`${PUBLIC_URL}/es/donate`);
    expect(linesOf(cancelled)).toContain('Estado: Cancelada');
    expect(cancelled.html).toContain(' lang="es"');
    for (const wrong of ['Se modificó', 'ahora es de', 'Próximo cargo', 'Your', 'Give again']) expect(cancelled.text).not.toContain(wrong);
  });
});
