import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { count, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../platform/config';
import { mailOutbox, receipts } from '../db/schema';
import { createPendingDonation, markDonationSucceeded } from '../ledger/repository';
import { createReceiptComposer } from '../receipts/compose';
import { createReceiptLinkSigner } from '../receipts/receipt-link';
import { clearLedger } from '../testing/clear-ledger';
import { memoryLog, type MemoryLog } from '../testing/payment-attempts';
import { PENDING_TEST_DONATION } from '../testing/pending-donation';
import { seededRandom } from '../testing/seeded-random';
import { startSmtpTestServer, type SmtpTestServer } from '../testing/smtp-test-server';
import { openTestDatabase, type TestDatabase } from '../testing/test-database';
import { RETRY_BASE_DELAY_MS, RETRY_GIVE_UP_AFTER_MS, RETRY_MAX_DELAY_MS, retryDelayMs } from './backoff';
import { manualClock, type ManualClock } from '../platform/clock';
import { relayDueMail, type MailRelayDeps, type RelayReport } from './relay';
import { createMailTransport, type MailTransport } from './transport';

/**
 * The outbox relay against a real SMTP server (issue #12, "Tests"): messages are never lost nor doubled when the
 * server refuses commands temporarily, and a permanent refusal stops the retries and logs `mail.failed`.
 * Time moves by a manual clock (DESIGN.md, "Time"): no test sleeps.
 */

const config = loadConfig({ NODE_ENV: 'test', PUBLIC_URL: 'https://give.example.org', MAIL_FROM: 'Reef <receipts@give.example.org>' });
let database: TestDatabase;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});
beforeEach(async () => {
  await clearLedger(database.db);
});
/** The transports a test made: closed after it, so their pooled SMTP connections end before the server closes. */
const openTransports: MailTransport[] = [];
afterEach(() => {
  for (const transport of openTransports.splice(0)) transport.close();
});

/** Relay dependencies over the test database, sending to `smtpUrl`, with a manual clock and a log in memory. */
function relayDeps(smtpUrl: string, clock: ManualClock, log: MemoryLog): MailRelayDeps {
  const links = createReceiptLinkSigner(Buffer.alloc(32, 7));
  const transport = createMailTransport({ smtpUrl, dir: '' });
  openTransports.push(transport);
  return {
    db: database.db,
    transport,
    compose: createReceiptComposer({ db: database.db, organization: config.organization, publicUrl: config.site.publicUrl, links, clock }),
    clock,
    log: log.logger as unknown as FastifyBaseLogger,
    from: config.mail.from,
    random: seededRandom(42),
    rendered: new Map(),
  };
}

/** Writes `n` succeeded donations (each with its receipt and outbox row), donor i at `donor-i@example.org`. */
async function succeededDonations(n: number, email = (i: number) => `donor-${i}@example.org`): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i += 1) {
    const id = await createPendingDonation(database.db, { ...PENDING_TEST_DONATION, donorEmail: email(i), amountCents: 1000 + i });
    await markDonationSucceeded(
      database.db,
      id,
      { transactionId: `ch_test_${randomUUID()}`, cardBrand: 'visa', last4: '4242', isTestPayment: true },
      { statusCode: 200, body: {} },
    );
    ids.push(id);
  }
  return ids;
}

const outboxStatuses = async () =>
  database.db.select({ status: mailOutbox.status, n: count() }).from(mailOutbox).groupBy(mailOutbox.status);

/** Runs the relay, moving the clock past the longest backoff between runs, until nothing is pending (at most `maxRuns`). */
async function relayUntilDone(deps: MailRelayDeps, clock: ManualClock, maxRuns = 60): Promise<RelayReport> {
  const total: RelayReport = { sent: 0, retried: 0, failed: 0 };
  for (let run = 0; run < maxRuns; run += 1) {
    const report = await relayDueMail(deps);
    total.sent += report.sent;
    total.retried += report.retried;
    total.failed += report.failed;
    const [pending] = await database.db.select({ n: count() }).from(mailOutbox).where(eq(mailOutbox.status, 'pending'));
    if ((pending?.n ?? 0) === 0) return total;
    clock.advance(RETRY_MAX_DELAY_MS);
  }
  throw new Error(`Mail still pending after ${maxRuns} relay runs`);
}

describe('retryDelayMs: exponential backoff with jitter', () => {
  it('doubles from the base delay, up to the cap, with half of each delay random', () => {
    expect(retryDelayMs(1, () => 0)).toBe(RETRY_BASE_DELAY_MS / 2);
    expect(retryDelayMs(1, () => 0.5)).toBe((RETRY_BASE_DELAY_MS * 3) / 4);
    expect(retryDelayMs(2, () => 0)).toBe(RETRY_BASE_DELAY_MS);
    expect(retryDelayMs(3, () => 0)).toBe(2 * RETRY_BASE_DELAY_MS);
    expect(retryDelayMs(40, () => 0)).toBe(RETRY_MAX_DELAY_MS / 2);
    expect(retryDelayMs(40, () => 0.999_999)).toBeLessThanOrEqual(RETRY_MAX_DELAY_MS);
    expect(() => retryDelayMs(0)).toThrow(RangeError);
  });
});

describe('the relay on a real SMTP server', () => {
  let smtp: SmtpTestServer | undefined;
  afterAll(async () => {
    await smtp?.close();
  });

  it(
    'sends 200 receipts, each exactly once by Message-ID, while 30% of commands fail temporarily',
    async () => {
      smtp = await startSmtpTestServer({ temporaryFailureRate: 0.3, seed: 12 });
      await succeededDonations(200);
      const clock = manualClock();
      const log = memoryLog();
      const deps = relayDeps(smtp.url, clock, log);

      const report = await relayUntilDone(deps, clock);

      expect(report.failed).toBe(0);
      expect(report.sent).toBe(200);
      expect(report.retried).toBeGreaterThan(0);
      expect(smtp.refusals).toBeGreaterThan(100);
      expect(smtp.received).toHaveLength(200);
      const messageIds = smtp.received.map((mail) => mail.messageId);
      expect(new Set(messageIds).size).toBe(200);
      expect(messageIds.every((id) => /^<receipt\.[0-9a-f-]{36}@give\.example\.org>$/.test(id ?? ''))).toBe(true);
      const recipients = smtp.received.map((mail) => (Array.isArray(mail.to) ? '' : (mail.to?.text ?? '')));
      expect(new Set(recipients).size).toBe(200);
      expect(await outboxStatuses()).toEqual([{ status: 'sent', n: 200 }]);
      // Every retry was logged with ids only: no address of a donor in any log line (issue #10).
      expect(log.events('mail.retry').length).toBe(report.retried);
      expect(log.lines.some((line) => line.includes('@example.org'))).toBe(false);
    },
    240_000,
  );

  it('stops at a permanent refusal (550): no retry, the message is failed, and `mail.failed` is logged', async () => {
    await smtp?.close();
    smtp = await startSmtpTestServer({ rejectRecipients: ['gone@example.org'] });
    const [refusedId] = await succeededDonations(1, () => 'gone@example.org');
    await succeededDonations(1);
    // NOTE: the clock starts once the messages exist: they are due from their commit, by the database clock.
    const clock = manualClock();
    const log = memoryLog();
    const deps = relayDeps(smtp.url, clock, log);

    expect(await relayDueMail(deps)).toEqual({ sent: 1, retried: 0, failed: 1 });
    clock.advance(RETRY_GIVE_UP_AFTER_MS);
    expect(await relayDueMail(deps)).toEqual({ sent: 0, retried: 0, failed: 0 });

    const [failed] = await database.db.select().from(mailOutbox).where(eq(mailOutbox.donationId, refusedId ?? ''));
    expect(failed).toMatchObject({ status: 'failed', attempts: 1 });
    const [event] = log.events('mail.failed');
    expect(event).toMatchObject({ level: 50, donationId: refusedId, responseCode: 550, permanent: true, kind: 'receipt' });
    expect(JSON.stringify(event)).not.toContain('gone@example.org');
    expect(smtp.received).toHaveLength(1);
  });

  it('gives a message up after retrying temporary failures for RETRY_GIVE_UP_AFTER_MS', async () => {
    await smtp?.close();
    smtp = await startSmtpTestServer({ temporaryFailureRate: 1 });
    await succeededDonations(1);
    const clock = manualClock();
    const log = memoryLog();
    const deps = relayDeps(smtp.url, clock, log);

    expect(await relayDueMail(deps)).toEqual({ sent: 0, retried: 1, failed: 0 });
    clock.advance(RETRY_GIVE_UP_AFTER_MS);
    expect(await relayDueMail(deps)).toEqual({ sent: 0, retried: 0, failed: 1 });
    expect(log.events('mail.failed')[0]).toMatchObject({ permanent: false, responseCode: 451 });
  });
});

describe('the outbox and receipt numbers, in the transaction that marks a donation succeeded', () => {
  it('writes one receipt, numbered <year>-000001 upward, and one receipt message per success', async () => {
    const ids = await succeededDonations(3);
    const rows = await database.db.select({ number: receipts.number, donationId: receipts.donationId }).from(receipts).orderBy(receipts.sequence);
    const year = new Date().getUTCFullYear();
    expect(rows).toEqual(ids.map((donationId, i) => ({ donationId, number: `${year}-00000${i + 1}` })));
    const messages = await database.db.select({ kind: mailOutbox.kind, donationId: mailOutbox.donationId, status: mailOutbox.status }).from(mailOutbox);
    expect(messages).toHaveLength(3);
    expect(messages.every((m) => m.kind === 'receipt' && m.status === 'pending')).toBe(true);
  });

  it('writes neither receipt nor message when the donation cannot become succeeded, and uses no number', async () => {
    const [id] = await succeededDonations(1);
    await expect(
      markDonationSucceeded(database.db, id ?? '', { transactionId: 'ch_test_again', cardBrand: 'visa', last4: '4242', isTestPayment: true }, { statusCode: 200, body: {} }),
    ).rejects.toThrow(/not pending/);
    expect(await database.db.select({ n: count() }).from(receipts)).toEqual([{ n: 1 }]);
    expect(await database.db.select({ n: count() }).from(mailOutbox)).toEqual([{ n: 1 }]);
    const [next] = await succeededDonations(1, () => 'next@example.org');
    const [row] = await database.db.select({ number: receipts.number }).from(receipts).where(eq(receipts.donationId, next ?? ''));
    expect(row?.number).toMatch(/-000002$/);
  });

  it('refuses a second message of the same kind for the same donation (unique constraint)', async () => {
    const [id] = await succeededDonations(1);
    await expect(
      database.db.insert(mailOutbox).values({ kind: 'receipt', dedupeKey: 'another-key', recipient: 'x@example.org', donationId: id }),
    ).rejects.toMatchObject({ cause: { code: '23505' } });
  });
});

describe('a relay run stopped by a graceful shutdown (issue #14)', () => {
  it('finishes the messages being sent, then claims and sends no more; the others stay pending', async () => {
    await succeededDonations(6);
    const dir = await mkdtemp(path.join(tmpdir(), 'relay-stop-'));
    try {
      // `.eml` files, the first send held until the run is stopped: the relay is mid-item when its signal is aborted.
      const files = createMailTransport({ smtpUrl: undefined, dir });
      let sending = (): void => undefined;
      const firstSending = new Promise<void>((resolve) => (sending = resolve));
      let releaseFirst = (): void => undefined;
      const released = new Promise<void>((resolve) => (releaseFirst = resolve));
      let sends = 0;
      const transport: MailTransport = {
        kind: files.kind,
        close: () => files.close(),
        send: async (message) => {
          sends += 1;
          if (sends === 1) {
            sending();
            await released;
          }
          await files.send(message);
        },
      };
      const stopping = new AbortController();
      const run = relayDueMail({ ...relayDeps('smtp://127.0.0.1:1', manualClock(), memoryLog()), transport }, stopping.signal);
      await firstSending;
      stopping.abort();
      releaseFirst();
      // The relay sends 4 at a time: those 4 are finished; the 2 others of the batch wait for a later run.
      expect(await run).toEqual({ sent: 4, retried: 0, failed: 0 });
      expect(await readdir(dir)).toHaveLength(4);
      expect(await outboxStatuses()).toEqual(expect.arrayContaining([{ status: 'sent', n: 4 }, { status: 'pending', n: 2 }]));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
