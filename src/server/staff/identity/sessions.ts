import { and, eq, gt, isNull } from 'drizzle-orm';
import type { StaffRole } from '../../../shared/staff/roles';
import type { Database } from '../../db/client';
import { staffMembers, staffSessions } from '../../db/schema';
import { newSecret, secretHash } from './secret-hash';

/**
 * Staff sessions in the database (issue #21, "Sessions"; OWASP Session Management Cheat Sheet): a new random id at
 * every sign-in (no fixation), only its SHA-256 stored, an idle timeout and an absolute one measured by the injected
 * clock, ended for good by sign-out, a role change or removal.
 */

/** Idle timeout: a session unused this long is over (issue #21: 30 minutes). */
export const SESSION_IDLE_TIMEOUT_MS = 30 * 60 * 1000;
/** Absolute timeout: a session this old is over however busy (issue #21: 12 hours). */
export const SESSION_ABSOLUTE_TIMEOUT_MS = 12 * 60 * 60 * 1000;
/** How recent a passkey or link sign-in must be for a refund (issue #21: 15 minutes). */
export const STRONG_AUTH_WINDOW_MS = 15 * 60 * 1000;

/** The signed-in staff member a valid session names (`request.staffMember`). */
export interface SignedInStaffMember {
  id: string;
  email: string;
  role: StaffRole;
  /** The last passkey or link sign-in (or re-confirmation) of this session. */
  strongAuthAt: Date;
}

/** A valid session: its row id and its member. */
export interface ValidSession {
  sessionId: string;
  staffMember: SignedInStaffMember;
}

/**
 * Starts a session for `staffId` at `now` (a sign-in: strong authentication at `now` too) and returns the new session
 * id, to put in the cookie; only its hash is written. Call it in the sign-in's transaction.
 */
export async function startSession(db: Database, staffId: string, now: Date): Promise<string> {
  const sessionId = newSecret();
  await db.insert(staffSessions).values({ idHash: secretHash(sessionId), staffId, createdAt: now, lastSeenAt: now, strongAuthAt: now });
  return sessionId;
}

/**
 * The session `sessionId` names, if it is valid at `now`: not ended, used within SESSION_IDLE_TIMEOUT_MS, started
 * within SESSION_ABSOLUTE_TIMEOUT_MS, its member not removed. A valid session's `last_seen_at` becomes `now` (in the
 * same statement). Undefined otherwise.
 */
export async function resumeSession(db: Database, sessionId: string, now: Date): Promise<ValidSession | undefined> {
  const [row] = await db
    .update(staffSessions)
    .set({ lastSeenAt: now })
    .from(staffMembers)
    .where(
      and(
        eq(staffSessions.idHash, secretHash(sessionId)),
        isNull(staffSessions.endedAt),
        gt(staffSessions.lastSeenAt, new Date(now.getTime() - SESSION_IDLE_TIMEOUT_MS)),
        gt(staffSessions.createdAt, new Date(now.getTime() - SESSION_ABSOLUTE_TIMEOUT_MS)),
        eq(staffMembers.id, staffSessions.staffId),
        isNull(staffMembers.removedAt),
      ),
    )
    .returning({
      sessionId: staffSessions.id,
      id: staffMembers.id,
      email: staffMembers.email,
      role: staffMembers.role,
      strongAuthAt: staffSessions.strongAuthAt,
    });
  if (!row) return undefined;
  const { sessionId: rowId, ...staffMember } = row;
  return { sessionId: rowId, staffMember };
}

/** Marks the session of row id `sessionId` strongly authenticated at `now` (a passkey re-confirmation while signed in). */
export async function confirmSession(db: Database, sessionId: string, now: Date): Promise<void> {
  await db.update(staffSessions).set({ strongAuthAt: now }).where(eq(staffSessions.id, sessionId));
}

/** Ends the session of row id `sessionId` at `now` (sign-out). */
export async function endSession(db: Database, sessionId: string, now: Date): Promise<void> {
  await db.update(staffSessions).set({ endedAt: now }).where(and(eq(staffSessions.id, sessionId), isNull(staffSessions.endedAt)));
}

/** Ends every open session of `staffId` at `now` (a role change or removal: issue #21, "ends all their sessions at once"). */
export async function endSessionsOf(db: Database, staffId: string, now: Date): Promise<void> {
  await db.update(staffSessions).set({ endedAt: now }).where(and(eq(staffSessions.staffId, staffId), isNull(staffSessions.endedAt)));
}
