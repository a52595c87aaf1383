import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { donations, donorNotes, donorTotals, mailOutbox, receipts } from '../../db/schema';
import { enqueueReceiptResend } from '../../ledger/receipt-entries';
import { recordDonationEvent } from '../../webhooks/record';
import { recordStaffAction, type StaffActor } from '../identity/audit-record';
import { donorKeyOf } from '../shared/donor-key';
import { DONOR_AUDIT_ACTIONS, DONOR_SUBJECT } from '../../../shared/staff/audit-actions';
import { lockDonorGifts, lockWaitingMessages, plansOfGifts } from './donor-rows';

/**
 * A donor's e-mail corrected on the donor (issue #36, part 1: "A correction is made on the donor: staff choose to apply
 * it to every gift, receipt and plan of that address; receipts are resent only where staff ask; the audit records every
 * row changed; the plan's next e-mails go to the new address"; decision 0110). The per-gift correction
 * (donations/actions.ts correctDonorEmail) stays for a gift that belongs to someone else.
 */

/**
 * What a donor-wide correction changed, as the audit entry records it and the `donor.email_corrected` event will carry
 * it (issue #36, part 1; the outgoing webhooks of another issue): the donor's key and address before and after, and
 * the id of every row changed.
 */
export interface DonorEmailCorrection {
  previousDonorKey: string;
  donorKey: string;
  previousEmail: string;
  email: string;
  /** Every gift whose address changed (with it, its receipt: a receipt is its gift's). */
  donationIds: string[];
  /** Every plan of those gifts (their next e-mails go to the gifts' address). */
  planIds: string[];
  /** Every message still waiting that now goes to the new address. */
  messageIds: string[];
  /** Every note that follows the donor to the new key. */
  noteIds: string[];
  /** The gifts whose receipt was queued again to the new address, as staff asked. */
  receiptsResentFor: string[];
}

/**
 * THE place where a donor-wide correction commits (issue #36, part 6): called once in the correction's transaction
 * `tx`, after every row changed, with what changed. It writes the audit entry (action `donor.email_corrected`, the donor
 * as subject under the new key; every row id and the old address in its details) and, for every gift changed, the
 * outgoing webhook's `donor.email_corrected` event (issue #38; the same event the per-gift correction records), in `tx`.
 */
export async function commitDonorEmailCorrection(tx: Database, correction: DonorEmailCorrection, actor: StaffActor): Promise<void> {
  await recordStaffAction(tx, {
    ...actor,
    action: DONOR_AUDIT_ACTIONS.emailCorrected,
    subjectType: DONOR_SUBJECT,
    subjectId: correction.donorKey,
    details: { ...correction },
  });
  for (const donationId of correction.donationIds) {
    await recordDonationEvent(tx, 'donor.email_corrected', donationId, { previousEmail: correction.previousEmail });
  }
}

/**
 * What became of a donor-wide correction: `corrected` (what changed); `not_found` (no gift has that key);
 * `taken` (the new address is another donor's: merging keeps an undo, so staff merge instead); `bad_resend` (a gift
 * asked to resend is not the donor's, or has no receipt that is not void).
 */
export type DonorEmailCorrectionOutcome =
  | { kind: 'corrected'; correction: DonorEmailCorrection; receiptsQueued: number }
  | { kind: 'not_found' }
  | { kind: 'taken' }
  | { kind: 'bad_resend'; donationIds: string[] };

/**
 * Corrects the address of the donor `donorKey` to `email` in ONE transaction (decision 0110): every gift of the donor
 * (every attempt) takes the new address, so their receipts and their plans' next e-mails go to it (a plan's mail goes
 * to its first gift's address); every message still waiting about them (and a statement queued to the old address)
 * goes to it; the donor's notes follow the donor's new key; the receipts of `resendDonationIds` (and only those) are
 * queued again to it; then {@link commitDonorEmailCorrection}. The donor_totals row moves with the gifts (its trigger).
 * Writes nothing unless `corrected`. Rejects when the database fails.
 */
export async function correctDonorEmailEverywhere(
  db: Database,
  { donorKey, email, resendDonationIds }: { donorKey: string; email: string; resendDonationIds: readonly string[] },
  actor: StaffActor,
): Promise<DonorEmailCorrectionOutcome> {
  return db.transaction(async (tx): Promise<DonorEmailCorrectionOutcome> => {
    const gifts = await lockDonorGifts(tx, donorKey);
    const [totals] = await tx.select({ address: donorTotals.address }).from(donorTotals).where(eq(donorTotals.donorKey, donorKey));
    if (gifts.length === 0 || !totals) return { kind: 'not_found' };
    const newKey = donorKeyOf(email);
    if (newKey !== donorKey && (await tx.$count(donorTotals, eq(donorTotals.donorKey, newKey))) > 0) return { kind: 'taken' };
    const giftIds = gifts.map((gift) => gift.id);
    const resend = [...new Set(resendDonationIds)];
    const resendable =
      resend.length === 0
        ? []
        : await tx
            .select({ id: receipts.donationId })
            .from(receipts)
            .where(and(inArray(receipts.donationId, resend), isNull(receipts.voidedAt)));
    const refused = resend.filter((id) => !giftIds.includes(id) || !resendable.some((row) => row.id === id));
    if (refused.length > 0) return { kind: 'bad_resend', donationIds: refused };

    const planIds = await plansOfGifts(tx, gifts);
    const messages = await lockWaitingMessages(tx, gifts, planIds, totals.address);
    await tx.update(donations).set({ donorEmail: email, updatedAt: sql`now()` }).where(inArray(donations.id, giftIds));
    if (messages.length > 0) await tx.update(mailOutbox).set({ recipient: email }).where(inArray(mailOutbox.id, messages.map((message) => message.id)));
    const notes = await tx.update(donorNotes).set({ donorKey: newKey }).where(eq(donorNotes.donorKey, donorKey)).returning({ id: donorNotes.id });
    let receiptsQueued = 0;
    for (const id of resend) if (await enqueueReceiptResend(tx, id)) receiptsQueued += 1;

    const previousEmail = gifts.map((gift) => gift.donorEmail).find((address) => address.trim().toLowerCase() === totals.address) ?? totals.address;
    const correction: DonorEmailCorrection = {
      previousDonorKey: donorKey,
      donorKey: newKey,
      previousEmail,
      email,
      donationIds: giftIds,
      planIds,
      messageIds: messages.map((message) => message.id),
      noteIds: notes.map((note) => note.id),
      receiptsResentFor: resend,
    };
    await commitDonorEmailCorrection(tx, correction, actor);
    return { kind: 'corrected', correction, receiptsQueued };
  });
}
