import { and, eq, inArray, ne, or, sql } from 'drizzle-orm';
import { isNoEmailAddress } from '../../../shared/offline-gifts';
import type { Database } from '../../db/client';
import { donationRefunds, donations, mailOutbox, receipts, recurringPlans } from '../../db/schema';
import { enqueueReceiptResend } from '../../ledger/receipt-entries';
import { recordDonationEvent } from '../../webhooks/record';
import { recordStaffAction, type StaffActor } from '../identity/audit-record';
import { DONATION_AUDIT_ACTIONS, DONATION_SUBJECT } from '../shared/donation-audit';

/**
 * The staff's actions on a donation (issue #21, "A donation"): refund, resend the receipt, correct the donor's e-mail
 * (then resend). Each writes its audit entry (recordStaffAction: the staff member as actor, the donation as subject)
 * in the same transaction as its effect, so both are kept or neither.
 */




/**
 * What became of a resend: `queued` to `recipient`; `not_found`; `no_receipt` (never succeeded); `receipt_void` (refunded
 * in full); `no_email` (a gift received outside the site from a donor without an e-mail; issue #37, decision 0112).
 */
export type ResendOutcome = { kind: 'queued'; recipient: string } | { kind: 'not_found' } | { kind: 'no_receipt' } | { kind: 'receipt_void' } | { kind: 'no_email' };

/** Why no receipt can be resent for `donationId`: no such donation, it has no receipt, its receipt is void, or its donor has no e-mail. */
async function receiptRefusal(tx: Database, donationId: string): Promise<ResendOutcome> {
  const [row] = await tx
    .select({ voidedAt: receipts.voidedAt, number: receipts.number, email: donations.donorEmail })
    .from(donations)
    .leftJoin(receipts, eq(receipts.donationId, donations.id))
    .where(eq(donations.id, donationId));
  if (!row) return { kind: 'not_found' };
  if (row.number === null) return { kind: 'no_receipt' };
  return row.voidedAt === null && isNoEmailAddress(row.email) ? { kind: 'no_email' } : { kind: 'receipt_void' };
}

/**
 * Queues the donation's receipt again (issue #21, "Resend the receipt"; ledger/receipt-entries.ts
 * enqueueReceiptResend: rendered and sent as the first receipt, to the donation's address now) and its audit entry
 * (the recipient in its details), in one transaction. Resolves with the outcome; writes nothing unless `queued`.
 */
export async function resendReceiptForStaff(db: Database, donationId: string, actor: StaffActor): Promise<ResendOutcome> {
  return db.transaction(async (tx): Promise<ResendOutcome> => {
    const queued = await enqueueReceiptResend(tx, donationId);
    if (!queued) return receiptRefusal(tx, donationId);
    await recordStaffAction(tx, {
      ...actor,
      action: DONATION_AUDIT_ACTIONS.receiptResent,
      subjectType: DONATION_SUBJECT,
      subjectId: donationId,
      details: { recipient: queued.recipient, messageId: queued.id },
    });
    return { kind: 'queued', recipient: queued.recipient };
  });
}

/** What became of an e-mail correction: `corrected` (the old address, whether the plan followed, whether a receipt was queued), or `not_found`. */
export type EmailCorrectionOutcome =
  | { kind: 'corrected'; previousEmail: string; planUpdated: boolean; receiptQueued: boolean }
  | { kind: 'not_found' };

/**
 * Corrects the donor's e-mail address of a donation (issue #21, "Correct the donor's e-mail, then resend"; GiveWP
 * #3933; decision 0086), in ONE transaction with its audit entry (the old and new addresses in its details):
 * - the donation's address becomes `email`, and so does its recurring plan's: the plan's mail goes to its first
 *   gift's address (recurring/plans.ts planDonorEmail) and each renewal copies it, so that row changes too;
 * - messages still waiting in the outbox (queued or retrying) about the donation, its refunds or its plan go to the new
 *   address: a receipt retried against a mistyped address reaches the right one;
 * - with `resend`, the receipt is queued again to the new address (when it has one that is not void);
 * - the `donor.email_corrected` webhook event is recorded (issue #38).
 * Resolves with the outcome; writes nothing when the donation does not exist. Rejects when the database fails.
 */
export async function correctDonorEmail(
  db: Database,
  { donationId, email, resend }: { donationId: string; email: string; resend: boolean },
  actor: StaffActor,
): Promise<EmailCorrectionOutcome> {
  return db.transaction(async (tx): Promise<EmailCorrectionOutcome> => {
    const [donation] = await tx
      .select({ email: donations.donorEmail, planId: donations.recurringPlanId, firstDonationId: recurringPlans.firstDonationId })
      .from(donations)
      .leftJoin(recurringPlans, eq(recurringPlans.id, donations.recurringPlanId))
      .where(eq(donations.id, donationId))
      .for('update', { of: donations });
    if (!donation) return { kind: 'not_found' };
    const corrected = donation.firstDonationId ? [donationId, donation.firstDonationId] : [donationId];
    await tx.update(donations).set({ donorEmail: email, updatedAt: sql`now()` }).where(inArray(donations.id, corrected));
    const refundIds = tx.select({ id: donationRefunds.id }).from(donationRefunds).where(eq(donationRefunds.donationId, donationId));
    const redirected = await tx
      .update(mailOutbox)
      .set({ recipient: email })
      .where(
        and(
          eq(mailOutbox.status, 'pending'),
          // NOTE: a dedicated gift's card goes to the person the donor named, not to the donor (issue #23).
          ne(mailOutbox.kind, 'tribute_card'),
          or(
            eq(mailOutbox.donationId, donationId),
            inArray(mailOutbox.refundId, refundIds),
            donation.planId ? eq(mailOutbox.recurringPlanId, donation.planId) : undefined,
          ),
        ),
      )
      .returning({ id: mailOutbox.id });
    const queued = resend ? await enqueueReceiptResend(tx, donationId) : undefined;
    const planUpdated = donation.planId !== null;
    await recordStaffAction(tx, {
      ...actor,
      action: DONATION_AUDIT_ACTIONS.emailCorrected,
      subjectType: DONATION_SUBJECT,
      subjectId: donationId,
      details: {
        previousEmail: donation.email,
        email,
        recurringPlanId: donation.planId,
        redirectedMessages: redirected.length,
        receiptResent: queued !== undefined,
      },
    });
    // Issue #38: the charity's other systems (a CRM, a mailing list) hear of the corrected address in the same transaction.
    await recordDonationEvent(tx, 'donor.email_corrected', donationId, { previousEmail: donation.email });
    return { kind: 'corrected', previousEmail: donation.email, planUpdated, receiptQueued: queued !== undefined };
  });
}
