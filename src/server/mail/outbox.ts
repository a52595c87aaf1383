import { and, asc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { mailOutbox, type MailKind, type MailOutboxRow } from '../db/schema';
import type { Locale } from '../../shared/i18n/locales';

/**
 * The transactional outbox's reads and writes (issue #12, decision 0040). A message is enqueued by the
 * transaction that makes it true (pass that transaction as `db`), then claimed, sent and marked by the relay.
 * Times come from the relay's clock (DESIGN.md, "Time"), except `created_at`, the database's.
 */

/** A message to enqueue: its kind, what makes it unique, whom it goes to, and what it is about. */
export interface OutboxMessage {
  kind: MailKind;
  /** Unique per message (`receipt:<donation id>`...): enqueueing the same key twice writes one row. */
  dedupeKey: string;
  /** The recipient's address. */
  recipient: string;
  /** The donation a receipt or void notice is about. */
  donationId?: string;
  /** The calendar year of a year-end statement. */
  statementYear?: number;
  /** The recurring plan a plan's message is about (issue #13). */
  recurringPlanId?: string;
  /** The refund a `partial_refund` notice reports (issue #14). */
  refundId?: string;
  /** The day (in the staff's TZ, `YYYY-MM-DD`) a `staff_digest` summarises (issue #14). */
  digestDate?: string;
  /** The link a `staff_invitation` or `staff_sign_in_link` carries (issue #21). */
  staffLinkId?: string;
  /** The language the donor asked in (issue #24: a `receipt_links` or `manage_links` request); else the gift's. */
  locale?: Locale;
  /** The webhook endpoint a `webhook_endpoint_paused` message is about (issue #38). */
  webhookEndpointId?: string;
  /** When the message is due: at once (the database's now) unless said; later for one that waits (decision 0097b). */
  dueAt?: Date;
}

/**
 * Writes a `pending` message due at once (or at `message.dueAt`), in `db` (a transaction, to tie it to the change it reports).
 * Returns its id, or undefined when a message with the same dedupe key (or kind and donation) exists already.
 */
export async function enqueueMail(db: Database, message: OutboxMessage): Promise<string | undefined> {
  const [row] = await db
    .insert(mailOutbox)
    .values({
      kind: message.kind,
      dedupeKey: message.dedupeKey,
      recipient: message.recipient,
      donationId: message.donationId ?? null,
      statementYear: message.statementYear ?? null,
      recurringPlanId: message.recurringPlanId ?? null,
      refundId: message.refundId ?? null,
      digestDate: message.digestDate ?? null,
      staffLinkId: message.staffLinkId ?? null,
      locale: message.locale ?? null,
      webhookEndpointId: message.webhookEndpointId ?? null,
      ...(message.dueAt === undefined ? {} : { nextAttemptAt: message.dueAt }),
    })
    .onConflictDoNothing()
    .returning({ id: mailOutbox.id });
  return row?.id;
}

/**
 * Writes `messages` `pending` and due at once, in `db` (the transaction of the change they report), in ONE insert whatever
 * their number (a CSV import's receipts; issue #37), skipping any whose dedupe key (or kind and donation) exists already, as
 * {@link enqueueMail}. Resolves with how many were written.
 */
export async function enqueueMails(db: Database, messages: readonly Pick<OutboxMessage, 'kind' | 'dedupeKey' | 'recipient' | 'donationId'>[]): Promise<number> {
  if (messages.length === 0) return 0;
  // One statement, its rows in one json parameter (a multi-row VALUES costs the query builder ~0.3 s per 1,000 rows).
  const messagesJson = JSON.stringify(messages.map((message) => ({ kind: message.kind, dedupe_key: message.dedupeKey, recipient: message.recipient, donation_id: message.donationId ?? null })));
  const written = await db.execute(sql`
    INSERT INTO mail_outbox (kind, dedupe_key, recipient, donation_id)
    SELECT m.kind, m.dedupe_key, m.recipient, m.donation_id
    FROM json_to_recordset(${messagesJson}::json) AS m(kind text, dedupe_key text, recipient text, donation_id uuid)
    ON CONFLICT DO NOTHING`);
  return (written as { rowCount?: number | null }).rowCount ?? 0;
}

/**
 * Claims up to `limit` messages due at `now` (pending, `next_attempt_at <= now`, no live lease), oldest due first,
 * in ONE statement: the rows are chosen `FOR UPDATE SKIP LOCKED` (so relays of several processes never claim the
 * same row), get a lease until `now + leaseMs` and one more attempt. Returns the claimed rows.
 * A relay that dies while sending leaves its lease to expire; the message is then claimed again (same Message-ID).
 */
export async function claimDueMessages(
  db: Database,
  { now, leaseMs, limit }: { now: Date; leaseMs: number; limit: number },
): Promise<MailOutboxRow[]> {
  const due = db
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    .where(
      and(
        eq(mailOutbox.status, 'pending'),
        lte(mailOutbox.nextAttemptAt, now),
        or(isNull(mailOutbox.lockedUntil), lte(mailOutbox.lockedUntil, now)),
      ),
    )
    .orderBy(asc(mailOutbox.nextAttemptAt))
    .limit(limit)
    .for('update', { skipLocked: true });
  return db
    .update(mailOutbox)
    .set({ lockedUntil: new Date(now.getTime() + leaseMs), attempts: sqlIncrement() })
    .where(inArray(mailOutbox.id, due))
    .returning();
}

/** `attempts + 1`, for claimDueMessages. */
function sqlIncrement() {
  return sql`${mailOutbox.attempts} + 1`;
}

/** Marks a claimed message sent at `now`. */
export async function markMailSent(db: Database, id: string, now: Date): Promise<void> {
  await db
    .update(mailOutbox)
    .set({ status: 'sent', sentAt: now, lockedUntil: null, lastError: null })
    .where(and(eq(mailOutbox.id, id), eq(mailOutbox.status, 'pending')));
}

/** Puts a claimed message back, due at `nextAttemptAt`, with the reason of the failed attempt. */
export async function scheduleMailRetry(db: Database, id: string, nextAttemptAt: Date, reason: string): Promise<void> {
  await db
    .update(mailOutbox)
    .set({ nextAttemptAt, lockedUntil: null, lastError: reason })
    .where(and(eq(mailOutbox.id, id), eq(mailOutbox.status, 'pending')));
}

/** Marks a claimed message `failed` for good (a permanent refusal, or retried for too long), with the reason. */
export async function markMailFailed(db: Database, id: string, reason: string): Promise<void> {
  await db
    .update(mailOutbox)
    .set({ status: 'failed', lockedUntil: null, lastError: reason })
    .where(and(eq(mailOutbox.id, id), eq(mailOutbox.status, 'pending')));
}

/**
 * The Message-ID of an outbox row (RFC 5322 section 3.6.4): `<kind.row-id@domain>`, with `domain` that of the
 * sender. Deterministic, so every attempt of one row carries the same Message-ID and a receiver (or a person)
 * can recognise a retry after an unclear answer as the same message.
 */
export function messageIdOf(row: Pick<MailOutboxRow, 'id' | 'kind'>, domain: string): string {
  return `<${row.kind}.${row.id}@${domain}>`;
}

/**
 * What "retry now" found (issue #22, "Mail"): `due` (the message, with its previous status, is due at `now` again);
 * `not_found`; `sent` (nothing to retry); `cancelled` (withdrawn on purpose: a tribute card whose gift was refunded
 * before it was sent, issue #23); `sending` (a relay holds its claim: it is being sent right now).
 */
export type RetryNowOutcome =
  | { kind: 'due'; row: MailOutboxRow; previousStatus: 'pending' | 'failed' }
  | { kind: 'not_found' }
  | { kind: 'sent' }
  | { kind: 'cancelled' }
  | { kind: 'sending' };

/**
 * Makes message `id` due at `now`, in `db` (a transaction, to audit it with its effect; decision 0073): a waiting one
 * (queued or retrying) keeps its attempts and is simply due now; a failed one goes back to `pending`, due now (the relay
 * then tries it once more under the same rules: a permanent refusal fails it again). The row is read `FOR UPDATE`,
 * so this waits for a relay's claim statement (claimDueMessages) in progress and then sees its lease: a message a relay
 * has claimed and not yet marked is `sending` and left alone, never sent twice; once made due, a relay claims it as any
 * other. Resolves with the outcome; changes nothing unless `due`.
 */
export async function retryMailNow(db: Database, id: string, now: Date): Promise<RetryNowOutcome> {
  const [row] = await db.select().from(mailOutbox).where(eq(mailOutbox.id, id)).for('update');
  if (!row) return { kind: 'not_found' };
  if (row.status === 'sent') return { kind: 'sent' };
  if (row.status === 'cancelled') return { kind: 'cancelled' };
  if (row.lockedUntil !== null && row.lockedUntil > now) return { kind: 'sending' };
  const [updated] = await db
    .update(mailOutbox)
    .set({ status: 'pending', nextAttemptAt: now, lockedUntil: null })
    .where(eq(mailOutbox.id, id))
    .returning();
  return { kind: 'due', row: updated ?? row, previousStatus: row.status };
}
