import { randomUUID } from 'node:crypto';
import { and, eq, isNull, ne } from 'drizzle-orm';
import Fastify, { type FastifyBaseLogger } from 'fastify';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Cause } from '../../shared/causes';
import { loadConfig } from '../platform/config';
import { donations, mailOutbox, receipts, recurringPlans, type MailOutboxRow } from '../db/schema';
import { markDonationRefunded } from '../ledger/intent-ledger';
import { createPendingDonation, markDonationFailed, markDonationSucceeded } from '../ledger/repository';
import { manualClock } from '../platform/clock';
import { PermanentComposeError } from '../mail/relay';
import { toIsoDate } from '../recurring/calendar';
import { memoryLog, type MemoryLog } from '../testing/payment-attempts';
import { PENDING_TEST_DONATION } from '../testing/pending-donation';
import { startSmtpTestServer, type SmtpTestServer } from '../testing/smtp-test-server';
import { createTestApp, validSubmission, type TestApp } from '../testing/test-app';
import { registerDigest } from './plugin';
import { loadDailyDigest } from './report';
import { digestDateDue, queueStaffDigests, startDigestRunner } from './runner';
import { previousDate } from './time-zone';

/**
 * The staff's daily digest (issue #14; decisions 0062, 0063) through the real app, outbox, relay and a real SMTP
 * server, on a manual clock (DESIGN.md, "Time"), in America/New_York around its spring-forward day (23 hours: 05:00Z
 * to 04:00Z the next day): queued from DIGEST_HOUR there, once per day and address whoever queues it,
 * composed from the rows of that day when sent, with counts and sums only.
 */

const TZ = 'America/New_York';
const STAFF = ['ops@reef.example.org', 'Treasurer@Reef.example.org'];
/**
 * The day of the digest: New York's spring-forward day (the second Sunday of March) of next year, so that every message
 * the database queues now is due on the manual clock. It lasts from 05:00Z (00:00 EST) to 04:00Z the next day (00:00 EDT).
 */
const YEAR = new Date().getUTCFullYear() + 1;
const DAY_OF_MONTH = 8 + ((7 - new Date(Date.UTC(YEAR, 2, 8)).getUTCDay()) % 7);
const DAY = `${YEAR}-03-${String(DAY_OF_MONTH).padStart(2, '0')}`;
/** As the digest writes DAY: `Sunday 14 March 2027`. */
const DAY_WRITTEN = `Sunday ${DAY_OF_MONTH} March ${YEAR}`;
/** The instant `time` (UTC, `hh:mm:ss.sss`) on the day `days` after DAY. */
const at = (days: number, time: string) => new Date(`${toIsoDate(new Date(Date.UTC(YEAR, 2, DAY_OF_MONTH + days)))}T${time}Z`);
/** 06:59:59.999 EDT the day after: just before DIGEST_HOUR (7). */
const BEFORE_HOUR = at(1, '10:59:59.999');
/** 07:00 EDT the day after: DIGEST_HOUR. */
const AT_HOUR = at(1, '11:00:00');
/** A donor whose receipts the SMTP server refuses for good (550). */
const BOUNCING_DONOR = 'bounce@example.org';

const clock = manualClock(BEFORE_HOUR);
const log = memoryLog();
let smtp: SmtpTestServer;
let t: TestApp;
beforeAll(async () => {
  smtp = await startSmtpTestServer({ rejectRecipients: [BOUNCING_DONOR] });
  t = await createTestApp({ env: { SMTP_URL: smtp.url, STAFF_EMAILS: STAFF.join(', '), DIGEST_HOUR: '7', TZ }, clock, logger: log.logger });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});
beforeEach(async () => {
  await t.reset();
  smtp.received.length = 0;
  clock.set(BEFORE_HOUR);
});

/** What a runner of this file's app works with, logging into `runLog`. */
const runnerDeps = (runLog: MemoryLog) => ({ db: t.db, clock, log: runLog.logger as unknown as FastifyBaseLogger, settings: t.config.digest });

const digestsTo = (address: string): ParsedMail[] =>
  smtp.received.filter(
    (mail) => mail.subject?.startsWith('Daily digest') && !Array.isArray(mail.to) && mail.to?.value.some((to) => to.address?.toLowerCase() === address.toLowerCase()),
  );

const digestRows = () => t.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'staff_digest'));

/** A succeeded gift of `amountCents` to `cause` by `email`, received (its receipt issued) at `receivedAt`. */
async function gift(amountCents: number, cause: Cause, receivedAt: Date, email = 'ana@example.org'): Promise<{ id: string; transactionId: string }> {
  const id = await createPendingDonation(t.db, { ...PENDING_TEST_DONATION, donorEmail: email, amountCents, cause });
  const transactionId = `ch_test_${randomUUID().replaceAll('-', '')}`;
  await markDonationSucceeded(t.db, id, { transactionId, cardBrand: 'visa', last4: '4242', isTestPayment: true }, { statusCode: 200, body: {} });
  await t.db.update(receipts).set({ issuedAt: receivedAt }).where(eq(receipts.donationId, id));
  return { id, transactionId };
}

/** A $30 monthly plan started through the API, created at `createdAt`; its first gift received a week before the day. */
async function plan(createdAt: Date): Promise<string> {
  const donorEmail = `plan-${randomUUID()}@example.org`;
  const answer = await t.postDonation(validSubmission({ amount: 30, frequency: 'monthly', donorEmail }));
  expect(answer.statusCode).toBe(200);
  const [first] = await t.db.select({ id: donations.id }).from(donations).where(eq(donations.donorEmail, donorEmail));
  const [created] = await t.db
    .update(recurringPlans)
    .set({ createdAt, updatedAt: createdAt })
    .where(eq(recurringPlans.firstDonationId, first?.id ?? ''))
    .returning({ id: recurringPlans.id });
  if (!first || !created) throw new Error('no plan');
  await t.db.update(receipts).set({ issuedAt: at(-7, '12:00:00') }).where(eq(receipts.donationId, first.id));
  return created.id;
}

/** Cancels a plan at `cancelledAt`, as the donor's cancel does (status and updated_at). */
const cancel = (planId: string, cancelledAt: Date) =>
  t.db.update(recurringPlans).set({ status: 'cancelled', updatedAt: cancelledAt }).where(eq(recurringPlans.id, planId));

/** A declined try of a renewal (period 1) of `planId`, or of a one-time gift when `planId` is null, declined at `declinedAt`. */
async function declined(planId: string | null, declinedAt: Date): Promise<void> {
  const id = await createPendingDonation(t.db, { ...PENDING_TEST_DONATION, amountCents: 3000, frequency: planId ? 'monthly' : 'one-time' });
  if (planId) await t.db.update(donations).set({ recurringPlanId: planId, recurringPeriod: 1, recurringAttempt: 1 }).where(eq(donations.id, id));
  await markDonationFailed(t.db, id, { declineCode: 'card_declined' }, { statusCode: 402, body: {} });
  await t.db.update(donations).set({ updatedAt: declinedAt }).where(eq(donations.id, id));
}

/**
 * The rows of DAY in New York and around it, with what the digest of that day must say:
 * gifts: $25 research at its first millisecond, $40 marine at its last, $100 marine with $30 refunded since ($70 kept),
 * $50 education refunded in full (left out), $10 research a millisecond before and at the first instant after (the
 * days before and after: 23:59:59.999 EST on the 7th, 00:00 EDT on the 9th, which a fixed UTC-5 would count);
 * plans: one created in the day, one cancelled in it, one cancelled the day after; declines: a renewal in the day, a
 * one-time gift in the day (not a renewal); mail: a receipt refused for good in the day, one refused the day before,
 * one still being retried.
 */
async function seedDay(): Promise<void> {
  await gift(2500, 'research-science', at(0, '05:00:00.000'));
  await gift(4000, 'marine-protected-areas', at(1, '03:59:59.999'));
  const partlyRefunded = await gift(10000, 'marine-protected-areas', at(0, '17:00:00'));
  // Two gifts came by a campaign's link (issue #23): one kept in part, one refunded in full (left out).
  await t.db.update(donations).set({ refundedCents: 3000, campaign: 'spring-appeal' }).where(eq(donations.id, partlyRefunded.id));
  const refunded = await gift(5000, 'education-outreach', at(0, '18:00:00'));
  await t.db.update(donations).set({ campaign: 'spring-appeal' }).where(eq(donations.id, refunded.id));
  await markDonationRefunded(t.db, refunded.id, refunded.transactionId);
  await gift(1000, 'research-science', at(0, '04:59:59.999'));
  await gift(1000, 'research-science', at(1, '04:00:00.000'));

  const newPlan = await plan(at(0, '15:00:00'));
  await cancel(await plan(at(-35, '15:00:00')), at(0, '20:00:00'));
  await cancel(await plan(at(-35, '15:00:00')), at(1, '05:00:00'));
  await declined(newPlan, at(0, '16:00:00'));
  await declined(null, at(0, '16:00:00'));

  const bounced = await gift(2000, 'education-outreach', at(-7, '12:00:00'), BOUNCING_DONOR);
  const bouncedBefore = await gift(2000, 'education-outreach', at(-7, '12:00:00'), BOUNCING_DONOR);
  const retrying = await gift(2000, 'education-outreach', at(-7, '12:00:00'), 'slow@example.org');
  await t.db
    .update(mailOutbox)
    .set({ attempts: 2, lastError: '{"code":"ETIMEDOUT"}', nextAttemptAt: new Date(Date.UTC(YEAR + 5, 0, 1)) })
    .where(eq(mailOutbox.donationId, retrying.id));
  // The donors' receipts count as sent (rendering their PDFs would only slow the test); the bounces are tried now and
  // refused for good, then their last attempts are dated.
  await t.db.update(mailOutbox).set({ status: 'sent' }).where(and(eq(mailOutbox.status, 'pending'), isNull(mailOutbox.lastError), ne(mailOutbox.recipient, BOUNCING_DONOR)));
  expect(await t.app.mail.relayDue()).toEqual({ sent: 0, retried: 0, failed: 2 });
  await t.db.update(mailOutbox).set({ nextAttemptAt: at(0, '21:00:00') }).where(eq(mailOutbox.donationId, bounced.id));
  await t.db.update(mailOutbox).set({ nextAttemptAt: at(0, '04:00:00') }).where(eq(mailOutbox.donationId, bouncedBefore.id));
  smtp.received.length = 0;
}

describe('when the digest is queued', () => {
  it('is due from DIGEST_HOUR in TZ for the day before there, and not a millisecond earlier (New York, its spring-forward day)', () => {
    const settings = { hour: 7, timeZone: TZ };
    expect(digestDateDue(at(1, '10:59:59.999'), settings)).toBeUndefined();
    expect(digestDateDue(at(1, '11:00:00'), settings)).toBe(DAY);
    expect(digestDateDue(at(2, '03:59:59'), settings)).toBe(DAY);
    expect(digestDateDue(at(2, '04:00:00'), settings)).toBeUndefined();
    // 07:00 UTC is 02:00 EST: not yet in New York, whereas a UTC digest is due.
    expect(digestDateDue(at(1, '07:00:00'), settings)).toBeUndefined();
    expect(digestDateDue(at(1, '07:00:00'), { hour: 7, timeZone: 'UTC' })).toBe(DAY);
    // DIGEST_HOUR 2 on the spring-forward day, whose 02:00 does not exist: due when the clocks jump to 03:00 EDT.
    expect(digestDateDue(at(0, '06:59:59'), { hour: 2, timeZone: TZ })).toBeUndefined();
    expect(digestDateDue(at(0, '07:00:00'), { hour: 2, timeZone: TZ })).toBe(previousDate(DAY));
  });

  it('queues nothing before DIGEST_HOUR, then one per staff address at it: a second run or a second runner queues no more', async () => {
    const runLog = memoryLog();
    const runner = startDigestRunner(runnerDeps(runLog));
    try {
      expect(await runner.runNow()).toBeUndefined();
      expect(await digestRows()).toEqual([]);
      clock.set(AT_HOUR);
      expect(await runner.runNow()).toEqual({ date: DAY, queued: 2 });
      expect(await runner.runNow()).toBeUndefined();
      // Another process (a restart): its first check runs as it starts, and finds both queued.
      const other = startDigestRunner(runnerDeps(runLog));
      await other.stop();
      expect(runLog.events('digest.queued').map((entry) => [entry.date, entry.queued])).toEqual([
        [DAY, 2],
        [DAY, 0],
      ]);
      const rows = await digestRows();
      expect(rows.map((row) => row.dedupeKey).sort()).toEqual([`staff_digest:${DAY}:ops@reef.example.org`, `staff_digest:${DAY}:treasurer@reef.example.org`]);
      expect(rows.map((row) => row.digestDate)).toEqual([DAY, DAY]);
      expect(runLog.lines.some((line) => /reef\.example\.org/i.test(line))).toBe(false);
      // The next day, the next digest.
      clock.set(at(2, '11:00:00'));
      expect(await runner.runNow()).toEqual({ date: toIsoDate(at(1, '12:00:00')), queued: 2 });
    } finally {
      await runner.stop();
    }
    await t.app.mail.relayDue();
    for (const address of STAFF) expect(digestsTo(address)).toHaveLength(2);
  });

  it('two processes at the same instant queue one message per address between them', async () => {
    clock.set(AT_HOUR);
    const [first, second] = await Promise.all([queueStaffDigests(t.db, DAY, STAFF), queueStaffDigests(t.db, DAY, STAFF)]);
    expect(first + second).toBe(2);
    expect(await digestRows()).toHaveLength(2);
  });

  it('queues nothing without STAFF_EMAILS, and refuses for good to compose a digest queued before it was unset', async () => {
    const app = Fastify();
    const config = loadConfig({ DIGEST_HOUR: '7', TZ });
    expect(config.digest).toBeUndefined();
    const { compose } = registerDigest(app, { db: t.db, config, clock });
    try {
      clock.set(AT_HOUR);
      expect(await app.digest.queueDue()).toBeUndefined();
      expect(await digestRows()).toEqual([]);
      await queueStaffDigests(t.db, DAY, STAFF.slice(0, 1));
      const [row] = await digestRows();
      await expect(compose(row as MailOutboxRow)).rejects.toBeInstanceOf(PermanentComposeError);
    } finally {
      await app.close();
    }
  });
});

describe('what the digest says', () => {
  it('counts the day in TZ, daylight saving included: gifts kept by cause and by campaign, new and cancelled plans, failed renewals, mail not sent', async () => {
    await seedDay();
    expect(await loadDailyDigest(t.db, DAY, TZ)).toEqual({
      date: DAY,
      timeZone: TZ,
      gifts: {
        count: 3,
        amountCents: 13_500,
        byCause: [
          { cause: 'marine-protected-areas', count: 2, amountCents: 11_000 },
          { cause: 'research-science', count: 1, amountCents: 2500 },
          { cause: 'education-outreach', count: 0, amountCents: 0 },
          { cause: 'sustainable-development', count: 0, amountCents: 0 },
          { cause: 'communications-marketing', count: 0, amountCents: 0 },
        ],
      },
      dedicatedGifts: { honor: 0, memory: 0 },
      byCampaign: [{ campaign: 'spring-appeal', count: 1, amountCents: 7000 }],
      newPlans: 1,
      cancelledPlans: 1,
      failedRenewals: { count: 1, amountCents: 3000 },
      mail: { failed: [{ kind: 'receipt', count: 1 }], retrying: [{ kind: 'receipt', count: 1 }] },
    });
    // The same rows counted as UTC days: the last hour of the 8th in New York is the 9th in UTC.
    expect((await loadDailyDigest(t.db, DAY, 'UTC')).gifts).toMatchObject({ count: 3, amountCents: 10_500 });
  });

  it('is delivered to every staff address by SMTP, HTML and text, with counts and sums and no donor details', async () => {
    await seedDay();
    clock.set(AT_HOUR);
    expect(await t.app.digest.queueDue()).toEqual({ date: DAY, queued: 2 });
    expect(await t.app.mail.relayDue()).toMatchObject({ sent: 2, failed: 0 });
    for (const address of STAFF) {
      const [mail, ...more] = digestsTo(address);
      expect(more).toEqual([]);
      expect(mail?.subject).toBe(`Daily digest, ${DAY_WRITTEN}: $135.00 USD from 3 gifts`);
      const text = mail?.text ?? '';
      for (const line of [
        `${DAY_WRITTEN}, from midnight to midnight in America/New_York.`,
        'Total: $135.00 USD from 3 gifts',
        'Marine Protected Areas Management: $110.00 USD from 2 gifts',
        'Research and Science: $25.00 USD from 1 gift',
        'Education and Outreach: $0.00 USD from 0 gifts',
        'New plans: 1',
        'Cancelled plans: 1',
        'Failed renewals: 1 ($30.00 USD)',
        'Given up in the day: receipt: 1',
        'Still being retried: receipt: 1',
      ]) {
        expect(text).toContain(line);
      }
      expect(mail?.html).toMatch(/Total: (<!-- -->)?\$135\.00 USD(<!-- -->)? from (<!-- -->)?3 gifts/);
      for (const part of [text, mail?.html ?? '']) {
        expect(part).not.toMatch(/@example\.org|Ana Reef/);
      }
    }
  });

  it('a server started after DIGEST_HOUR queues the day\'s digest at once and sends it, once', async () => {
    clock.set(at(1, '15:00:00'));
    const logged = log.lines.length;
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    // The runner's first check and the relay both start when the server listens; no sleeping, just polling.
    await expect.poll(() => STAFF.map((address) => digestsTo(address).length), { timeout: 15_000 }).toEqual([1, 1]);
    expect(digestsTo(STAFF[0] ?? '')[0]?.subject).toBe(`Daily digest, ${DAY_WRITTEN}: $0.00 USD from 0 gifts`);
    expect(await digestRows()).toHaveLength(2);
    const lines = log.lines.slice(logged);
    expect(lines.filter((line) => line.includes('"event":"digest.queued"'))).toHaveLength(1);
    expect(lines.some((line) => /reef\.example\.org/i.test(line))).toBe(false);
  });
});
