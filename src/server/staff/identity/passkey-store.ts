import { and, asc, count, eq, isNull } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { staffCredentials, staffMembers, type StaffCredentialRow, type StaffMemberRow } from '../../db/schema';
import type { NewPasskey, VerifiedAssertion } from './relying-party';

/** The passkeys (WebAuthn credential records) of staff members, in the database (issue #21, "Passkeys"). */

/** How many passkeys `staffId` holds. */
export async function countPasskeys(db: Database, staffId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(staffCredentials).where(eq(staffCredentials.staffId, staffId));
  return row?.n ?? 0;
}

/** The passkeys of `staffId`, oldest first. */
export async function listPasskeys(db: Database, staffId: string): Promise<StaffCredentialRow[]> {
  return db.select().from(staffCredentials).where(eq(staffCredentials.staffId, staffId)).orderBy(asc(staffCredentials.createdAt), asc(staffCredentials.id));
}

/** Stores `passkey` for `staffId`, created at `now`. Returns the row, or undefined when its credential id is registered already. */
export async function insertPasskey(db: Database, staffId: string, passkey: NewPasskey, now: Date): Promise<StaffCredentialRow | undefined> {
  const [row] = await db
    .insert(staffCredentials)
    .values({ staffId, ...passkey, createdAt: now })
    .onConflictDoNothing()
    .returning();
  return row;
}

/** The passkey whose WebAuthn credential id is `credentialId`, with its member when they are not removed, or undefined. */
export async function findPasskeyOfMember(
  db: Database,
  credentialId: string,
): Promise<{ passkey: StaffCredentialRow; member: StaffMemberRow } | undefined> {
  const [row] = await db
    .select({ passkey: staffCredentials, member: staffMembers })
    .from(staffCredentials)
    .innerJoin(staffMembers, eq(staffMembers.id, staffCredentials.staffId))
    .where(and(eq(staffCredentials.credentialId, credentialId), isNull(staffMembers.removedAt)));
  return row;
}

/** Records a use of passkey `id` at `now`: its new signature counter and backup state (WebAuthn section 7.2, steps 22-23). */
export async function recordPasskeyUse(db: Database, id: string, assertion: VerifiedAssertion, now: Date): Promise<void> {
  await db
    .update(staffCredentials)
    .set({ counter: assertion.newCounter, backedUp: assertion.backedUp, lastUsedAt: now })
    .where(eq(staffCredentials.id, id));
}

/** Deletes passkey `id` of `staffId`; true when it was theirs and is gone. */
export async function deletePasskey(db: Database, staffId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(staffCredentials)
    .where(and(eq(staffCredentials.id, id), eq(staffCredentials.staffId, staffId)))
    .returning({ id: staffCredentials.id });
  return rows.length === 1;
}
