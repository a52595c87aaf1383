import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { desc, eq } from 'drizzle-orm';
import { simpleParser, type ParsedMail } from 'mailparser';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CSRF_HEADER_NAME } from '../../shared/api';
import type { Locale } from '../../shared/i18n/locales';
import { MANAGE_LINKS_API_PATH } from '../../shared/recurring';
import { mailOutbox, recurringPlans } from '../db/schema';
import { manualClock } from '../platform/clock';
import { ATTACHES_THEN_DECLINES_CARD } from '../payments/test-vault';
import { createTestApp, FUTURE_EXPIRY_YEAR, validSubmission, type TestApp } from '../testing/test-app';
import { cardColumnsOf } from './plans';

/**
 * The e-mails of a recurring plan speak the plan's language (issue #24): a Spanish plan's dunning notice is Spanish
 * from subject to footer, its links open the Spanish pages; a manage-links answer speaks the language the donor asked
 * in, or their latest plan's when none was given (links sent by staff), and each of its links opens its own plan's
 * language. English plans' e-mails stay as the spec writes them.
 */

const PUBLIC_URL = 'https://give.example.org';
const clock = manualClock(new Date('2027-01-31T15:00:00Z'));
let t: TestApp;
let mailDir: string;
beforeAll(async () => {
  mailDir = await mkdtemp(path.join(tmpdir(), 'plan-mail-language-'));
  t = await createTestApp({ clock, env: { MAIL_DIR: mailDir, PUBLIC_URL } });
});
afterAll(async () => {
  await t?.close();
  await rm(mailDir, { recursive: true, force: true });
});
beforeEach(async () => {
  await t.reset();
  clock.set(new Date('2027-01-31T15:00:00Z'));
  for (const file of await readdir(mailDir)) await rm(path.join(mailDir, file));
});

/** Gives $30 monthly from `email` on the `locale` pages at `instant` and returns the plan it created. */
async function startPlan(locale: Locale, email = 'ana@example.org', instant = '2027-01-31T15:00:00Z') {
  clock.set(new Date(instant));
  expect((await t.postDonation(validSubmission({ amount: 30, frequency: 'monthly', donorEmail: email, locale }))).statusCode).toBe(200);
  const [plan] = await t.db.select().from(recurringPlans).orderBy(desc(recurringPlans.createdAt)).limit(1);
  if (!plan) throw new Error('no plan');
  expect(plan.locale).toBe(locale);
  return plan;
}

/** Makes the plan's next renewal decline (a card the test vault saves and then declines). */
async function putDecliningCard(planId: string) {
  const saved = await t.gateway.savePaymentMethod({ number: ATTACHES_THEN_DECLINES_CARD, expiryMonth: 12, expiryYear: Number(FUTURE_EXPIRY_YEAR), cvc: '123' });
  if (saved.status !== 'saved') throw new Error('card not saved');
  await t.db.update(recurringPlans).set(cardColumnsOf(saved.paymentMethod)).where(eq(recurringPlans.id, planId));
}

/** Relays the outbox and returns the sent `.eml` files of `kind`, parsed. */
async function sentMail(kind: string): Promise<ParsedMail[]> {
  expect(await t.app.mail.relayDue()).toMatchObject({ failed: 0 });
  const files = (await readdir(mailDir)).filter((file) => file.includes(`-${kind}-`)).sort();
  return Promise.all(files.map(async (file) => simpleParser(await readFile(path.join(mailDir, file)))));
}

/** POSTs /api/recurring/manage-links as the page does, with `locale` when given. */
async function askManageLinks(email: string, locale?: Locale) {
  const csrf = await t.csrf();
  const answer = await t.app.inject({
    method: 'POST',
    url: MANAGE_LINKS_API_PATH,
    headers: { cookie: csrf.cookie, [CSRF_HEADER_NAME]: csrf.token },
    payload: locale ? { email, locale } : { email },
  });
  expect(answer.statusCode).toBe(202);
}

/** The lines of a message's plain-text part. */
const linesOf = (mail: ParsedMail | undefined) => (mail?.text ?? '').split('\n');

/** `30 US$ al mes`, as Intl writes dollars in Spanish: a no-break space before the symbol. */
const ES_GIFT = '30\u00a0US$ al mes';

const MANAGE_LINK = (prefix: '' | '/es') => new RegExp(`${PUBLIC_URL.replaceAll('.', '\\.')}${prefix}/donate/manage/[\\w-]+\\.\\d+\\.[\\w-]{32}`, 'g');

describe('the e-mails of a plan given in Spanish', () => {
  it('a failed renewal and the pause are told in Spanish, with the Spanish receipts and manage pages', async () => {
    const plan = await startPlan('es');
    await putDecliningCard(plan.id);
    // Each message is rendered from the plan as it is when sent: the failure's while past due, the pause's once paused.
    clock.set(new Date('2027-02-28T00:00:00Z'));
    await t.app.billing.run();
    const [failed] = await sentMail('renewal_failed');
    for (const instant of ['2027-03-01T00:00:00Z', '2027-03-03T00:00:00Z', '2027-03-07T00:00:00Z']) {
      clock.set(new Date(instant));
      await t.app.billing.run();
    }
    const [paused] = await sentMail('plan_paused');
    expect(failed?.subject).toBe(`No pudimos cobrar tu donación de ${ES_GIFT}`);
    expect(paused?.subject).toBe(`Tu donación de ${ES_GIFT} está en pausa`);
    expect(failed?.text).toContain(`No pudimos hacer el cargo a tu tarjeta por tu donación de ${ES_GIFT}. Lo intentaremos de nuevo en unos días.`);
    expect(linesOf(failed)).toContain(`Tu donación: ${ES_GIFT}`);
    expect(linesOf(failed)).toContain('Causa: Investigación y Ciencia');
    expect(linesOf(failed)).toContain('Estado: El pago falló: lo intentaremos de nuevo');
    expect(linesOf(failed)).toContain('Próximo cargo: 1 de marzo de 2027');
    expect(linesOf(failed)).toContain('Tarjeta: Visa terminada en 0341');
    expect(failed?.text).toContain('Administra tu donación recurrente');
    expect(linesOf(paused)).toContain('Estado: En pausa');
    for (const mail of [failed, paused]) {
      expect(mail?.html).toContain(' lang="es"');
      expect(mail?.html).toContain(`href="${PUBLIC_URL}/es/donate/receipts"`);
      expect(mail?.html).toMatch(MANAGE_LINK('/es'));
      expect(mail?.html).not.toMatch(MANAGE_LINK(''));
      expect(mail?.text).not.toMatch(/\b(Your gift|Status|Next charge|ending in|Lost a receipt)\b/);
    }
  });

  it('an English plan keeps the spec English e-mail, with the English pages', async () => {
    const plan = await startPlan('en');
    await putDecliningCard(plan.id);
    clock.set(new Date('2027-02-28T00:00:00Z'));
    await t.app.billing.run();
    const [failed] = await sentMail('renewal_failed');
    expect(failed?.subject).toBe('Your $30.00 USD monthly gift could not be charged');
    expect(failed?.text).toContain('We could not charge your card for your $30.00 USD monthly gift. We will try again in a few days.');
    expect(linesOf(failed)).toContain('Your gift: $30.00 USD monthly');
    expect(linesOf(failed)).toContain('Next charge: 1 March 2027');
    expect(failed?.html).toContain(' lang="en"');
    expect(failed?.html).toContain(`href="${PUBLIC_URL}/donate/receipts"`);
    expect(failed?.html).toMatch(MANAGE_LINK(''));
  });
});

describe('the manage links e-mail', () => {
  it('asked for from the Spanish page is Spanish, each link opening its plan in the plan language', async () => {
    await startPlan('en');
    await askManageLinks('ana@example.org', 'es');
    expect((await t.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'manage_links'))).map((row) => row.locale)).toEqual(['es']);
    const [mail] = await sentMail('manage_links');
    expect(mail?.subject).toBe('Enlaces para administrar tus donaciones recurrentes');
    expect(mail?.text).toContain('Pediste los enlaces para administrar las donaciones recurrentes hechas con este correo electrónico.');
    expect(linesOf(mail)).toContain(`Tu donación: ${ES_GIFT}`);
    expect(linesOf(mail)).toContain('Estado: Activa');
    expect(mail?.html).toContain(' lang="es"');
    expect(mail?.html).toContain(`href="${PUBLIC_URL}/es/donate/receipts"`);
    // The plan was given in English: its page opens in English.
    expect(mail?.html).toMatch(MANAGE_LINK(''));
    expect(mail?.html).not.toMatch(MANAGE_LINK('/es'));
  });

  it('asked for without a language (as staff send them) speaks the latest plan language', async () => {
    await startPlan('en', 'ana@example.org', '2027-01-31T15:00:00Z');
    await startPlan('es', 'ana@example.org', '2027-02-10T15:00:00Z');
    await askManageLinks('ana@example.org');
    expect((await t.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'manage_links'))).map((row) => row.locale)).toEqual([null]);
    const [mail] = await sentMail('manage_links');
    expect(mail?.subject).toBe('Enlaces para administrar tus donaciones recurrentes');
    expect(linesOf(mail).filter((line) => line === `Tu donación: ${ES_GIFT}`)).toHaveLength(2);
    expect(mail?.html).toContain(`href="${PUBLIC_URL}/es/donate/receipts"`);
    expect(String(mail?.html).match(MANAGE_LINK(''))).toHaveLength(1);
    expect(String(mail?.html).match(MANAGE_LINK('/es'))).toHaveLength(1);
  });

  it('asked for from the English page stays English', async () => {
    await startPlan('es');
    await askManageLinks('ana@example.org', 'en');
    const [mail] = await sentMail('manage_links');
    expect(mail?.subject).toBe('Links to manage your recurring gifts');
    expect(mail?.text).toContain('You asked for the links to manage the recurring gifts made with this address.');
    expect(linesOf(mail)).toContain('Your gift: $30.00 USD monthly');
    expect(linesOf(mail)).toContain('Card: Visa ending in 4242');
    expect(mail?.html).toContain(' lang="en"');
    expect(mail?.html).toContain(`href="${PUBLIC_URL}/donate/receipts"`);
    expect(mail?.html).toMatch(MANAGE_LINK('/es'));
  });
});
