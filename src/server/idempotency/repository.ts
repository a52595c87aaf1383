import { and, eq, lt, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { idempotencyKeys, type IdempotencyKeyRow } from '../db/schema';

/**
 * Reads and prunes Idempotency-Key records (issue #3). Claiming a key and completing it happen together with
 * the donation's own writes, in ledger/repository.ts, so that key and donation never disagree.
 */

/** What a claimed key holds: the body's fingerprint, whether it is still in flight, and the answer to replay. */
export type IdempotencyRecord = Pick<IdempotencyKeyRow, 'fingerprint' | 'status' | 'responseStatus' | 'responseBody'>;

/** The record of `key`, or undefined when no request claimed it (or it was pruned). */
export async function findIdempotencyKey(db: Database, key: string): Promise<IdempotencyRecord | undefined> {
  const [row] = await db
    .select({
      fingerprint: idempotencyKeys.fingerprint,
      status: idempotencyKeys.status,
      responseStatus: idempotencyKeys.responseStatus,
      responseBody: idempotencyKeys.responseBody,
    })
    .from(idempotencyKeys)
    .where(eq(idempotencyKeys.key, key));
  return row;
}

/**
 * Deletes completed keys past their expiry (at least 24 hours after the claim; Stripe: "You can remove keys
 * from the system automatically after they're at least 24 hours old"). A later request with a pruned key is
 * processed as new. Keys still in flight are kept until the reconciler completes them. Returns how many went.
 */
export async function pruneExpiredIdempotencyKeys(db: Database): Promise<number> {
  const deleted = await db
    .delete(idempotencyKeys)
    .where(and(eq(idempotencyKeys.status, 'completed'), lt(idempotencyKeys.expiresAt, sql`now()`)))
    .returning({ key: idempotencyKeys.key });
  return deleted.length;
}

/**
 * Stores `key` as completed with `answer` for the donation `donationId` (confirm-donation, issue #11), unless
 * the key, or another key of that donation, is stored already (`ON CONFLICT DO NOTHING`: the first answer
 * stays). Kept `ttlHours` (at least 24).
 */
export async function storeCompletedIdempotencyKey(
  db: Database,
  record: { key: string; fingerprint: string; donationId: string; answer: { statusCode: number; body: unknown }; ttlHours: number },
): Promise<void> {
  await db
    .insert(idempotencyKeys)
    .values({
      key: record.key,
      fingerprint: record.fingerprint,
      status: 'completed',
      donationId: record.donationId,
      responseStatus: record.answer.statusCode,
      responseBody: record.answer.body,
      expiresAt: sql`now() + make_interval(hours => ${record.ttlHours})`,
    })
    .onConflictDoNothing();
}
