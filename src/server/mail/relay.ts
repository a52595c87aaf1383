import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client';
import type { MailOutboxRow } from '../db/schema';
import { RETRY_GIVE_UP_AFTER_MS, retryDelayMs } from './backoff';
import type { Clock } from '../platform/clock';
import { claimDueMessages, markMailFailed, markMailSent, messageIdOf, scheduleMailRetry } from './outbox';
import { isPermanentMailError, MAIL_SEND_CONCURRENCY, mailErrorSummary, type MailTransport } from './transport';
import type Mail from 'nodemailer/lib/mailer';
import { startPeriodicRunner } from '../platform/periodic-runner';

/**
 * The outbox relay (issue #12, decision 0040): sends what the outbox holds, due, through the transport; retries
 * temporary failures with exponential backoff and jitter; stops at a permanent one and logs the event
 * `mail.failed` (an operator's alert). It runs in the server process, one run at a time, every
 * MAIL_POLL_INTERVAL_MS; several processes on one PostgreSQL share the work through claimDueMessages.
 */

/** A message's content, rendered from the rows it names when it is sent: recipient, subject, parts, attachments. */
export type ComposedMail = Required<Pick<Mail.Options, 'to' | 'subject' | 'html' | 'text'>> & Pick<Mail.Options, 'attachments'>;

/** Renders an outbox row's message; rejects when it cannot (a permanent failure of that message). */
export type ComposeMail = (row: MailOutboxRow) => Promise<ComposedMail>;

/** Raised by a composer when a message can never be rendered (its donation is gone...): not retried. */
export class PermanentComposeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PermanentComposeError';
  }
}

/** What the relay works with. `random` feeds the jitter (Math.random by default; tests pass a seeded one). */
export interface MailRelayDeps {
  db: Database;
  transport: MailTransport;
  compose: ComposeMail;
  clock: Clock;
  log: FastifyBaseLogger;
  /** MAIL_FROM. */
  from: string;
  random?: () => number;
  /**
   * Messages already rendered, by outbox id, so a retry sends the same bytes without rendering (and drawing the
   * PDF) again; an entry goes when its message is sent or failed. Optional; startMailRelay and registerMail keep one.
   */
  rendered?: Map<string, ComposedMail>;
}

/** Most messages kept rendered between attempts (see MailRelayDeps.rendered); the oldest go first past it. */
const MAX_RENDERED = 500;

/** What one run did: messages sent, put back for a retry, and failed for good. */
export interface RelayReport {
  sent: number;
  retried: number;
  failed: number;
}

/** Messages claimed per query. */
const BATCH_SIZE = 20;
/** How long a claim lasts, in ms: longer than a send can take (SMTP timeouts 10 + 30 s), so no two relays send one message at once. */
export const CLAIM_LEASE_MS = 2 * 60 * 1000;

/** The domain of an address or `Name <address>` (MAIL_FROM), for Message-IDs. */
export function senderDomain(from: string): string {
  const address = /<([^>]+)>/.exec(from)?.[1] ?? from;
  return address.slice(address.lastIndexOf('@') + 1).trim() || 'localhost';
}

/** `2026-11-23T17-05-09Z-receipt-<id>`: the `.eml` name of a row, sortable by time. */
function fileStemOf(row: MailOutboxRow): string {
  return `${row.createdAt.toISOString().slice(0, 19).replaceAll(':', '-')}Z-${row.kind}-${row.id}`;
}

/**
 * Sends one claimed row and records the outcome: sent; a temporary failure put back due after
 * retryDelayMs(attempts) (or failed once it is older than RETRY_GIVE_UP_AFTER_MS); a permanent one failed.
 * Logs the outbox id, kind, donation id and Message-ID only, never an address or a name (issue #10).
 */
async function relayOne(deps: MailRelayDeps, row: MailOutboxRow): Promise<keyof RelayReport> {
  const { db, clock, log } = deps;
  const messageId = messageIdOf(row, senderDomain(deps.from));
  const about = { outboxId: row.id, kind: row.kind, donationId: row.donationId ?? undefined, messageId, attempt: row.attempts };
  try {
    const content = deps.rendered?.get(row.id) ?? (await deps.compose(row));
    if (deps.rendered && !deps.rendered.has(row.id)) {
      if (deps.rendered.size >= MAX_RENDERED) deps.rendered.delete(deps.rendered.keys().next().value ?? '');
      deps.rendered.set(row.id, content);
    }
    await deps.transport.send({ ...content, from: deps.from, messageId, date: row.createdAt, fileStem: fileStemOf(row) });
  } catch (error) {
    const summary = mailErrorSummary(error);
    const reason = JSON.stringify({ ...summary, name: error instanceof Error ? error.name : 'Error' });
    const permanent = error instanceof PermanentComposeError || isPermanentMailError(error);
    const tooOld = clock.now().getTime() - row.createdAt.getTime() >= RETRY_GIVE_UP_AFTER_MS;
    if (permanent || tooOld) {
      deps.rendered?.delete(row.id);
      await markMailFailed(db, row.id, reason);
      log.error(
        { event: 'mail.failed', ...about, ...summary, permanent },
        permanent ? 'Mail refused permanently; not retried' : 'Mail still failing after the retry period; given up',
      );
      return 'failed';
    }
    const delayMs = retryDelayMs(row.attempts, deps.random);
    await scheduleMailRetry(db, row.id, new Date(clock.now().getTime() + delayMs), reason);
    log.warn({ event: 'mail.retry', ...about, ...summary, delayMs }, 'Mail temporarily refused; will retry');
    return 'retried';
  }
  deps.rendered?.delete(row.id);
  await markMailSent(db, row.id, clock.now());
  log.info({ event: 'mail.sent', ...about }, 'Mail sent');
  return 'sent';
}

/**
 * One relay run: claims the messages due (in batches of 20, until none is left due) and sends them, 4 at a time.
 * Once `signal` is aborted (the relay stops: graceful shutdown, issue #14) it returns after the 4 being sent; the
 * other claimed messages wait for their lease to expire (CLAIM_LEASE_MS) and a later run sends them.
 * Resolves with what it did; rejects when the database fails (the next run starts over; leases expire).
 */
export async function relayDueMail(deps: MailRelayDeps, signal?: AbortSignal): Promise<RelayReport> {
  const report: RelayReport = { sent: 0, retried: 0, failed: 0 };
  for (;;) {
    const batch = await claimDueMessages(deps.db, { now: deps.clock.now(), leaseMs: CLAIM_LEASE_MS, limit: BATCH_SIZE });
    for (let start = 0; start < batch.length; start += MAIL_SEND_CONCURRENCY) {
      if (signal?.aborted) return report;
      const outcomes = await Promise.all(batch.slice(start, start + MAIL_SEND_CONCURRENCY).map((row) => relayOne(deps, row)));
      for (const outcome of outcomes) report[outcome] += 1;
    }
    if (batch.length < BATCH_SIZE || signal?.aborted) return report;
  }
}

/** A running relay: `runNow` asks for a run as soon as the current one ends; `stop` ends the loop after it. */
export interface RunningMailRelay {
  /** Starts a run now (or right after the current one); resolves when that run is over. */
  runNow(): Promise<void>;
  /** Stops polling and resolves once the current run is over: at once after the messages being sent (graceful shutdown, issue #14). */
  stop(): Promise<void>;
}

/**
 * Starts the relay loop: a run now, then one `intervalMs` after each run ends (never two at once). A failed run
 * is logged and the next one happens on schedule.
 */
export function startMailRelay(deps: MailRelayDeps, intervalMs: number): RunningMailRelay {
  const runner = startPeriodicRunner({
    intervalMs,
    run: async (signal) => {
      const report = await relayDueMail(deps, signal);
      if (report.sent + report.retried + report.failed > 0) deps.log.info({ relay: report }, 'Mail relay run finished');
    },
    onError: (error) => deps.log.error({ err: error }, 'Mail relay run failed; retrying at the next interval'),
  });
  return { runNow: async () => void (await runner.runNow()), stop: runner.stop };
}
