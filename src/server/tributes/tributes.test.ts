import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { simpleParser, type ParsedMail } from 'mailparser';
import { createElement } from 'react';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { API_PATHS, CreatePaymentIntentSuccessSchema } from '../../shared/api';
import type { DonationSubmissionInput } from '../../shared/donation';
import { UNSUPPORTED_CHARACTERS_MESSAGE } from '../../shared/field-rules';
import type { Tribute } from '../../shared/tribute';
import { EXPORT_FORMATS } from '../../shared/export-formats';
import { ADMIN_DONATIONS_EXPORT_PATH, adminDonationRefundPath } from '../admin/paths';
import { donations, mailOutbox } from '../db/schema';
import { applyPaymentEvent } from '../donations/payment-events';
import { markDonationDisputed } from '../ledger/intent-ledger';
import { cardlessDetails, createTestApp, FUTURE_EXPIRY_YEAR, validSubmission, type TestApp } from '../testing/test-app';
import { DigestEmail } from '../digest/digest-email';
import { loadDailyDigest } from '../digest/report';
import { renderEmailParts } from '../mail/render-email';
import { signInStaffForTest } from '../staff/identity/testing/staff-session';
import { STAFF_API, staffApiPath } from '../../shared/staff/paths';
import { StaffDonationDetailSchema } from '../../shared/staff/donations-api';
import type { Clock } from '../platform/clock';

/**
 * Gifts in honour or in memory of someone (issue #23, section 3), through app.inject on the real app, database, test
 * gateway and mail relay (MAIL_DIR): the `tribute` payload validated on every donation-creating route (bad input 400,
 * nothing written), stored on the donation, the card sent once after the success whatever records it (route, confirm,
 * webhook), never for a decline or a gift refunded before the card went out; the receipt mentions the dedication.
 */

const ADMIN_TOKEN = 'correct-horse-battery-staple-0123456789';
/** How far ahead of the machine's time the app's clock runs: 0 but in the renewal test. */
let clockAheadMs = 0;
/** The app's clock: the machine's time, plus {@link clockAheadMs}. */
const clock: Clock = { now: () => new Date(Date.now() + clockAheadMs) };
let t: TestApp;
let mailDir: string;
beforeAll(async () => {
  mailDir = await mkdtemp(path.join(tmpdir(), 'tribute-mail-'));
  t = await createTestApp({ clock, env: { MAIL_DIR: mailDir, ADMIN_TOKEN, ORG_LEGAL_NAME: 'Reef Trust Ltd', PUBLIC_URL: 'https://give.example.org' } });
});
afterAll(async () => {
  await t?.close();
  await rm(mailDir, { recursive: true, force: true });
});
beforeEach(async () => {
  await t.reset();
  await rm(mailDir, { recursive: true, force: true });
  await mkdir(mailDir, { recursive: true });
});

const IN_MEMORY: Tribute = {
  type: 'memory',
  honoreeName: 'Grandma Rosa',
  notify: { name: 'Luis Reef', email: 'luis@example.org', message: 'She loved the reef.\nWe think of her.' },
};

/** A $37.50 gift dedicated as `tribute`, with `overrides` of the submission. */
const dedicated = (tribute: unknown = IN_MEMORY, overrides: Partial<DonationSubmissionInput> = {}, card = {}) =>
  validSubmission({ amount: 37.5, ...overrides, tribute: tribute as Tribute }, card);

/** The `.eml` files of `kind` the relay wrote, parsed, oldest first. */
async function mailsOf(kind: string): Promise<ParsedMail[]> {
  const files = (await readdir(mailDir)).filter((file) => file.includes(`-${kind}-`)).sort();
  return Promise.all(files.map(async (file) => simpleParser(await readFile(path.join(mailDir, file)))));
}

const addressOf = (mail: ParsedMail) => (Array.isArray(mail.to) ? mail.to[0] : mail.to)?.value[0]?.address;
const cardRows = () => t.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'tribute_card'));

/** The text of the first page of the PDF at `url` (a receipt's link), as pdf.js reads it. */
async function pdfText(url: string): Promise<string> {
  const pdf = await t.app.inject({ method: 'GET', url });
  expect(pdf.statusCode).toBe(200);
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const document = await pdfjs.getDocument({ data: new Uint8Array(pdf.rawPayload), useSystemFonts: false }).promise;
  const text = (await (await document.getPage(1)).getTextContent()).items.map((item) => ('str' in item ? item.str : '')).join(' ');
  await document.destroy();
  return text;
}

describe('the tribute payload is validated like every other field', () => {
  const tooLong = 'x'.repeat(10_000);
  const badTributes: [string, unknown, string][] = [
    ['a control character in the honoree name', { type: 'honor', honoreeName: 'Rosa\u0000Reef' }, 'tribute.honoreeName'],
    ['a control character in the notified name', { ...IN_MEMORY, notify: { ...IN_MEMORY.notify, name: 'Luis\u0007' } }, 'tribute.notify.name'],
    ['a control character in the message', { ...IN_MEMORY, notify: { ...IN_MEMORY.notify, message: 'Hi\u001b[31m' } }, 'tribute.notify.message'],
    ['10,000 characters of honoree name', { type: 'memory', honoreeName: tooLong }, 'tribute.honoreeName'],
    ['10,000 characters of message', { ...IN_MEMORY, notify: { ...IN_MEMORY.notify, message: tooLong } }, 'tribute.notify.message'],
    ['an invalid notify e-mail', { ...IN_MEMORY, notify: { ...IN_MEMORY.notify, email: 'luis@nowhere' } }, 'tribute.notify.email'],
    ['a notify without its e-mail', { ...IN_MEMORY, notify: { name: 'Luis Reef' } }, 'tribute.notify.email'],
    ['an honoree name of one character', { type: 'honor', honoreeName: 'R' }, 'tribute.honoreeName'],
    ['no honoree name', { type: 'honor' }, 'tribute.honoreeName'],
    ['an unknown type', { type: 'birthday', honoreeName: 'Rosa' }, 'tribute.type'],
    ['an unknown field', { type: 'honor', honoreeName: 'Rosa', amountCents: 1 }, 'tribute'],
    ['not an object', 'in memory of Rosa', 'tribute'],
  ];

  it.each(badTributes)('process-donation: %s is answered 400 with fieldErrors, nothing written or charged', async (_case, tribute, field) => {
    const response = await t.postDonation(dedicated(tribute));
    expect(response.statusCode, response.body).toBe(400);
    const body = response.json<{ success: boolean; fieldErrors?: Record<string, string> }>();
    expect(body.success).toBe(false);
    expect(Object.keys(body.fieldErrors ?? {}).some((key) => key.startsWith(field)), JSON.stringify(body)).toBe(true);
    expect(await t.countDonations()).toBe(0);
    expect(t.gateway.calls).toBe(0);
  });

  it('names the rule broken: unsupported characters, length, e-mail', async () => {
    const fieldErrors = async (tribute: unknown) => (await t.postDonation(dedicated(tribute))).json<{ fieldErrors: Record<string, string> }>().fieldErrors;
    expect((await fieldErrors(badTributes[0]?.[1]))['tribute.honoreeName']).toBe(UNSUPPORTED_CHARACTERS_MESSAGE);
    expect((await fieldErrors(badTributes[3]?.[1]))['tribute.honoreeName']).toBe("Honoree's name must be at most 100 characters");
    expect((await fieldErrors(badTributes[4]?.[1]))['tribute.notify.message']).toBe('Message must be at most 500 characters');
    expect((await fieldErrors(badTributes[5]?.[1]))['tribute.notify.email']).toBe('Please enter a valid email address');
  });

  it.each(badTributes)('create-payment-intent and confirm-donation: %s is answered 400, nothing written', async (_case, tribute) => {
    const submission = dedicated(tribute);
    const created = await t.post(API_PATHS.createPaymentIntent, { amount: submission.amount, donation: cardlessDetails(submission) });
    expect(created.statusCode, created.body).toBe(400);
    expect(created.json<{ fieldErrors?: object }>().fieldErrors).toBeDefined();
    const confirmed = await t.post(API_PATHS.confirmDonation, { paymentIntentId: 'pi_test_unknown', donationData: submission });
    expect(confirmed.statusCode, confirmed.body).toBe(400);
    expect(confirmed.json<{ fieldErrors?: object }>().fieldErrors).toBeDefined();
    expect(await t.countDonations()).toBe(0);
    expect(t.gateway.calls).toBe(0);
  });
});

describe('a dedicated gift', () => {
  it('is stored with its dedication, and its card goes once to the notified address, naming donor and honoree, never the amount', async () => {
    const response = await t.postDonation(dedicated(IN_MEMORY, { donorName: 'Ana Reef' }));
    expect(response.statusCode, response.body).toBe(200);
    const [row] = await t.db.select().from(donations);
    expect(row).toMatchObject({
      tributeType: 'memory',
      tributeHonoreeName: 'Grandma Rosa',
      tributeNotifyName: 'Luis Reef',
      tributeNotifyEmail: 'luis@example.org',
      tributeNotifyMessage: 'She loved the reef.\nWe think of her.',
    });

    expect(await t.app.mail.relayDue()).toMatchObject({ sent: 2, failed: 0 });
    expect(await t.app.mail.relayDue()).toMatchObject({ sent: 0 });
    const cards = await mailsOf('tribute_card');
    expect(cards).toHaveLength(1);
    const [card] = cards;
    if (!card) throw new Error('no card');
    expect(addressOf(card)).toBe('luis@example.org');
    expect(card.subject).toBe('Ana Reef made a gift in memory of Grandma Rosa');
    expect(card.text).toContain('Dear Luis Reef,');
    expect(card.text).toContain('Ana Reef made a gift to Reef Trust Ltd in memory of Grandma Rosa');
    expect(card.text).toContain('She loved the reef.');
    // Issue #24: an English gift's card keeps the spec's English wording, every sentence of it.
    expect(card.text).toContain('Ana Reef made a gift to Reef Trust Ltd in memory of Grandma Rosa, for Research and Science, and asked us to let you know.');
    expect(card.text).toContain('Their message to you:');
    expect(card.text).toContain('The gift helps protect the Belize Barrier Reef Reserve System, a marine World Heritage site.');
    expect(card.text).toContain('You receive this one message because a donor gave your address for it; we will not write to you again about it. Reef Trust Ltd');
    expect(card.html).toMatch(/<html[^>]*\slang="en"/);
    for (const part of [card.subject ?? '', card.text ?? '', card.html || '']) {
      expect(part).not.toMatch(/\$\s*\d|37[.,]50|USD/);
    }
  });

  it('names "Someone" when the gift is anonymous', async () => {
    expect((await t.postDonation(dedicated({ type: 'honor', honoreeName: 'Coach Kim', notify: { name: 'Kim', email: 'kim@example.org' } }, { isAnonymous: true }))).statusCode).toBe(200);
    await t.app.mail.relayDue();
    const [card] = await mailsOf('tribute_card');
    expect(card?.subject).toBe('Someone made a gift in honour of Coach Kim');
    expect(card?.text).toContain('Someone made a gift to Reef Trust Ltd in honour of Coach Kim, for Research and Science, and asked us to let you know.');
    expect(card?.text).not.toContain('Ana Reef');
    expect(card?.html).not.toContain('Ana Reef');
  });

  it('sends no card when nobody is to be notified, and no card for a gift not dedicated', async () => {
    expect((await t.postDonation(dedicated({ type: 'honor', honoreeName: 'Coach Kim' }))).statusCode).toBe(200);
    expect((await t.postDonation(validSubmission())).statusCode).toBe(200);
    expect(await cardRows()).toHaveLength(0);
    expect(await t.app.mail.relayDue()).toMatchObject({ sent: 2 });
    expect(await mailsOf('tribute_card')).toHaveLength(0);
  });

  it("is mentioned on the donor's receipt, in the e-mail and in its PDF", async () => {
    const response = await t.postDonation(dedicated());
    const { receiptUrl } = response.json<{ data: { receiptUrl: string } }>().data;
    await t.app.mail.relayDue();
    const [receipt] = await mailsOf('receipt');
    expect(receipt?.text).toContain('In memory of Grandma Rosa');
    expect(await pdfText(receiptUrl)).toContain('In memory of Grandma Rosa');
  });
});

describe('a gift dedicated in Spanish (issue #24)', () => {
  /** English sentences of the card that must not reach a Spanish reader. */
  const ENGLISH_WORDING = /made a gift|Dear |Their message|helps protect|You receive|Someone|In memory of|In honour of|in memory of|in honour of/;

  it('sends the card in Spanish: subject, greeting, sentence with the Spanish cause, message, reef, small print and <html lang="es">', async () => {
    const response = await t.postDonation(dedicated(IN_MEMORY, { donorName: 'Ana Reef', locale: 'es', cause: 'marine-protected-areas' }));
    expect(response.statusCode, response.body).toBe(200);
    expect((await t.db.select({ locale: donations.locale }).from(donations))[0]).toEqual({ locale: 'es' });
    await t.app.mail.relayDue();
    const [card] = await mailsOf('tribute_card');
    if (!card) throw new Error('no card');
    expect(addressOf(card)).toBe('luis@example.org');
    expect(card.subject).toBe('Ana Reef hizo una donación en memoria de Grandma Rosa');
    expect(card.text).toContain('Hola, Luis Reef:');
    expect(card.text).toContain(
      'Ana Reef hizo una donación a Reef Trust Ltd en memoria de Grandma Rosa, destinada a la causa Gestión de Áreas Marinas Protegidas, y nos pidió que te avisáramos.',
    );
    expect(card.text).toContain('Su mensaje para ti:');
    expect(card.text).toContain('She loved the reef.');
    expect(card.text).toContain('Esta donación ayuda a proteger el Sistema de Reservas del Arrecife de Barrera de Belice');
    expect(card.text).toContain('Recibes este único mensaje porque quien hizo la donación nos dio tu dirección para enviártelo; no volveremos a escribirte sobre esta donación. Reef Trust Ltd');
    expect(card.html).toMatch(/<html[^>]*\slang="es"/);
    // The preview line (hidden in the HTML) and the heading are the subject.
    expect(card.html).toContain('Ana Reef hizo una donación en memoria de Grandma Rosa');
    // The donor's own message stays as they wrote it; the card's own wording is all Spanish.
    for (const part of [card.subject ?? '', card.text ?? '', card.html || '']) {
      expect(part).not.toMatch(ENGLISH_WORDING);
      expect(part).not.toMatch(/\$\s*\d|37[.,]50|US\$|USD/);
    }
  });

  it('names "Alguien" when the gift is anonymous, in honour of someone', async () => {
    const tribute = { type: 'honor', honoreeName: 'Coach Kim', notify: { name: 'Kim', email: 'kim@example.org' } };
    expect((await t.postDonation(dedicated(tribute, { isAnonymous: true, locale: 'es' }))).statusCode).toBe(200);
    await t.app.mail.relayDue();
    const [card] = await mailsOf('tribute_card');
    expect(card?.subject).toBe('Alguien hizo una donación en honor de Coach Kim');
    expect(card?.text).toContain('Alguien hizo una donación a Reef Trust Ltd en honor de Coach Kim, destinada a la causa Investigación y Ciencia, y nos pidió que te avisáramos.');
    expect(card?.text).not.toContain('Su mensaje para ti:');
    for (const part of [card?.text ?? '', card?.html ?? '']) expect(part).not.toMatch(/Ana Reef|Someone/);
  });

  it("says the dedication in Spanish on the donor's receipt, in the e-mail and in its PDF", async () => {
    const response = await t.postDonation(dedicated(IN_MEMORY, { locale: 'es' }));
    const { receiptUrl } = response.json<{ data: { receiptUrl: string } }>().data;
    await t.app.mail.relayDue();
    const [receipt] = await mailsOf('receipt');
    expect(receipt?.text).toMatch(/Dedicatoria:?\s+En memoria de Grandma Rosa/);
    expect(receipt?.text).not.toContain('In memory of');
    const text = await pdfText(receiptUrl);
    expect(text).toContain('En memoria de Grandma Rosa');
    expect(text).not.toContain('In memory of');
  });

  it('an English gift in honour of someone keeps its English receipt line next to a Spanish one', async () => {
    expect((await t.postDonation(dedicated({ type: 'honor', honoreeName: 'Coach Kim' }, { donorEmail: 'en@example.org' }))).statusCode).toBe(200);
    expect((await t.postDonation(dedicated({ type: 'honor', honoreeName: 'Coach Kim' }, { donorEmail: 'es@example.org', locale: 'es' }))).statusCode).toBe(200);
    await t.app.mail.relayDue();
    const receipts = await mailsOf('receipt');
    const textTo = (address: string) => receipts.find((mail) => addressOf(mail) === address)?.text ?? '';
    expect(textTo('en@example.org')).toMatch(/Dedication:?\s+In honour of Coach Kim/);
    expect(textTo('es@example.org')).toMatch(/Dedicatoria:?\s+En honor de Coach Kim/);
  });
});

describe('the card is sent only for a gift the charity keeps', () => {
  it('sends no card for a declined gift', async () => {
    const response = await t.postDonation(dedicated(IN_MEMORY, {}, { number: '4000000000000002' }));
    expect(response.statusCode).toBe(402);
    const [row] = await t.db.select().from(donations);
    expect(row).toMatchObject({ status: 'failed', tributeHonoreeName: 'Grandma Rosa' });
    expect(await cardRows()).toHaveLength(0);
    await t.app.mail.relayDue();
    expect(await mailsOf('tribute_card')).toHaveLength(0);
  });

  it('cancels the card of a gift refunded in full before the card was sent', async () => {
    expect((await t.postDonation(dedicated())).statusCode).toBe(200);
    const [row] = await t.db.select().from(donations);
    const refund = await t.app.inject({
      method: 'POST',
      url: adminDonationRefundPath(row?.id ?? ''),
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'idempotency-key': randomUUID() },
      payload: {},
    });
    expect(refund.statusCode, refund.body).toBe(200);
    expect(await cardRows()).toMatchObject([{ status: 'cancelled' }]);
    await t.app.mail.relayDue();
    expect(await mailsOf('tribute_card')).toHaveLength(0);
    expect(await mailsOf('receipt_void')).toHaveLength(1);
  });

  it('does not send a card the relay reaches after its gift stopped being succeeded (a dispute, or a refund racing the relay)', async () => {
    expect((await t.postDonation(dedicated())).statusCode).toBe(200);
    const [row] = await t.db.select().from(donations);
    expect(await markDonationDisputed(t.db, row?.id ?? '', row?.gatewayTransactionId ?? '', 'needs_response')).toBe(true);
    expect(await cardRows()).toMatchObject([{ status: 'pending' }]);
    await t.app.mail.relayDue();
    expect(await cardRows()).toMatchObject([{ status: 'failed' }]);
    expect(await mailsOf('tribute_card')).toHaveLength(0);
  });
});

describe('the card is queued once whoever records the success', () => {
  /** Creates an intent with the donor's details (its pending donation written), as the Stripe-mode form does. */
  async function createIntent(submission: DonationSubmissionInput): Promise<string> {
    const response = await t.post(API_PATHS.createPaymentIntent, { amount: submission.amount, donation: cardlessDetails(submission) });
    expect(response.statusCode, response.body).toBe(200);
    return CreatePaymentIntentSuccessSchema.parse(response.json()).data.paymentIntentId;
  }
  const webhook = (paymentIntentId: string) =>
    applyPaymentEvent({ db: t.db, gateway: t.gateway, log: t.app.log }, { eventId: `evt_${randomUUID()}`, type: 'payment_intent.succeeded', gateway: 'test' }, { kind: 'payment_succeeded', paymentIntentId });

  it('confirm-donation first, then the webhook: one card', async () => {
    const submission = dedicated();
    const paymentIntentId = await createIntent(submission);
    const confirmed = await t.post(API_PATHS.confirmDonation, { paymentIntentId, donationData: submission });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(await webhook(paymentIntentId)).toBe('unchanged');
    const again = await t.post(API_PATHS.confirmDonation, { paymentIntentId, donationData: submission });
    expect(again.statusCode).toBe(200);
    expect(await cardRows()).toHaveLength(1);
    await t.app.mail.relayDue();
    expect((await mailsOf('tribute_card')).map(addressOf)).toEqual(['luis@example.org']);
  });

  it('the webhook first (the browser paid and went away), then confirm-donation: one card', async () => {
    const submission = dedicated();
    const paymentIntentId = await createIntent(submission);
    const card = { number: '4242424242424242', expiryMonth: 12, expiryYear: Number(FUTURE_EXPIRY_YEAR), cvc: '123' };
    expect((await t.gateway.confirmPaymentIntent(paymentIntentId, card)).status).toBe('succeeded');
    expect(await webhook(paymentIntentId)).toBe('applied');
    const confirmed = await t.post(API_PATHS.confirmDonation, { paymentIntentId, donationData: submission });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(await cardRows()).toHaveLength(1);
    await t.app.mail.relayDue();
    expect(await mailsOf('tribute_card')).toHaveLength(1);
  });

  it('a monthly gift: the first gift carries the dedication and its one card; its renewals are not dedicated (decision 0090)', async () => {
    try {
      expect((await t.postDonation(dedicated(IN_MEMORY, { frequency: 'monthly', donorEmail: 'monthly@example.org' }))).statusCode).toBe(200);
      expect(await cardRows()).toHaveLength(1);
      clockAheadMs = 40 * 24 * 60 * 60 * 1000;
      await t.app.billing.run();
      const rows = await t.db.select().from(donations).orderBy(donations.recurringPeriod);
      expect(rows.map((row) => [row.recurringPeriod, row.status, row.tributeType, row.tributeHonoreeName])).toEqual([
        [0, 'succeeded', 'memory', 'Grandma Rosa'],
        [1, 'succeeded', null, null],
      ]);
      expect(await cardRows()).toHaveLength(1);
      await t.app.mail.relayDue();
      expect(await mailsOf('tribute_card')).toHaveLength(1);
      const receipts = await mailsOf('receipt');
      // The first gift's receipt and the renewal's (files named by the second they were queued in, so in either order).
      expect(receipts).toHaveLength(2);
      expect(receipts.filter((mail) => mail.text?.includes('In memory of Grandma Rosa'))).toHaveLength(1);
    } finally {
      clockAheadMs = 0;
    }
  });
});

describe('the export', () => {
  it.each(EXPORT_FORMATS)('%s: ends with tribute_type and honoree_name, empty for a gift not dedicated', async (format) => {
    expect((await t.postDonation(dedicated({ type: 'memory', honoreeName: 'Grandma Rosa' }))).statusCode).toBe(200);
    expect((await t.postDonation(validSubmission({ amount: 10 }))).statusCode).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    const response = await t.app.inject({
      method: 'GET',
      url: `${ADMIN_DONATIONS_EXPORT_PATH}?${new URLSearchParams({ from: today, to: today, format })}`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(response.statusCode, response.body).toBe(200);
    const lines = response.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toMatch(/,tribute_type,honoree_name$/);
    expect(lines.slice(1).map((line) => line.split(',').slice(-2).join(','))).toEqual(['memory,Grandma Rosa', ',']);
  });
});

describe('the daily digest', () => {
  it('counts the day\'s gifts in honour and in memory of someone, without naming anyone, leaving out a refunded one', async () => {
    expect((await t.postDonation(dedicated({ type: 'memory', honoreeName: 'Grandma Rosa' }))).statusCode).toBe(200);
    expect((await t.postDonation(dedicated({ type: 'honor', honoreeName: 'Coach Kim' }))).statusCode).toBe(200);
    expect((await t.postDonation(dedicated({ type: 'honor', honoreeName: 'Refunded Rita' }))).statusCode).toBe(200);
    expect((await t.postDonation(validSubmission())).statusCode).toBe(200);
    const [refunded] = await t.db.select().from(donations).where(eq(donations.tributeHonoreeName, 'Refunded Rita'));
    const refund = await t.app.inject({
      method: 'POST',
      url: adminDonationRefundPath(refunded?.id ?? ''),
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'idempotency-key': randomUUID() },
      payload: {},
    });
    expect(refund.statusCode).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    const digest = await loadDailyDigest(t.db, today, 'UTC');
    expect(digest.dedicatedGifts).toEqual({ honor: 1, memory: 1 });
    const { text, html } = await renderEmailParts(createElement(DigestEmail, { digest, organizationName: 'Reef Trust Ltd' }));
    expect(text).toContain('Dedicated gifts: 1 in honour, 1 in memory of someone');
    for (const part of [text, html]) expect(part).not.toMatch(/Grandma Rosa|Coach Kim|Luis/);
  });
});

describe('the staff donation page', () => {
  it("shows the dedication and its card; correcting the donor's e-mail leaves the card's recipient alone", async () => {
    const finance = await signInStaffForTest(t.app, t.db, { role: 'finance' });
    expect((await t.postDonation(dedicated())).statusCode).toBe(200);
    const [row] = await t.db.select().from(donations);
    const id = row?.id ?? '';
    const corrected = await t.app.inject({ method: 'POST', url: staffApiPath(STAFF_API.donationEmail, id), headers: finance.headers, payload: { email: 'ana.new@example.org', resend: false } });
    expect(corrected.statusCode, corrected.body).toBe(200);
    expect(await cardRows()).toMatchObject([{ recipient: 'luis@example.org', status: 'pending' }]);

    const answer = await t.app.inject({ method: 'GET', url: staffApiPath(STAFF_API.donation, id), headers: finance.headers });
    expect(answer.statusCode, answer.body).toBe(200);
    const detail = StaffDonationDetailSchema.parse(answer.json());
    expect(detail.donation.tribute).toEqual({ type: 'memory', honoreeName: 'Grandma Rosa', notify: { name: 'Luis Reef', email: 'luis@example.org', message: 'She loved the reef.\nWe think of her.' } });
    expect(detail.emails.find((email) => email.kind === 'tribute_card')).toMatchObject({ recipient: 'luis@example.org', state: 'queued' });
  });
});
