import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CSRF_HEADER_NAME } from '../../shared/api';
import { RESEND_RECEIPTS_PATH } from '../../shared/receipts';
import { adminDonationRefundPath, ADMIN_STATEMENTS_RUN_PATH } from '../admin/paths';
import { donations, receipts } from '../db/schema';
import { manualClock } from '../platform/clock';
import { startSmtpTestServer, type SmtpTestServer } from '../testing/smtp-test-server';
import { createTestApp, validSubmission, type CsrfCredentials, type TestApp } from '../testing/test-app';
import { RESEND_WINDOW_MS } from './resend';

/**
 * The receipt messages after a gift speak the donor's language (issue #24; decision 0094), through the real app, its
 * outbox and relay, and a real SMTP server: a refund's notices (partial and void) in the gift's language; the
 * receipts-again e-mail in the language of the page the donor asked from (the gift's when the request names none);
 * the year-end statement in the donor's latest gift's language. Links lead to that language's pages.
 */

const ADMIN_TOKEN = 'b'.repeat(20) + '-notice-language-token';
const YEAR = new Date().getUTCFullYear();
const clock = manualClock(new Date());
let smtp: SmtpTestServer;
let t: TestApp;
let csrf: CsrfCredentials;
beforeAll(async () => {
  smtp = await startSmtpTestServer();
  t = await createTestApp({ env: { SMTP_URL: smtp.url, ADMIN_TOKEN, PUBLIC_URL: 'https://give.example.org' }, clock });
  csrf = await t.csrf();
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});
beforeEach(async () => {
  await t.reset();
  smtp.received.length = 0;
  clock.set(new Date());
});

/** A succeeded $`amount` gift by rosa@example.org made from a page in `locale`; resolves with its donation id and receipt number. */
async function gift(amount: number, locale: 'en' | 'es'): Promise<{ id: string; number: string }> {
  const answer = await t.postDonation({ ...validSubmission({ amount, donorEmail: 'rosa@example.org' }), locale });
  expect(answer.statusCode).toBe(200);
  const transactionId = answer.json<{ data: { transactionId: string } }>().data.transactionId;
  const [row] = await t.db
    .select({ id: donations.id, number: receipts.number })
    .from(donations)
    .innerJoin(receipts, eq(receipts.donationId, donations.id))
    .where(eq(donations.gatewayTransactionId, transactionId));
  if (!row) throw new Error('no receipt for the gift');
  return row;
}

/** Sends what the outbox holds, the clock a second past the machine's (outbox rows are due by the database's clock). */
async function relay(): Promise<void> {
  clock.set(new Date(Math.max(clock.now().getTime(), Date.now()) + 1000));
  await t.app.mail.relayDue();
}

/** The messages sent so far whose subject matches `subject`. */
const sentWith = (subject: RegExp): ParsedMail[] => smtp.received.filter((mail) => subject.test(mail.subject ?? ''));

const refund = (donationId: string, body: object) =>
  t.app.inject({
    method: 'POST',
    url: adminDonationRefundPath(donationId),
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'idempotency-key': randomUUID() },
    payload: body,
  });

const resend = (body: object) =>
  t.app.inject({ method: 'POST', url: RESEND_RECEIPTS_PATH, headers: { cookie: csrf.cookie, [CSRF_HEADER_NAME]: csrf.token }, payload: body });

describe("the receipt messages after a gift, in the donor's language", () => {
  it("a Spanish gift's partial-refund and void notices are Spanish, with 25 US$ and the Spanish receipts page", async () => {
    const { id, number } = await gift(25, 'es');
    expect((await refund(id, { amount: 10 })).statusCode).toBe(200);
    expect((await refund(id, {})).statusCode).toBe(200);
    await relay();

    const [partial] = sentWith(/^Reembolso de/);
    expect(partial?.subject).toBe(`Reembolso de 10\u00a0US$: corregimos el recibo ${number}`);
    expect(partial?.text).toContain('te reembolsamos 10\u00a0US$ de tu donación de 25\u00a0US$');
    expect(partial?.text).toContain(`El recibo ${number} ahora corresponde a 15\u00a0US$`);
    expect(partial?.text).toContain('Descarga tu recibo (PDF)');
    expect(partial?.html).toContain('lang="es"');
    expect(partial?.text).toContain('https://give.example.org/es/donate/receipts');

    const [voided] = sentWith(/anulado$/);
    expect(voided?.subject).toBe(`El recibo ${number} quedó anulado`);
    expect(voided?.text).toContain(`Tu donación de 25\u00a0US$ del`);
    expect(voided?.text).toContain(`así que el recibo ${number} ya no es válido`);
    expect(voided?.text).toContain('https://give.example.org/es/donate/receipts');
    for (const mail of [partial, voided]) expect(mail?.text).not.toMatch(/refunded|Receipt |your donation/);
  });

  it('an English gift keeps its English notices', async () => {
    const { id, number } = await gift(25, 'en');
    await refund(id, { amount: 10 });
    await relay();
    const [partial] = sentWith(/^Refund of/);
    expect(partial?.subject).toBe(`Refund of $10.00 USD: receipt ${number} corrected`);
    expect(partial?.text).toContain('https://give.example.org/donate/receipts');
  });

  it("the receipts-again e-mail is in the asking page's language, else in the latest gift's", async () => {
    const first = await gift(25, 'es');
    const second = await gift(40, 'es');
    await relay();
    smtp.received.length = 0;

    expect((await resend({ email: 'rosa@example.org', locale: 'es' })).statusCode).toBe(202);
    await relay();
    const [spanish] = sentWith(/^Tus recibos de donación de /);
    expect(spanish?.text).toContain('Pediste los recibos de las donaciones hechas con este correo electrónico.');
    expect(spanish?.text).toContain(`Recibo ${first.number} (PDF)`);
    expect(spanish?.text).toContain(`Recibo ${second.number} (PDF)`);
    expect(spanish?.text).toContain('40\u00a0US$');
    expect(spanish?.text).toContain('https://give.example.org/es/donate/receipts');

    // An hour later, the same donor asks from the English page: English, whatever language they gave in.
    clock.set(new Date(clock.now().getTime() + RESEND_WINDOW_MS));
    await resend({ email: 'rosa@example.org', locale: 'en' });
    await relay();
    const [english] = sentWith(/^Your donation receipts from /);
    expect(english?.text).toContain(`Receipt ${second.number} (PDF)`);
    expect(english?.text).toContain('$40.00 USD');

    // A request that names no language (an older page) gets the latest gift's.
    clock.set(new Date(clock.now().getTime() + RESEND_WINDOW_MS));
    await resend({ email: 'rosa@example.org' });
    await relay();
    expect(sentWith(/^Tus recibos de donación de /)).toHaveLength(2);
  });

  it("the year-end statement is in the donor's latest gift's language", async () => {
    await gift(30, 'en');
    await gift(12.5, 'es');
    await relay();
    smtp.received.length = 0;
    // An operator may only ask for a year that is over: the clock moves into next January.
    clock.set(new Date(Date.UTC(YEAR + 1, 0, 10, 9)));
    const run = await t.app.inject({ method: 'POST', url: ADMIN_STATEMENTS_RUN_PATH, headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, payload: { year: YEAR } });
    expect(run.json()).toEqual({ queued: 1 });
    await relay();
    const [statement] = sentWith(/^Tus donaciones de /);
    expect(statement?.subject).toMatch(new RegExp(`^Tus donaciones de ${YEAR} a `));
    expect(statement?.html).toContain(`Tus donaciones en ${YEAR}`);
    expect(statement?.text).toContain('Total del año: 42,50\u00a0US$');
    expect(statement?.html).toContain('lang="es"');
  });
});
