import { and, eq, inArray, notInArray, or, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { donationRefunds, donations, mailOutbox, recurringPlans, STAFF_MAIL_KINDS } from '../../db/schema';
import { donationDonorKeySql } from './figures';

/**
 * The rows that say who a donor is (issue #36, part 1: "every gift, receipt and plan of that address"), read and locked
 * for a donor-wide correction or a merge. A donor today is the gifts of one address (donor key, shared/donor-key.ts);
 * their receipts and plans carry no address of their own (a receipt is its gift's; a plan's mail goes to its first
 * gift's address, recurring/plans.ts planDonorEmail, and each renewal copies it), so the gifts are what changes, with
 * the messages still waiting in the outbox.
 */

/** A gift of the donor: its id, address and name as typed, and its plan (a plan's first gift or renewal). */
export interface DonorGiftRow {
  id: string;
  donorEmail: string;
  donorName: string;
  recurringPlanId: string | null;
}

/**
 * Every gift of the donor `donorKey` (every attempt: pending and declined ones carry the address too), locked FOR UPDATE
 * in id order (two corrections or merges of one donor wait for each other). Rejects when the database fails.
 */
export async function lockDonorGifts(tx: Database, donorKey: string): Promise<DonorGiftRow[]> {
  return tx
    .select({ id: donations.id, donorEmail: donations.donorEmail, donorName: donations.donorName, recurringPlanId: donations.recurringPlanId })
    .from(donations)
    .where(sql`${donationDonorKeySql} = ${donorKey}`)
    .orderBy(donations.id)
    .for('update');
}

/** The ids of the plans of `gifts`: those whose first gift is one of them, and those they renew. */
export async function plansOfGifts(tx: Database, gifts: readonly DonorGiftRow[]): Promise<string[]> {
  if (gifts.length === 0) return [];
  const ids = gifts.map((gift) => gift.id);
  const rows = await tx
    .select({ id: recurringPlans.id })
    .from(recurringPlans)
    .where(or(inArray(recurringPlans.firstDonationId, ids), inArray(recurringPlans.id, gifts.flatMap((gift) => (gift.recurringPlanId ? [gift.recurringPlanId] : [])))));
  return rows.map((row) => row.id).sort();
}

/** A message still waiting in the outbox: its id and recipient. */
export interface WaitingMessage {
  id: string;
  recipient: string;
}

/**
 * The donor's messages still waiting in the outbox (pending: queued or retrying), locked FOR UPDATE: those about one of
 * `gifts`, one of their refunds or one of `planIds`, and the year-end statements queued to `address` (lower case).
 * Never a dedication card (it goes to the person the donor named, issue #23) nor a staff message.
 */
export async function lockWaitingMessages(tx: Database, gifts: readonly DonorGiftRow[], planIds: readonly string[], address: string): Promise<WaitingMessage[]> {
  const ids = gifts.map((gift) => gift.id);
  return tx
    .select({ id: mailOutbox.id, recipient: mailOutbox.recipient })
    .from(mailOutbox)
    .where(
      and(
        eq(mailOutbox.status, 'pending'),
        notInArray(mailOutbox.kind, ['tribute_card', 'staff_digest', ...STAFF_MAIL_KINDS]),
        or(
          ids.length > 0 ? inArray(mailOutbox.donationId, ids) : undefined,
          ids.length > 0 ? inArray(mailOutbox.refundId, tx.select({ id: donationRefunds.id }).from(donationRefunds).where(inArray(donationRefunds.donationId, ids))) : undefined,
          planIds.length > 0 ? inArray(mailOutbox.recurringPlanId, [...planIds]) : undefined,
          and(eq(mailOutbox.kind, 'year_end_statement'), eq(sql`lower(${mailOutbox.recipient})`, address)),
        ),
      ),
    )
    .orderBy(mailOutbox.id)
    .for('update');
}
