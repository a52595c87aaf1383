import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mailOutbox, receipts } from '../db/schema';
import { markDonationRefunded } from '../ledger/intent-ledger';
import { recordRefund } from '../ledger/refund-ledger';
import { createPendingDonation, markDonationSucceeded } from '../ledger/repository';
import { manualClock } from '../platform/clock';
import { memoryLog } from '../testing/payment-attempts';
import { PENDING_TEST_DONATION } from '../testing/pending-donation';
import { startSmtpTestServer, type SmtpTestServer } from '../testing/smtp-test-server';
import { createTestApp, type TestApp } from '../testing/test-app';
import { ADMIN_STATEMENTS_RUN_PATH } from '../admin/paths';
import { queueYearEndStatements, startYearEndStatementRunner, statementYearDue } from './statements';

/**
 * Year-end statements (issue #12; decision 0044) through the real app, outbox, relay and a real SMTP server: each
 * donor gets one statement per year listing each date and amount of that year, refunded gifts left out, queued
 * once per (donor, year) whoever asks (the January runner on a manual clock, an operator) and however often.
 */

const ADMIN_TOKEN = 'a'.repeat(20) + '-statement-test-token';
/** The year of the receipts the database issues now (its clock, UTC): the statements' year. */
const YEAR = new Date().getUTCFullYear();
const clock = manualClock(new Date(Date.UTC(YEAR + 1, 0, 10, 9)));
const log = memoryLog();
let smtp: SmtpTestServer;
let t: TestApp;
beforeAll(async () => {
  smtp = await startSmtpTestServer();
  t = await createTestApp({ env: { SMTP_URL: smtp.url, ADMIN_TOKEN }, clock, logger: log.logger });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});
beforeEach(async () => {
  await t.reset();
  smtp.received.length = 0;
});

/** A succeeded donation of `amountCents` by `email`, with its receipt (and its receipt e-mail queued). */
async function gift(email: string, amountCents: number): Promise<{ id: string; transactionId: string }> {
  const id = await createPendingDonation(t.db, { ...PENDING_TEST_DONATION, donorEmail: email, amountCents });
  const transactionId = `ch_test_${randomUUID().replaceAll('-', '')}`;
  await markDonationSucceeded(t.db, id, { transactionId, cardBrand: 'visa', last4: '4242', isTestPayment: true }, { statusCode: 200, body: {} });
  return { id, transactionId };
}

/** Moves a donation's receipt into `year` (issued 15 June of it, numbered in it), as if it had been given then. */
async function issuedIn(donationId: string, year: number): Promise<void> {
  await t.db
    .update(receipts)
    .set({ year, issuedAt: new Date(Date.UTC(year, 5, 15)), number: sql`${String(year)} || substr(${receipts.number}, 5)` })
    .where(eq(receipts.donationId, donationId));
}

/** Sends whatever the outbox holds (the receipts), then forgets them: a test looks at statements only. */
async function sendReceiptsFirst(): Promise<void> {
  await t.app.mail.relayDue();
  smtp.received.length = 0;
}

const runStatements = (year: number, token = ADMIN_TOKEN) =>
  t.app.inject({ method: 'POST', url: ADMIN_STATEMENTS_RUN_PATH, headers: { authorization: `Bearer ${token}` }, payload: { year } });

const mailTo = (address: string): ParsedMail[] =>
  smtp.received.filter((mail) => !Array.isArray(mail.to) && mail.to?.value.some((to) => to.address?.toLowerCase() === address));

/** Three donors: A gave $30 and $45 (refunded) this year and $99 last year, B gave $12.34 this year, C last year only. */
async function threeDonors(): Promise<void> {
  await gift('a@example.org', 3000);
  const refunded = await gift('A@Example.org', 4500);
  await markDonationRefunded(t.db, refunded.id, refunded.transactionId);
  await issuedIn((await gift('a@example.org', 9900)).id, YEAR - 1);
  await gift('b@example.org', 1234);
  await issuedIn((await gift('c@example.org', 5000)).id, YEAR - 1);
  await sendReceiptsFirst();
}

describe('year-end statements', () => {
  it('an operator run queues one statement per donor of the year, listing each date and amount, refunded gifts left out', async () => {
    await threeDonors();
    const run = await runStatements(YEAR);
    expect(run.statusCode).toBe(200);
    expect(run.json()).toEqual({ queued: 2 });
    expect(run.headers['cache-control']).toBe('no-store');
    expect(await t.app.mail.relayDue()).toMatchObject({ sent: 2, failed: 0 });

    const [forA, ...moreForA] = mailTo('a@example.org');
    expect(moreForA).toEqual([]);
    expect(forA?.subject).toBe(`Your ${YEAR} donations to Belize Barrier Reef Donations`);
    expect(forA?.text).toContain('$30.00 USD');
    expect(forA?.text).not.toContain('$45.00');
    expect(forA?.text).not.toContain('$99.00');
    expect(forA?.text).toMatch(/Total: \$30\.00 USD/);
    const [forB] = mailTo('b@example.org');
    expect(forB?.text).toContain('$12.34 USD');
    expect(mailTo('c@example.org')).toEqual([]);
    // Each listed gift carries its date (the receipt's, UTC) and a link to its receipt.
    expect(forB?.text).toMatch(new RegExp(`\\d{1,2} [A-Z][a-z]+ ${YEAR}: \\$12\\.34 USD`));
    expect(forB?.text).toMatch(/\/api\/receipts\/pdf\//);

    // The year before: A ($99) and C ($50).
    expect((await runStatements(YEAR - 1)).json()).toEqual({ queued: 2 });
    await t.app.mail.relayDue();
    expect(mailTo('c@example.org')[0]?.text).toContain('$50.00 USD');
    expect(mailTo('a@example.org')[1]?.text).toMatch(new RegExp(`15 June ${YEAR - 1}: \\$99\\.00 USD`));
    // The log names years and counts, never an address.
    expect(log.lines.some((line) => /[abc]@example\.org/i.test(line))).toBe(false);
  });

  it('counts a partly refunded gift for what was kept, and says so (issue #14; decision 0058)', async () => {
    const { id } = await gift('d@example.org', 5000);
    await gift('d@example.org', 1000);
    await t.db.transaction((tx) =>
      recordRefund(tx, { donationId: id, amountCents: 1250, gateway: 'test', gatewayRefundId: `re_test_${randomUUID()}`, idempotencyKey: randomUUID() }),
    );
    await sendReceiptsFirst();
    expect((await runStatements(YEAR)).json()).toEqual({ queued: 1 });
    await t.app.mail.relayDue();
    const [forD] = mailTo('d@example.org');
    expect(forD?.text).toContain('$37.50 USD (after a refund of $12.50 USD)');
    expect(forD?.text).toMatch(/Total: \$47\.50 USD/);
  });

  it('is sent once per donor per year: run twice, or by two processes at once, there is no second mail', async () => {
    await threeDonors();
    const [first, second] = await Promise.all([queueYearEndStatements(t.db, YEAR), queueYearEndStatements(t.db, YEAR)]);
    expect(first + second).toBe(2);
    expect((await runStatements(YEAR)).json()).toEqual({ queued: 0 });
    await t.app.mail.relayDue();
    expect((await runStatements(YEAR)).json()).toEqual({ queued: 0 });
    expect(await t.app.mail.relayDue()).toMatchObject({ sent: 0 });
    expect(mailTo('a@example.org')).toHaveLength(1);
    expect(mailTo('b@example.org')).toHaveLength(1);
    const rows = await t.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'year_end_statement'));
    expect(rows.map((row) => row.dedupeKey).sort()).toEqual([`year_end_statement:${YEAR}:a@example.org`, `year_end_statement:${YEAR}:b@example.org`]);
  });

  it('refuses a year that is not over yet (400), so no donor gets a partial statement instead of January\'s', async () => {
    await threeDonors();
    const early = manualClock(new Date(Date.UTC(YEAR, 10, 20)));
    const app = await createTestApp({ env: { ADMIN_TOKEN }, clock: early });
    try {
      const run = await app.app.inject({ method: 'POST', url: ADMIN_STATEMENTS_RUN_PATH, headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, payload: { year: YEAR } });
      expect(run.statusCode).toBe(400);
      expect(run.json()).toMatchObject({ success: false, fieldErrors: { year: 'Statements can be sent only for a year that is over.' } });
    } finally {
      await app.close();
    }
    expect((await runStatements(YEAR + 1)).statusCode).toBe(400);
    expect((await runStatements(1999)).statusCode).toBe(400);
  });
});

describe('the January runner', () => {
  it('is due in January (UTC) for the year before, and at no other time', () => {
    expect(statementYearDue(new Date('2027-01-01T00:00:00Z'))).toBe(2026);
    expect(statementYearDue(new Date('2027-01-31T23:59:59Z'))).toBe(2026);
    expect(statementYearDue(new Date('2026-12-31T23:59:59Z'))).toBeUndefined();
    expect(statementYearDue(new Date('2027-02-01T00:00:00Z'))).toBeUndefined();
  });

  it('does nothing outside January, and a second check in the same January queues nothing more', async () => {
    await threeDonors();
    const deps = { db: t.db, clock: manualClock(new Date(Date.UTC(YEAR, 11, 31, 23))), log: log.logger as unknown as FastifyBaseLogger };
    const runner = startYearEndStatementRunner(deps, 60 * 60 * 1000);
    try {
      expect(await runner.runNow()).toBeUndefined();
      deps.clock.set(new Date(Date.UTC(YEAR + 1, 0, 1, 0, 30)));
      expect(await runner.runNow()).toEqual({ year: YEAR, queued: 2 });
      expect(await runner.runNow()).toBeUndefined();
      // Another process (a fresh runner, whose first check runs as it starts) in the same January queues nothing more.
      const other = startYearEndStatementRunner(deps, 60 * 60 * 1000);
      await other.runNow();
      await other.stop();
      expect(await t.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'year_end_statement'))).toHaveLength(2);
      deps.clock.set(new Date(Date.UTC(YEAR + 1, 1, 1)));
      expect(await runner.runNow()).toBeUndefined();
    } finally {
      await runner.stop();
    }
  });

  it('queues the statements of the year before when the server starts listening in January, and once only', async () => {
    await threeDonors();
    clock.set(new Date(Date.UTC(YEAR + 1, 0, 10, 9)));
    const logged = log.lines.length;
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    // The runner's first check and the relay both start when the server listens; no sleeping, just polling.
    await expect.poll(() => mailTo('a@example.org').length + mailTo('b@example.org').length, { timeout: 15_000 }).toBe(2);
    expect(mailTo('c@example.org')).toEqual([]);
    expect(log.lines.slice(logged).filter((line) => line.includes('"event":"statements.queued"') && line.includes('january-runner'))).toHaveLength(1);
  });
});
