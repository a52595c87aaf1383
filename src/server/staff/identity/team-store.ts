import { and, asc, count, eq, isNull, max } from 'drizzle-orm';
import type { StaffRole } from '../../../shared/staff/roles';
import type { Database } from '../../db/client';
import { staffCredentials, staffMembers, staffSessions, type StaffMemberRow } from '../../db/schema';

/** The team as the admins manage it (issue #21, "Team"). */

/** A member with what the team page shows of them. */
export interface TeamMemberRow {
  member: StaffMemberRow;
  passkeyCount: number;
  lastSignInAt: Date | null;
}

/** Every member not removed, by address, with their passkey count and their last sign-in (their newest session's start). */
export async function listTeam(db: Database): Promise<TeamMemberRow[]> {
  const passkeys = db
    .select({ staffId: staffCredentials.staffId, n: count().as('n') })
    .from(staffCredentials)
    .groupBy(staffCredentials.staffId)
    .as('passkeys');
  const sessions = db
    .select({ staffId: staffSessions.staffId, last: max(staffSessions.createdAt).as('last') })
    .from(staffSessions)
    .groupBy(staffSessions.staffId)
    .as('sessions');
  const rows = await db
    .select({ member: staffMembers, passkeyCount: passkeys.n, lastSignInAt: sessions.last })
    .from(staffMembers)
    .leftJoin(passkeys, eq(passkeys.staffId, staffMembers.id))
    .leftJoin(sessions, eq(sessions.staffId, staffMembers.id))
    .where(isNull(staffMembers.removedAt))
    .orderBy(asc(staffMembers.email));
  return rows.map((row) => ({ member: row.member, passkeyCount: Number(row.passkeyCount ?? 0), lastSignInAt: row.lastSignInAt ? new Date(row.lastSignInAt) : null }));
}

/** The row of one member of {@link listTeam}, or undefined. */
export async function teamMember(db: Database, id: string): Promise<TeamMemberRow | undefined> {
  return (await listTeam(db)).find((row) => row.member.id === id);
}

/**
 * The ids of the admins not removed, their rows locked (`FOR UPDATE`) until `tx` ends, so two admins demoting or
 * removing each other at once cannot both pass the last-admin check (issue #21: "the last admin cannot remove or demote themselves").
 */
export async function lockAdmins(tx: Database): Promise<string[]> {
  const rows = await tx
    .select({ id: staffMembers.id })
    .from(staffMembers)
    .where(and(eq(staffMembers.role, 'admin'), isNull(staffMembers.removedAt)))
    .for('update');
  return rows.map((row) => row.id);
}

/** Sets the role of member `id` (not removed); returns the row as it was before, or undefined. */
export async function changeRole(tx: Database, id: string, role: StaffRole): Promise<StaffMemberRow | undefined> {
  const [before] = await tx.select().from(staffMembers).where(and(eq(staffMembers.id, id), isNull(staffMembers.removedAt))).for('update');
  if (!before) return undefined;
  await tx.update(staffMembers).set({ role }).where(eq(staffMembers.id, id));
  return before;
}

/** Marks member `id` (not removed) removed at `now`; returns their row as it was, or undefined. */
export async function removeMember(tx: Database, id: string, now: Date): Promise<StaffMemberRow | undefined> {
  const [row] = await tx
    .update(staffMembers)
    .set({ removedAt: now })
    .where(and(eq(staffMembers.id, id), isNull(staffMembers.removedAt)))
    .returning();
  return row;
}
