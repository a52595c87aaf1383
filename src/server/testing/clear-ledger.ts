import type { Database } from '../db/client';
import { campaignSupporters, donationRefunds, donations, idempotencyKeys, mailOutbox, offlineGifts, receiptCounters, receipts, recurringPlanChanges, recurringPlans } from '../db/schema';

/**
 * Empties the ledger's tables for a test's `beforeEach`, children before parents (the outbox and receipts
 * reference donations, and the outbox refunds): mail outbox, refunds, receipts and their counters, idempotency keys, plan changes, recurring plans (which
 * donations reference, and which reference their first donation: the links are cut first), campaign supporters, donations.
 */
export async function clearLedger(db: Database): Promise<void> {
  await db.update(donations).set({ recurringPlanId: null, recurringPeriod: null, recurringAttempt: null });
  await db.delete(mailOutbox);
  await db.delete(donationRefunds);
  await db.delete(receipts);
  await db.delete(receiptCounters);
  await db.delete(idempotencyKeys);
  await db.delete(offlineGifts);
  await db.delete(recurringPlanChanges);
  await db.delete(recurringPlans);
  await db.delete(campaignSupporters);
  await db.delete(donations);
}
