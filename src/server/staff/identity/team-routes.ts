import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  EmptyBodySchema,
  IDENTITY_AUDIT_ACTIONS,
  StaffInvitationSchema,
  TeamListSchema,
  TeamMemberAnswerSchema,
  TeamRoleChangeSchema,
  type TeamMember,
} from '../../../shared/staff/identity-api';
import { STAFF_API } from '../../../shared/staff/paths';
import { errorAnswers, PAGE_WRITE_ERRORS } from '../../http/error-answers';
import { recordStaffAction } from './audit-record';
import { staffError, staffErrorAnswers } from './errors';
import { requireStaff, signedInMember } from './guard';
import { inviteMember } from './invitations';
import type { StaffRouteOptions } from './options';
import { endSessionsOf } from './sessions';
import { changeRole, listTeam, lockAdmins, removeMember, teamMember, type TeamMemberRow } from './team-store';

/** 409 of an invitation to an address that is a member already. */
export const MEMBER_EXISTS_MESSAGE = 'This address is already on the team.';
/** 409 when the last admin would demote or remove themselves (issue #21, "Team"). */
export const LAST_ADMIN_MESSAGE = 'You are the last admin. Make someone else an admin first.';
/** 404 of a member who is not on the team. */
export const MEMBER_NOT_FOUND_MESSAGE = 'No such team member.';

/** A team row as the API shows it. */
function teamMemberOf({ member, passkeyCount, lastSignInAt }: TeamMemberRow): TeamMember {
  return { id: member.id, email: member.email, role: member.role, createdAt: member.createdAt.toISOString(), passkeyCount, lastSignInAt: lastSignInAt?.toISOString() ?? null };
}

const MemberParamsSchema = z.object({ id: z.uuid({ error: 'No such team member' }) });

/**
 * The team (issue #21, "Team"; admins only, right `team`): list, invite, change a role, remove. A role change or a
 * removal ends all that member's sessions at once, in the transaction that makes it; the last admin cannot be demoted
 * or removed (409). Every change is audited with the admin as actor, in the same transaction.
 */
export const teamRoutes: FastifyPluginAsyncZod<StaffRouteOptions> = async (app, { db, clock, links }) => {
  const admin = requireStaff('team');

  /**
   * GET /api/staff/team: 200 `{members}` by address, to every staff member (issue #36, part 3: a viewer who opens the
   * team page sees the team, without the invite form; decision 0111); 401; 500. Changing the team stays the admins'.
   */
  app.get(
    STAFF_API.team,
    { preHandler: requireStaff('read'), schema: { summary: 'The team', response: { 200: TeamListSchema, ...staffErrorAnswers(401, 403), ...errorAnswers(500) } } },
    async () => ({ members: (await listTeam(db)).map(teamMemberOf) }),
  );

  /**
   * POST /api/staff/team `{email, role}`: invites a member (an enrollment link valid 72 hours, e-mailed through the
   * outbox), audited `staff.invite`. 201 `{member}`; 409 `staff_member_exists`; 401; 403; the page-write errors.
   */
  app.post(
    STAFF_API.team,
    {
      preHandler: admin,
      schema: {
        summary: 'Invite a team member',
        body: StaffInvitationSchema,
        response: { 201: TeamMemberAnswerSchema, ...errorAnswers(...PAGE_WRITE_ERRORS), ...staffErrorAnswers(401, 403, 409) },
      },
    },
    async (request, reply) => {
      const invited = await inviteMember(db, links, {
        invitation: request.body,
        inviter: { staffMember: signedInMember(request), requestId: request.id },
        now: clock.now(),
      });
      if (invited === 'exists') return reply.code(409).send(staffError(MEMBER_EXISTS_MESSAGE, 'staff_member_exists'));
      return reply.code(201).send({ member: teamMemberOf({ member: invited, passkeyCount: 0, lastSignInAt: null }) });
    },
  );

  /**
   * PATCH /api/staff/team/:id `{role}`: changes the member's role and ends all their sessions, audited
   * `staff.role_change` (from, to), in one transaction. 200 `{member}`; 404; 409 `staff_last_admin`; 401; 403; the
   * page-write errors.
   */
  app.patch(
    STAFF_API.teamMember,
    {
      preHandler: admin,
      schema: {
        summary: "Change a team member's role",
        params: MemberParamsSchema,
        body: TeamRoleChangeSchema,
        response: { 200: TeamMemberAnswerSchema, ...errorAnswers(...PAGE_WRITE_ERRORS), ...staffErrorAnswers(401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const actor = signedInMember(request);
      const { id } = request.params;
      const { role } = request.body;
      const now = clock.now();
      const outcome = await db.transaction(async (tx) => {
        const admins = await lockAdmins(tx);
        if (role !== 'admin' && admins.length === 1 && admins[0] === id) return 'last_admin';
        const before = await changeRole(tx, id, role);
        if (!before) return 'missing';
        if (before.role !== role) {
          await endSessionsOf(tx, id, now);
          await recordStaffAction(tx, {
            staffMember: actor,
            action: IDENTITY_AUDIT_ACTIONS.roleChange,
            subjectType: 'staff_member',
            subjectId: id,
            details: { email: before.email, from: before.role, to: role },
            requestId: request.id,
          });
        }
        return 'changed';
      });
      if (outcome === 'last_admin') return reply.code(409).send(staffError(LAST_ADMIN_MESSAGE, 'staff_last_admin'));
      const row = outcome === 'changed' ? await teamMember(db, id) : undefined;
      if (!row) return reply.code(404).send(staffError(MEMBER_NOT_FOUND_MESSAGE, 'staff_not_found'));
      return { member: teamMemberOf(row) };
    },
  );

  /**
   * DELETE /api/staff/team/:id: removes the member (their row stays for the audit log) and ends all their sessions,
   * audited `staff.remove`, in one transaction. 204; 404; 409 `staff_last_admin`; 401; 403; the page-write errors.
   */
  app.delete(
    STAFF_API.teamMember,
    {
      preHandler: admin,
      schema: {
        summary: 'Remove a team member',
        params: MemberParamsSchema,
        body: EmptyBodySchema,
        response: { 204: z.null().describe('Removed; their sessions are over.'), ...errorAnswers(...PAGE_WRITE_ERRORS), ...staffErrorAnswers(401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const actor = signedInMember(request);
      const { id } = request.params;
      const now = clock.now();
      const outcome = await db.transaction(async (tx) => {
        const admins = await lockAdmins(tx);
        if (admins.length === 1 && admins[0] === id) return 'last_admin';
        const removed = await removeMember(tx, id, now);
        if (!removed) return 'missing';
        await endSessionsOf(tx, id, now);
        await recordStaffAction(tx, {
          staffMember: actor,
          action: IDENTITY_AUDIT_ACTIONS.remove,
          subjectType: 'staff_member',
          subjectId: id,
          details: { email: removed.email, role: removed.role },
          requestId: request.id,
        });
        return 'removed';
      });
      if (outcome === 'last_admin') return reply.code(409).send(staffError(LAST_ADMIN_MESSAGE, 'staff_last_admin'));
      if (outcome === 'missing') return reply.code(404).send(staffError(MEMBER_NOT_FOUND_MESSAGE, 'staff_not_found'));
      return reply.code(204).send(null);
    },
  );
};
