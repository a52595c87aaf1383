import { and, eq, isNull, sql } from 'drizzle-orm';
import type { StaffRole } from '../../../shared/staff/roles';
import type { Database } from '../../db/client';
import { staffMembers, type StaffMemberRow } from '../../db/schema';

/** Staff members in the database (issue #21): addresses are unique whatever their case among members not removed. */

/** The member (not removed) whose address is `email`, compared case-insensitively, or undefined. */
export async function findMemberByEmail(db: Database, email: string): Promise<StaffMemberRow | undefined> {
  const [row] = await db
    .select()
    .from(staffMembers)
    .where(and(sql`lower(${staffMembers.email}) = lower(${email.trim()})`, isNull(staffMembers.removedAt)));
  return row;
}

/** The member (not removed) of id `id`, or undefined. */
export async function findMemberById(db: Database, id: string): Promise<StaffMemberRow | undefined> {
  const [row] = await db.select().from(staffMembers).where(and(eq(staffMembers.id, id), isNull(staffMembers.removedAt)));
  return row;
}

/**
 * Adds a member with `email` (trimmed, as typed) and `role`. Returns the new row, or undefined when a member with that
 * address (any case) exists already (the unique index on lower(email) decides, so two invitations at once make one).
 */
export async function insertMember(db: Database, { email, role }: { email: string; role: StaffRole }): Promise<StaffMemberRow | undefined> {
  const [row] = await db.insert(staffMembers).values({ email: email.trim(), role }).onConflictDoNothing().returning();
  return row;
}
