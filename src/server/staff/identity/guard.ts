import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import {
  STAFF_FORBIDDEN_MESSAGE,
  STAFF_REAUTH_MESSAGE,
  STAFF_UNAUTHENTICATED_MESSAGE,
} from '../../../shared/staff/identity-api';
import { roleHasRight, type StaffRight } from '../../../shared/staff/roles';
import type { Clock } from '../../platform/clock';
import { staffError } from './errors';
import { STRONG_AUTH_WINDOW_MS, type SignedInStaffMember } from './sessions';

/**
 * The guard of every staff route (issue #21, "API": 401 without a valid session, 403 when the role lacks the right).
 * `request.staffMember` is set by the staff plugin's hook from the session cookie (plugin.ts).
 */

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in staff member of a /api/staff/ request with a valid session, else null (staff/plugin.ts). */
    staffMember: SignedInStaffMember | null;
    /** The row id of that session, else null (sign-out ends it). */
    staffSessionId: string | null;
  }
}

/**
 * A preHandler that lets the request through only when it has a valid staff session whose role holds `right`
 * (shared/staff/roles.ts ROLE_RIGHTS): else 401 `staff_unauthenticated` ("Sign in to continue.") or 403
 * `staff_forbidden`. Routes using it declare 401 and 403 with StaffApiErrorSchema.
 */
export function requireStaff(right: StaffRight): preHandlerAsyncHookHandler {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const member = request.staffMember;
    if (member === null) return reply.code(401).send(staffError(STAFF_UNAUTHENTICATED_MESSAGE, 'staff_unauthenticated'));
    if (!roleHasRight(member.role, right)) {
      request.log.warn({ event: 'staff.forbidden', staffId: member.id, role: member.role, right }, 'Staff request refused: role lacks the right');
      return reply.code(403).send(staffError(STAFF_FORBIDDEN_MESSAGE, 'staff_forbidden'));
    }
    return undefined;
  };
}

/**
 * True when the signed-in member proved themselves with a passkey or a link within STRONG_AUTH_WINDOW_MS (15 minutes)
 * of the clock's now (issue #21: "Refunds require a passkey (or link) sign-in within the last 15 minutes").
 */
export function hasRecentStrongAuth(request: FastifyRequest, clock: Clock): boolean {
  const member = request.staffMember;
  return member !== null && clock.now().getTime() - member.strongAuthAt.getTime() <= STRONG_AUTH_WINDOW_MS;
}

/**
 * A preHandler, after {@link requireStaff}, that answers 403 `staff_reauth_required` unless the member's last passkey or
 * link sign-in (or re-confirmation through POST /api/staff/sign-in/verify) was within 15 minutes by `clock`.
 */
export function requireRecentStrongAuth(clock: Clock): preHandlerAsyncHookHandler {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (hasRecentStrongAuth(request, clock)) return undefined;
    return reply.code(403).send(staffError(STAFF_REAUTH_MESSAGE, 'staff_reauth_required'));
  };
}

/** The signed-in member of a request that passed {@link requireStaff}. Throws when called on one that did not (a bug). */
export function signedInMember(request: FastifyRequest): SignedInStaffMember {
  if (request.staffMember === null) throw new Error('signedInMember called on a route without requireStaff');
  return request.staffMember;
}
