import { desc, eq } from 'drizzle-orm';
import type { StaffDonorNote } from '../../../shared/staff/donors-api';
import type { Database } from '../../db/client';
import { donorNotes, donorTotals } from '../../db/schema';
import { recordStaffAction, type StaffActor } from '../identity/audit-record';
import { DONOR_AUDIT_ACTIONS, DONOR_SUBJECT } from '../../../shared/staff/audit-actions';

/**
 * Notes on a donor (issue #36, part 1: "free text, who and when, audited; viewers read them"; decision 0110): finance and
 * admin write them, every staff member reads them; a note is never edited nor deleted (a correction is a new note).
 */

/** The notes on the donor `donorKey`, newest first. Rejects when the database fails. */
export async function listDonorNotes(db: Database, donorKey: string): Promise<StaffDonorNote[]> {
  const rows = await db.select().from(donorNotes).where(eq(donorNotes.donorKey, donorKey)).orderBy(desc(donorNotes.createdAt), desc(donorNotes.id));
  return rows.map((row) => ({ id: row.id, body: row.body, authorEmail: row.authorEmail, createdAt: row.createdAt.toISOString() }));
}

/**
 * Adds the note `body` (already checked: StaffDonorNoteRequestSchema) to the donor `donorKey` at `now`, written by the
 * actor, with its audit entry (`donor.note_added`, the donor as subject, the note's id and length) in the same
 * transaction. Resolves with the note, or undefined (nothing written) when no donor has that key. Rejects when the
 * database fails.
 */
export async function addDonorNote(db: Database, { donorKey, body, now }: { donorKey: string; body: string; now: Date }, actor: StaffActor): Promise<StaffDonorNote | undefined> {
  return db.transaction(async (tx) => {
    if ((await tx.$count(donorTotals, eq(donorTotals.donorKey, donorKey))) === 0) return undefined;
    const [note] = await tx
      .insert(donorNotes)
      .values({ donorKey, body, authorStaffId: actor.staffMember.id, authorEmail: actor.staffMember.email, createdAt: now })
      .returning();
    await recordStaffAction(tx, { ...actor, action: DONOR_AUDIT_ACTIONS.noteAdded, subjectType: DONOR_SUBJECT, subjectId: donorKey, details: { noteId: note!.id, length: body.length } });
    return { id: note!.id, body: note!.body, authorEmail: note!.authorEmail, createdAt: note!.createdAt.toISOString() };
  });
}
