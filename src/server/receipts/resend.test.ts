import { and, eq } from 'drizzle-orm';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CSRF_HEADER_NAME, TOO_MANY_ATTEMPTS_MESSAGE } from '../../shared/api';
import { RESEND_RECEIPTS_CONFIRMATION, RESEND_RECEIPTS_PATH } from '../../shared/receipts';
import { mailOutbox } from '../db/schema';
import { manualClock } from '../platform/clock';
import { memoryLog } from '../testing/payment-attempts';
import { startSmtpTestServer, type SmtpTestServer } from '../testing/smtp-test-server';
import { createTestApp, validSubmission, type CsrfCredentials, type TestApp } from '../testing/test-app';
import { RESEND_WINDOW_MS } from './resend';

/**
 * POST /api/receipts/resend (issue #12, "Resend"; decision 0044), through the real app, its outbox and relay, and a
 * real SMTP server: the same 202 for any address, one message listing each receipt link to an address that gave
 * and nothing to one that did not, one message per address per hour however often it is asked for.
 */

const clock = manualClock(new Date());
const log = memoryLog();
let smtp: SmtpTestServer;
let t: TestApp;
let csrf: CsrfCredentials;
beforeAll(async () => {
  smtp = await startSmtpTestServer();
  t = await createTestApp({ env: { SMTP_URL: smtp.url, PUBLIC_URL: 'https://give.example.org' }, clock, logger: log.logger });
  csrf = await t.csrf();
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});
beforeEach(async () => {
  await t.reset();
  smtp.received.length = 0;
});

/** POSTs `body` to the resend route as the page does (CSRF cookie and header), or with `credentials`. */
const resend = (body: unknown, app = t, credentials: CsrfCredentials | null = csrf) =>
  app.app.inject({
    method: 'POST',
    url: RESEND_RECEIPTS_PATH,
    headers: credentials ? { cookie: credentials.cookie, [CSRF_HEADER_NAME]: credentials.token } : {},
    payload: body as object,
  });

const mailTo = (address: string): ParsedMail[] =>
  smtp.received.filter((mail) => (Array.isArray(mail.to) ? mail.to : [mail.to]).some((to) => to?.text.toLowerCase().includes(address.toLowerCase())));

/**
 * Runs the relay once, the manual clock first moved a second past the machine's now (if behind): outbox rows are due
 * from their creation by the database's clock, which the manual clock (set when this file loaded) would otherwise lag.
 */
const relay = () => {
  clock.set(new Date(Math.max(clock.now().getTime(), Date.now()) + 1000));
  return t.app.mail.relayDue();
};

const linksOf = (mail: ParsedMail) => [...(mail.text ?? '').matchAll(/https:\/\/give\.example\.org(\/api\/receipts\/pdf\/[\w.-]+)/g)].map((m) => m[1] ?? '');

describe('a donor asks for their receipts again', () => {
  it('answers 202 with the same body for an unknown and a known address; only the known one gets one message listing each receipt', async () => {
    for (const amount of [25, 40]) {
      expect((await t.postDonation(validSubmission({ amount, donorEmail: 'Known.Donor@example.org' }))).statusCode).toBe(200);
    }
    await relay();
    // The receipts as they arrived by SMTP read as text (issue #19): `Label: value`, one a line; the link on its own line.
    const receiptTexts = mailTo('known.donor@example.org').map((mail) => (mail.text ?? '').split(/\r?\n/));
    expect(receiptTexts).toHaveLength(2);
    for (const lines of receiptTexts) {
      expect(lines).toContainEqual(expect.stringMatching(/^Receipt number: \d{4}-\d{6}$/));
      expect(lines).toContainEqual(expect.stringMatching(/^Amount: \$(25|40)\.00 USD$/));
      expect(lines).toContain('Paid with: Visa ending in 4242');
      expect(lines).toContainEqual(expect.stringMatching(/^https:\/\/give\.example\.org\/api\/receipts\/pdf\/[\w.-]+$/));
      expect(lines).toContain('https://give.example.org/donate/receipts');
    }
    smtp.received.length = 0;

    const unknown = await resend({ email: 'nobody@example.org' });
    const known = await resend({ email: 'known.donor@EXAMPLE.org' });
    expect(unknown.statusCode).toBe(202);
    expect(known.statusCode).toBe(202);
    expect(known.body).toBe(unknown.body);
    expect(unknown.json()).toEqual({ success: true, message: RESEND_RECEIPTS_CONFIRMATION });
    expect(unknown.headers['content-type']).toBe(known.headers['content-type']);

    expect(await relay()).toEqual({ sent: 1, retried: 0, failed: 0 });
    expect(mailTo('nobody@example.org')).toEqual([]);
    const [mail, ...others] = mailTo('known.donor@example.org');
    expect(others).toEqual([]);
    // Sent to the address as the donor typed it with their donation, not as typed on the resend page.
    expect(mail?.to && !Array.isArray(mail.to) ? mail.to.value[0]?.address : undefined).toBe('Known.Donor@example.org');
    expect(mail?.subject).toBe('Your donation receipts from Belize Barrier Reef Donations');
    expect(mail?.text).toContain('$25.00 USD');
    expect(mail?.text).toContain('$40.00 USD');
    expect(mail?.text).toContain('/donate/receipts');
    const links = linksOf(mail as ParsedMail);
    expect(links).toHaveLength(2);
    for (const link of links) expect((mail?.text ?? '').split(/\r?\n/)).toContain(`https://give.example.org${link}`);
    for (const link of links) {
      const pdf = await t.app.inject({ method: 'GET', url: link });
      expect(pdf.statusCode).toBe(200);
      expect(pdf.headers['content-type']).toBe('application/pdf');
    }
    // The log says whether a message was queued, never the address.
    expect(log.lines.some((line) => /known\.donor|nobody@/i.test(line))).toBe(false);
  });

  it('sends one message per address per hour, however many times it is asked for', async () => {
    expect((await t.postDonation(validSubmission({ donorEmail: 'burst@example.org' }))).statusCode).toBe(200);
    await relay();
    smtp.received.length = 0;

    const answers = await Promise.all(Array.from({ length: 10 }, () => resend({ email: 'burst@example.org' })));
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(10).fill(202));
    await relay();
    expect(mailTo('burst@example.org')).toHaveLength(1);

    clock.advance(RESEND_WINDOW_MS);
    expect((await resend({ email: 'burst@example.org' })).statusCode).toBe(202);
    await relay();
    expect(mailTo('burst@example.org')).toHaveLength(2);
    const rows = await t.db.select().from(mailOutbox).where(and(eq(mailOutbox.kind, 'receipt_links'), eq(mailOutbox.status, 'sent')));
    expect(rows).toHaveLength(2);
  });

  it('refuses a request without the CSRF token (403) and a malformed address (400, fieldErrors.email), and queues nothing', async () => {
    expect((await t.postDonation(validSubmission({ donorEmail: 'csrf@example.org' }))).statusCode).toBe(200);
    const forged = await resend({ email: 'csrf@example.org' }, t, null);
    expect(forged.statusCode).toBe(403);
    const malformed = await resend({ email: 'not an address' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toMatchObject({ success: false, fieldErrors: { email: 'Please enter a valid email address' } });
    expect((await resend({ email: 'csrf@example.org', extra: 1 })).statusCode).toBe(400);
    const rows = await t.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'receipt_links'));
    expect(rows).toEqual([]);
  });
});

describe('the per-IP card-testing limits apply to resend requests', () => {
  let limited: TestApp;
  let limitedCsrf: CsrfCredentials;
  beforeAll(async () => {
    limited = await createTestApp({
      env: { RATE_LIMITS: 'on', RATE_LIMIT_IP_MAX: '2', RATE_LIMIT_IP_CEILING_MAX: '5', SMTP_URL: smtp.url },
    });
    limitedCsrf = await limited.csrf();
  });
  afterAll(async () => {
    await limited?.close();
  });

  it('a 202 is not a refusal, but every request counts against the ceiling: the 6th in the window gets 429', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await resend({ email: `someone-${i}@example.org` }, limited, limitedCsrf)).statusCode);
    // More 202s than RATE_LIMIT_IP_MAX (2 refusals) pass; the ceiling (5 of any outcome) stops the 6th.
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429]);
    const refused = await resend({ email: 'someone@example.org' }, limited, limitedCsrf);
    expect(refused.json()).toEqual({ success: false, error: TOO_MANY_ATTEMPTS_MESSAGE, code: 'too_many_attempts' });
  });
});

describe('the per-IP refusal limit counts malformed resend requests', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await createTestApp({ env: { RATE_LIMITS: 'on', RATE_LIMIT_IP_MAX: '2', RATE_LIMIT_IP_CEILING_MAX: '50' } });
  });
  afterAll(async () => {
    await limited?.close();
  });

  it('two refused requests (400) and the next one, even valid, gets 429', async () => {
    const credentials = await limited.csrf();
    expect((await resend({ email: 'x' }, limited, credentials)).statusCode).toBe(400);
    expect((await resend({ email: 'y' }, limited, credentials)).statusCode).toBe(400);
    expect((await resend({ email: 'valid@example.org' }, limited, credentials)).statusCode).toBe(429);
  });
});
