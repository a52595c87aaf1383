import { sql } from 'drizzle-orm';
import { columnPlaceholder, preparedStatement } from '../db/prepared';
import type { Database } from '../db/client';
import { campaigns, donations, idempotencyKeys, mailOutbox, receiptCounters, receipts, webhookEndpoints } from '../db/schema';
import { subscribedTo } from '../webhooks/record';
import { receiptNumberSql } from './receipt-entries';

/**
 * A donation's outcome in ONE prepared statement each (issue #39, decision 0115): what the ledger writes when a gift
 * succeeds (issue #12, decision 0040: never a success without its receipt, nor a receipt without its success), as a
 * single round trip instead of a transaction of eight, and when it is declined. Both complete the donation's
 * Idempotency-Key, if it has one, with the answer to replay, so the outcome and that answer are recorded together or not
 * at all (issue #3).
 */

/** What {@link succeedInOneStatement} writes: the gateway's outcome, the answer stored with the key, and from which statuses. */
export interface SuccessValues {
  donationId: string;
  transactionId: string;
  cardBrand: string;
  last4: string;
  isTestPayment: boolean;
  /** The API answer kept with the donation's Idempotency-Key (if it has one), for replays (issue #3). */
  responseStatus: number;
  responseBody: unknown;
  /** The statuses the donation may move from (pending; a payment intent's `failed` too, issue #11). */
  from: readonly ('pending' | 'failed')[];
  /**
   * True: write nothing when the success may have events to record: an active webhook endpoint is subscribed to
   * `donation.succeeded`, or the gift's campaign has a goal not reached yet (`campaign.goal_reached`, decision 0113). The
   * caller then writes the success and its events together, in a transaction. False: write the success whatever.
   */
  unlessEvents: boolean;
}

/** The statement's one row: the new receipt's number (null when nothing was written), and whether an endpoint wants the event. */
interface SuccessRow {
  receipt_number: string | null;
  events_wanted: boolean;
}

/** A value of the statements below: a placeholder sent as its column's driver value. */
const value = columnPlaceholder;

/** The CTE that completes the Idempotency-Key of the donation `moved` returned, if it has one, with the answer to replay. */
const completedKeySql = () => sql`UPDATE ${idempotencyKeys} SET status = 'completed', response_status = ${value('responseStatus', idempotencyKeys.responseStatus)},
        response_body = ${value('responseBody', idempotencyKeys.responseBody)}
      WHERE donation_id IN (SELECT id FROM moved)`;

/**
 * The statement. Its parts are data-modifying CTEs of one statement: all or nothing, one snapshot, each part
 * reading the others only through `moved`'s RETURNING:
 * - moved: the donation to `succeeded` with the gateway's transaction id, brand and last4 (`WHERE status = ANY(from)`,
 *   and the database's transition trigger), unless `unlessEvents` and the success may have events to record;
 * - completed: its Idempotency-Key, if any, completed with the answer to replay;
 * - counter, receipt: the next receipt number of the current UTC year (database clock; receipt_counters' upsert, its row
 *   locked until the statement commits, so numbers follow the commits without gaps; decision 0041) and the receipt;
 * - mails: the receipt's e-mail to the donor, and the card of a dedicated gift to the notified address (issue #23), queued
 *   in the outbox (unique per kind and donation, so never twice).
 * Answers the receipt's number (null when `moved` wrote nothing) and whether the success may have events to record.
 */
const succeedStatement = preparedStatement<SuccessRow>('ledger_donation_succeeded', () => {
  const eventsWanted = sql`(EXISTS (SELECT 1 FROM ${webhookEndpoints} WHERE ${subscribedTo('donation.succeeded')})
    OR EXISTS (SELECT 1 FROM ${donations} d JOIN ${campaigns} c ON c.slug = d.campaign
      WHERE d.id = ${value('donationId', donations.id)} AND c.goal_cents IS NOT NULL AND c.goal_reached_at IS NULL))`;
  return sql`WITH moved AS (
      UPDATE ${donations} SET status = 'succeeded', gateway_transaction_id = ${value('transactionId', donations.gatewayTransactionId)},
        card_brand = ${value('cardBrand', donations.cardBrand)}, card_last4 = ${value('last4', donations.cardLast4)},
        is_test_payment = ${value('isTestPayment', donations.isTestPayment)}, updated_at = now()
      WHERE id = ${value('donationId', donations.id)} AND status = ANY(${sql.placeholder('from')}::text[])
        AND NOT (${sql.placeholder('unlessEvents')}::boolean AND ${eventsWanted})
      RETURNING id, donor_email, tribute_notify_email),
    completed AS (${completedKeySql()}),
    counter AS (
      INSERT INTO ${receiptCounters} (year, last_number) SELECT extract(year from now() at time zone 'UTC')::integer, 1 FROM moved
      ON CONFLICT (year) DO UPDATE SET last_number = ${receiptCounters}.last_number + 1
      RETURNING year, last_number),
    receipt AS (
      INSERT INTO ${receipts} (number, donation_id, year, sequence)
      SELECT ${receiptNumberSql(sql`counter.year`, sql`counter.last_number`)}, moved.id, counter.year, counter.last_number FROM moved, counter
      RETURNING number),
    mails AS (
      INSERT INTO ${mailOutbox} (kind, dedupe_key, recipient, donation_id)
      SELECT m.kind, m.kind || ':' || moved.id, m.recipient, moved.id
      FROM moved, LATERAL (VALUES ('receipt', moved.donor_email), ('tribute_card', moved.tribute_notify_email)) AS m(kind, recipient)
      WHERE m.recipient IS NOT NULL
      ON CONFLICT DO NOTHING)
    SELECT (SELECT number FROM receipt) AS receipt_number, ${eventsWanted} AS events_wanted`;
});

/**
 * Runs the success of `values.donationId` in `db` (a database: its own commit; or a transaction). Resolves with the
 * receipt's number, or with null and whether the success may have events to record when nothing was written (the
 * donation is not in a status of `from`, or `unlessEvents` and it may). Rejects as the statement fails (a second
 * receipt of one donation, the database unreachable...), writing nothing.
 */
export async function succeedInOneStatement(db: Database, values: SuccessValues): Promise<{ receiptNumber: string | null; eventsWanted: boolean }> {
  const [row] = await succeedStatement(db, { ...values, from: [...values.from] });
  if (!row) throw new Error('The success statement returned no row');
  return { receiptNumber: row.receipt_number, eventsWanted: row.events_wanted };
}

/**
 * The decline: the donation to `failed` with the gateway's decline code, if it is `pending` (and the database's
 * transition trigger), and its key completed. Answers the donation's id, or no row when it was not pending.
 */
const failStatement = preparedStatement<{ id: string }>('ledger_donation_failed', () => sql`WITH moved AS (
      UPDATE ${donations} SET status = 'failed', decline_code = ${value('declineCode', donations.declineCode)}, updated_at = now()
      WHERE id = ${value('donationId', donations.id)} AND status = 'pending'
      RETURNING id),
    completed AS (${completedKeySql()})
    SELECT id FROM moved`);

/**
 * Moves `donationId` from `pending` to `failed` with `declineCode` and completes its key with the answer (`responseStatus`,
 * `responseBody`), in `db`. Resolves with whether it moved (false: not pending, or no such donation). Rejects as the
 * statement fails, writing nothing.
 */
export async function failInOneStatement(
  db: Database,
  values: { donationId: string; declineCode: string; responseStatus: number; responseBody: unknown },
): Promise<boolean> {
  return (await failStatement(db, values)).length === 1;
}
