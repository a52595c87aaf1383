import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { asc, isNotNull } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ApiErrorSchema } from '../../shared/api';
import { donations, recurringPlans } from '../db/schema';
import { manualClock } from '../platform/clock';
import { createTestApp, validSubmission, type TestApp } from '../testing/test-app';

/**
 * The donor's language is recorded (issue #24; decision 0094): the submission's `locale` on the donation, a plan
 * takes its first gift's, a renewal the plan's; a language not in LOCALES is refused before anything is written.
 */

const clock = manualClock(new Date('2027-01-10T15:00:00Z'));
let t: TestApp;
let mailDir: string;
beforeAll(async () => {
  mailDir = await mkdtemp(path.join(tmpdir(), 'donor-locale-mail-'));
  t = await createTestApp({ clock, env: { MAIL_DIR: mailDir, PUBLIC_URL: 'https://give.example.org' } });
});
afterAll(async () => {
  await t?.close();
  await rm(mailDir, { recursive: true, force: true });
});

/** The e-mails the relay wrote into MAIL_DIR so far, parsed. */
async function mails() {
  const files = (await readdir(mailDir)).filter((file) => file.endsWith('.eml'));
  return Promise.all(files.map(async (file) => simpleParser(await readFile(path.join(mailDir, file)))));
}
beforeEach(async () => {
  await t.reset();
});

describe('the donor locale', () => {
  it('a Spanish monthly gift stores es on the donation and its plan, and the renewal a month later inherits it', async () => {
    clock.set(new Date('2027-01-10T15:00:00Z'));
    const answer = await t.postDonation({ ...validSubmission({ amount: 25, frequency: 'monthly' }), locale: 'es' });
    expect(answer.statusCode).toBe(200);
    const [plan] = await t.db.select().from(recurringPlans);
    expect(plan?.locale).toBe('es');
    clock.set(new Date('2027-02-10T15:00:00Z'));
    await t.app.billing.run();
    const gifts = await t.db
      .select({ period: donations.recurringPeriod, status: donations.status, locale: donations.locale })
      .from(donations)
      .where(isNotNull(donations.recurringPlanId))
      .orderBy(asc(donations.recurringPeriod));
    expect(gifts).toEqual([
      { period: 0, status: 'succeeded', locale: 'es' },
      { period: 1, status: 'succeeded', locale: 'es' },
    ]);
    // The renewal's notice (its receipt) a month later is Spanish too, with the Spanish manage page's link.
    await t.app.mail.relayDue();
    const sent = await mails();
    expect(sent.map((mail) => mail.subject)).toEqual([expect.stringMatching(/^Tu recibo .*25\sUS\$/), expect.stringMatching(/^Tu recibo .*25\sUS\$/)]);
    for (const mail of sent) {
      expect(mail.html).toMatch(/https:\/\/give\.example\.org\/es\/donate\/manage\/[\w.-]+/);
      expect(mail.html).toContain('Administra tu donación recurrente');
      expect(mail.text).toContain('Próximo cobro');
    }
  });

  it('a gift without a locale is stored in English', async () => {
    const answer = await t.postDonation(validSubmission());
    expect(answer.statusCode).toBe(200);
    const [row] = await t.db.select({ locale: donations.locale }).from(donations);
    expect(row).toEqual({ locale: 'en' });
  });

  it.each([['fr'], [123], ['']])('a locale of %j answers 400 invalid_input and writes nothing', async (locale) => {
    const answer = await t.postDonation({ ...validSubmission(), locale });
    expect(answer.statusCode).toBe(400);
    const body = ApiErrorSchema.parse(answer.json());
    expect(body).toMatchObject({ code: 'invalid_input', fieldErrors: { locale: 'locale must be one of: en, es' } });
    expect(await t.countDonations()).toBe(0);
  });

  it('the database holds any language tag (a third language needs no migration) and refuses what is none', async () => {
    expect((await t.postDonation(validSubmission())).statusCode).toBe(200);
    // NOTE: the casts stand for a language added to LOCALES later; the API admits only LOCALES (see above).
    await t.db.update(donations).set({ locale: 'pt-BR' as 'en' });
    expect(await t.db.select({ locale: donations.locale }).from(donations)).toEqual([{ locale: 'pt-BR' }]);
    for (const locale of ['', 'English', 'es_ES', "es'; --"]) {
      await expect(t.db.update(donations).set({ locale: locale as 'en' }), locale).rejects.toThrow();
    }
    expect(await t.db.select({ locale: donations.locale }).from(donations)).toEqual([{ locale: 'pt-BR' }]);
  });
});
