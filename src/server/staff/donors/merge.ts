import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { donations, donorMerges, donorNotes, donorTotals, mailOutbox, type DonorMergeChanges } from '../../db/schema';
import { recordStaffAction, type StaffActor } from '../identity/audit-record';
import { donationDonorKeySql } from './figures';
import { DONOR_AUDIT_ACTIONS, DONOR_SUBJECT } from '../../../shared/staff/audit-actions';
import { lockDonorGifts, lockWaitingMessages, plansOfGifts } from './donor-rows';

/**
 * Two donors merged into one (issue #36, part 1: "Merge two donors (a typo, a second address): finance and admin pick
 * the donor to keep; every gift, plan and receipt moves to it; the donor's lifetime figures and year-end statement add
 * up; the audit can show what was merged, and a merge can be undone within 30 days"; decision 0110).
 *
 * A donor is the gifts of one address, so the merged donor's gifts take the kept donor's address and name (the latest
 * of their charged gifts, as typed); their receipts and plans follow their gifts, and so do the figures (donor_totals'
 * trigger) and the statements (read by address). The old values of every row changed are kept in `donor_merges`, so
 * the undo restores them exactly, as long as none changed since.
 */

/** How long a merge can be undone (issue #36: "within 30 days"). */
export const MERGE_UNDO_WINDOW_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * What became of a merge: `merged` (the merge's id and what moved); `same` (a donor merged into themselves);
 * `not_found` (`which` donor has no charged gift).
 */
export type DonorMergeOutcome =
  | { kind: 'merged'; mergeId: string; changes: DonorMergeChanges }
  | { kind: 'same' }
  | { kind: 'not_found'; which: 'kept' | 'merged' };

/**
 * Merges the donor `sourceDonorKey` into `targetDonorKey` (kept) at `now` (the injected clock) in ONE transaction: every gift of the merged donor
 * (every attempt) takes the kept donor's address and name; messages still waiting about them go to that address; the
 * merged donor's notes move to the kept donor; the merge record keeps every row's old values; the audit entry
 * (`donor.merged`, the kept donor as subject) lists the rows with their old values. Writes nothing unless `merged`.
 * Rejects when the database fails.
 */
export async function mergeDonors(
  db: Database,
  { targetDonorKey, sourceDonorKey, now }: { targetDonorKey: string; sourceDonorKey: string; now: Date },
  actor: StaffActor,
): Promise<DonorMergeOutcome> {
  if (targetDonorKey === sourceDonorKey) return { kind: 'same' };
  return db.transaction(async (tx): Promise<DonorMergeOutcome> => {
    // NOTE: both donors' gifts are locked in one key order, so two merges of the same pair cannot deadlock.
    const [first, second] = [targetDonorKey, sourceDonorKey].sort();
    const locked = new Map([[first!, await lockDonorGifts(tx, first!)], [second!, await lockDonorGifts(tx, second!)]]);
    const totals = await tx.select().from(donorTotals).where(inArray(donorTotals.donorKey, [targetDonorKey, sourceDonorKey]));
    const sourceTotals = totals.find((row) => row.donorKey === sourceDonorKey);
    if (!totals.some((row) => row.donorKey === targetDonorKey)) return { kind: 'not_found', which: 'kept' };
    if (!sourceTotals) return { kind: 'not_found', which: 'merged' };
    const [kept] = await tx
      .select({ email: donations.donorEmail, name: donations.donorName })
      .from(donations)
      .where(and(sql`${donationDonorKeySql} = ${targetDonorKey}`, inArray(donations.status, ['succeeded', 'refunded', 'disputed'])))
      .orderBy(desc(donations.createdAt), desc(donations.id))
      .limit(1);
    if (!kept) return { kind: 'not_found', which: 'kept' };
    const gifts = locked.get(sourceDonorKey) ?? [];
    const planIds = await plansOfGifts(tx, gifts);
    const messages = await lockWaitingMessages(tx, gifts, planIds, sourceTotals.address);

    await tx.update(donations).set({ donorEmail: kept.email, donorName: kept.name, updatedAt: sql`now()` }).where(inArray(donations.id, gifts.map((gift) => gift.id)));
    if (messages.length > 0) await tx.update(mailOutbox).set({ recipient: kept.email }).where(inArray(mailOutbox.id, messages.map((message) => message.id)));
    const notes = await tx.update(donorNotes).set({ donorKey: targetDonorKey }).where(eq(donorNotes.donorKey, sourceDonorKey)).returning({ id: donorNotes.id });
    const changes: DonorMergeChanges = {
      donations: gifts.map(({ id, donorEmail, donorName }) => ({ id, donorEmail, donorName })),
      messages,
      notes,
    };
    const sourceEmail = gifts.find((gift) => gift.donorEmail.trim().toLowerCase() === sourceTotals.address)?.donorEmail ?? sourceTotals.address;
    const [merge] = await tx
      .insert(donorMerges)
      .values({
        sourceDonorKey,
        sourceEmail,
        targetDonorKey,
        targetEmail: kept.email,
        targetName: kept.name,
        changes,
        mergedByStaffId: actor.staffMember.id,
        mergedByEmail: actor.staffMember.email,
        mergedAt: now,
      })
      .returning({ id: donorMerges.id });
    await recordStaffAction(tx, {
      ...actor,
      action: DONOR_AUDIT_ACTIONS.merged,
      subjectType: DONOR_SUBJECT,
      subjectId: targetDonorKey,
      details: { mergeId: merge!.id, sourceDonorKey, sourceEmail, email: kept.email, name: kept.name, donationIds: changes.donations.map((gift) => gift.id), planIds, ...changes },
    });
    return { kind: 'merged', mergeId: merge!.id, changes };
  });
}

/**
 * What became of an undo: `undone` (the merged donor's key again, how many gifts went back); `not_found`;
 * `already_undone`; `too_late` (more than 30 days after the merge); `changed` (`reason`: a gift moved by the merge has
 * another address or name now, e.g. corrected again, so restoring it would undo that later change too).
 */
export type DonorMergeUndoOutcome =
  | { kind: 'undone'; sourceDonorKey: string; donationsRestored: number }
  | { kind: 'not_found' }
  | { kind: 'already_undone' }
  | { kind: 'too_late' }
  | { kind: 'changed'; reason: string };

/**
 * Undoes merge `mergeId` at `now` in ONE transaction (decision 0110): refused after {@link MERGE_UNDO_WINDOW_MS}, once
 * undone, or when a gift it moved has changed since; else every gift takes back its old address and name, every
 * message still waiting that the merge redirected (and not redirected since) its old recipient, every note moved its
 * old donor; the merge is marked undone; the audit entry (`donor.merge_undone`) lists what went back. Writes nothing
 * unless `undone`. Rejects when the database fails.
 */
export async function undoDonorMerge(db: Database, { mergeId, now }: { mergeId: string; now: Date }, actor: StaffActor): Promise<DonorMergeUndoOutcome> {
  return db.transaction(async (tx): Promise<DonorMergeUndoOutcome> => {
    const [merge] = await tx.select().from(donorMerges).where(eq(donorMerges.id, mergeId)).for('update');
    if (!merge) return { kind: 'not_found' };
    if (merge.undoneAt) return { kind: 'already_undone' };
    if (now.getTime() - merge.mergedAt.getTime() > MERGE_UNDO_WINDOW_MS) return { kind: 'too_late' };
    const { changes } = merge;
    const ids = changes.donations.map((gift) => gift.id);
    const current =
      ids.length === 0
        ? []
        : await tx.select({ id: donations.id, donorEmail: donations.donorEmail, donorName: donations.donorName }).from(donations).where(inArray(donations.id, ids)).orderBy(donations.id).for('update');
    const moved = current.find((gift) => gift.donorEmail !== merge.targetEmail || gift.donorName !== merge.targetName);
    if (moved) {
      return {
        kind: 'changed',
        reason: `A gift this merge moved has changed since (now ${moved.donorName} <${moved.donorEmail}>, e.g. corrected again), so undoing the merge would undo that change too. Correct the e-mail instead.`,
      };
    }
    if (ids.length > 0) {
      await tx.execute(sql`
        UPDATE ${donations} SET donor_email = old."donorEmail", donor_name = old."donorName", updated_at = now()
        FROM jsonb_to_recordset(${JSON.stringify(changes.donations)}::jsonb) AS old(id uuid, "donorEmail" text, "donorName" text)
        WHERE ${donations.id} = old.id`);
    }
    if (changes.messages.length > 0) {
      await tx.execute(sql`
        UPDATE ${mailOutbox} SET recipient = old.recipient
        FROM jsonb_to_recordset(${JSON.stringify(changes.messages)}::jsonb) AS old(id uuid, recipient text)
        WHERE ${mailOutbox.id} = old.id AND ${mailOutbox.status} = 'pending' AND ${mailOutbox.recipient} = ${merge.targetEmail}`);
    }
    if (changes.notes.length > 0) {
      await tx
        .update(donorNotes)
        .set({ donorKey: merge.sourceDonorKey })
        .where(and(inArray(donorNotes.id, changes.notes.map((note) => note.id)), eq(donorNotes.donorKey, merge.targetDonorKey)));
    }
    await tx.update(donorMerges).set({ undoneAt: now, undoneByEmail: actor.staffMember.email }).where(eq(donorMerges.id, mergeId));
    await recordStaffAction(tx, {
      ...actor,
      action: DONOR_AUDIT_ACTIONS.mergeUndone,
      subjectType: DONOR_SUBJECT,
      subjectId: merge.targetDonorKey,
      details: { mergeId, sourceDonorKey: merge.sourceDonorKey, sourceEmail: merge.sourceEmail, email: merge.targetEmail, donationIds: ids },
    });
    return { kind: 'undone', sourceDonorKey: merge.sourceDonorKey, donationsRestored: ids.length };
  });
}
