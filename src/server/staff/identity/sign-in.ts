import type { FastifyRequest } from 'fastify';
import { IDENTITY_AUDIT_ACTIONS, type StaffMember } from '../../../shared/staff/identity-api';
import type { Database } from '../../db/client';
import type { StaffMemberRow } from '../../db/schema';
import { recordStaffAction, recordSystemAction } from './audit-record';
import { endSession, startSession } from './sessions';

/** What the staff API shows of a member row. */
export function staffMemberOf(row: Pick<StaffMemberRow, 'id' | 'email' | 'role'>): StaffMember {
  return { id: row.id, email: row.email, role: row.role };
}

/** How a member proved who they are. */
export type SignInMethod = 'passkey' | 'link' | 'enrollment';

/**
 * Signs `member` in, in `tx` (the transaction of what proved it: a consumed link, a passkey's counter, a new passkey):
 * ends the request's current session if it had one (whoever's), starts a new one at `now` (a new id at every sign-in:
 * OWASP Session Management, "Renew the Session ID After Any Privilege Level Change"), audits `action` with the
 * member as actor, and returns the new session id. The caller sets the cookie (setSessionCookie) once the transaction committed.
 */
export async function signInWithin(
  tx: Database,
  request: FastifyRequest,
  { member, method, action, now, details }: { member: StaffMemberRow; method: SignInMethod; action: string; now: Date; details?: Record<string, unknown> },
): Promise<string> {
  if (request.staffSessionId !== null) await endSession(tx, request.staffSessionId, now);
  const sessionId = await startSession(tx, member.id, now);
  await recordStaffAction(tx, { staffMember: member, action, details: { method, ...details }, requestId: request.id });
  request.log.info({ event: 'staff.signed_in', staffId: member.id, method }, 'Staff member signed in');
  return sessionId;
}

/**
 * Audits a refused sign-in or enrollment (issue #21: "every sign-in, failure ... is audited"): with the member as
 * actor when known (a passkey of theirs that failed to verify), else as the system's. `reason` is ours, never a token.
 */
export async function recordSignInFailure(
  db: Database,
  request: FastifyRequest,
  { member, method, reason }: { member?: Pick<StaffMemberRow, 'id' | 'email'>; method: SignInMethod; reason: string },
): Promise<void> {
  request.log.warn({ event: 'staff.sign_in_failed', staffId: member?.id, method, reason }, 'Staff sign-in refused');
  const entry = { action: IDENTITY_AUDIT_ACTIONS.signInFailed, details: { method, reason }, requestId: request.id };
  if (member) await recordStaffAction(db, { staffMember: member, ...entry });
  else await recordSystemAction(db, entry);
}
