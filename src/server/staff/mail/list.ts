import { and, desc, eq, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import { RECEIPT_KINDS, type StaffMailListAnswer, type StaffMailListQuery, type StaffMailRow } from '../../../shared/staff/mail-api';
import type { Database } from '../../db/client';
import { mailOutbox } from '../../db/schema';
import { mailStateOf } from '../shared/mail-state';
import { describeMailError } from './mail-error';

/**
 * The outbox as staff need it (issue #22, "Mail"): one page of messages filtered by state and kind, newest first, each
 * with its state as staff see it (staff/shared/mail-state.ts mailStateOf), its last error in words, and for a failed
 * receipt the later copy of it that resolved it (decision 0073).
 */

const receiptKinds = sql.join(RECEIPT_KINDS.map((kind) => sql`${kind}`), sql`, `);

/**
 * The message that resolved a failed receipt: the first receipt sent again for the same donation after it, not failed
 * (decision 0073); NULL for any other message. Selected as `id`, `recipient`, `status` and `last_error` of that message.
 * NOTE: written with the table's own names: in a one-table select Drizzle leaves its columns unqualified, which would
 * name the subquery's own.
 */
const resolvedBy = sql<{ id: string; recipient: string; status: 'pending' | 'sent' | 'failed'; last_error: string | null } | null>`(
  SELECT json_build_object('id', later.id, 'recipient', later.recipient, 'status', later.status, 'last_error', later.last_error)
  FROM mail_outbox AS later
  WHERE mail_outbox.status = 'failed' AND mail_outbox.kind IN (${receiptKinds}) AND later.donation_id = mail_outbox.donation_id
    AND later.kind = 'receipt_resend' AND later.created_at > mail_outbox.created_at AND later.status <> 'failed'
  ORDER BY later.created_at LIMIT 1)`;

/** Whether the message's donation is a charge of a recurring plan (NULL without a donation). */
const donationHasPlan = sql<boolean | null>`(SELECT donations.recurring_plan_id IS NOT NULL FROM donations WHERE donations.id = mail_outbox.donation_id)`;

/** The condition of a state filter on the outbox (see STAFF_MAIL_STATE_FILTERS), or undefined for `all`. */
export function mailStateCondition(state: StaffMailListQuery['state']): SQL | undefined {
  const retrying = and(eq(mailOutbox.status, 'pending'), isNotNull(mailOutbox.lastError));
  switch (state) {
    case 'attention':
      return or(retrying, and(eq(mailOutbox.status, 'failed'), sql`${resolvedBy} IS NULL`));
    case 'queued':
      return and(eq(mailOutbox.status, 'pending'), isNull(mailOutbox.lastError));
    case 'retrying':
      return retrying;
    case 'sent':
    case 'failed':
      return eq(mailOutbox.status, state);
    case 'all':
      return undefined;
  }
}

/**
 * One page of the outbox's messages that `query` selects (state, kind), newest first (ties by id), with how many it
 * selects; `sending` compares each lease with `now`. Rejects when the database fails.
 */
export async function listStaffMail(db: Database, query: StaffMailListQuery, now: Date): Promise<StaffMailListAnswer> {
  const where = and(mailStateCondition(query.state), query.kind === undefined ? undefined : eq(mailOutbox.kind, query.kind));
  const [rows, [counted]] = await Promise.all([
    db
      .select({ row: mailOutbox, resolvedBy, donationHasPlan })
      .from(mailOutbox)
      .where(where)
      .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    db.select({ total: sql<number>`count(*)::int` }).from(mailOutbox).where(where),
  ]);
  return {
    rows: rows.map(({ row, resolvedBy: resolver, donationHasPlan: hasPlan }): StaffMailRow => ({
      id: row.id,
      kind: row.kind as StaffMailRow['kind'],
      recipient: row.recipient,
      state: mailStateOf(row),
      attempts: row.attempts,
      nextAttemptAt: row.status === 'pending' ? row.nextAttemptAt.toISOString() : null,
      lastError: row.lastError === null ? null : describeMailError(row.lastError),
      sending: row.status === 'pending' && row.lockedUntil !== null && row.lockedUntil > now,
      createdAt: row.createdAt.toISOString(),
      sentAt: row.sentAt?.toISOString() ?? null,
      donationId: row.donationId,
      donationHasPlan: hasPlan === true,
      resolvedBy: resolver ? { id: resolver.id, recipient: resolver.recipient, state: mailStateOf({ status: resolver.status, lastError: resolver.last_error }) } : null,
    })),
    total: counted?.total ?? 0,
    page: query.page,
    pageSize: query.pageSize,
  };
}

