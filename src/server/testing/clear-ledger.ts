import type { Database } from '../db/client';
import { donations, idempotencyKeys, mailOutbox, receiptCounters, receipts } from '../db/schema';

/**
 * Empties the ledger's tables for a test's `beforeEach`, children before parents (the outbox and receipts
 * reference donations): mail outbox, receipts and their counters, idempotency keys, donations.
 */
export async function clearLedger(db: Database): Promise<void> {
  await db.delete(mailOutbox);
  await db.delete(receipts);
  await db.delete(receiptCounters);
  await db.delete(idempotencyKeys);
  await db.delete(donations);
}
