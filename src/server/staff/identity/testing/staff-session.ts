import { randomUUID } from 'node:crypto';
import { CSRF_HEADER_NAME } from '../../../../shared/api';
import type { StaffRole } from '../../../../shared/staff/roles';
import type { App } from '../../../app';
import type { Database } from '../../../db/client';
import { csrfCredentialsOf } from '../../../testing/test-app';
import { insertMember } from '../member-store';
import { startSession, type SignedInStaffMember } from '../sessions';

/**
 * For API tests of staff routes (issue #21): a staff member with a session, made straight in the database (no
 * WebAuthn ceremony: the identity tests do those), and the headers a signed-in browser sends.
 */

/** What {@link signInStaffForTest} gives: the headers of a signed-in browser and the member. */
export interface StaffTestSession {
  /** `cookie` (the CSRF cookies and the staff session cookie) and `X-XSRF-TOKEN`, for `app.inject({headers})`. */
  headers: { cookie: string; [CSRF_HEADER_NAME]: string };
  /** The member, as `request.staffMember` will read it. */
  staffMember: SignedInStaffMember;
  /** The raw session id the cookie holds. */
  sessionId: string;
}

/**
 * Creates a staff member of `role` (address `email`, or a unique `staff-<uuid>@example.org`) and a session started at
 * `now` (default the machine's now: pass the app's manual clock's now when the app runs on one), and loads the page
 * for CSRF cookies. The session cookie's name follows the app's PUBLIC_URL. Rejects when the address is taken.
 */
export async function signInStaffForTest(
  app: App,
  db: Database,
  { role, email, now = new Date() }: { role: StaffRole; email?: string; now?: Date },
): Promise<StaffTestSession> {
  const member = await insertMember(db, { email: email ?? `staff-${randomUUID()}@example.org`, role });
  if (!member) throw new Error(`A staff member with the address ${email} exists already`);
  const sessionId = await startSession(db, member.id, now);
  const csrf = await csrfCredentialsOf(app);
  return {
    headers: { cookie: `${csrf.cookie}; ${app.staffSessionCookieName}=${sessionId}`, [CSRF_HEADER_NAME]: csrf.token },
    staffMember: { id: member.id, email: member.email, role: member.role, strongAuthAt: now },
    sessionId,
  };
}
