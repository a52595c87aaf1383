import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { StaffInvitationSchema, StaffMemberSchema } from '../../../shared/staff/identity-api';
import { ADMIN_STAFF_PATH } from '../../../shared/staff/paths';
import { apiError } from '../../http/errors';
import { ADMIN_ERRORS, errorAnswers, MACHINE_WRITE_ERRORS } from '../../http/error-answers';
import { requireAdminToken } from '../../http/operator-auth';
import { inviteMember } from './invitations';
import type { StaffRouteOptions } from './options';
import { staffMemberOf } from './sign-in';
import { MEMBER_EXISTS_MESSAGE } from './team-routes';

/**
 * The operator's invitation (issue #21, "The first staff member"; DESIGN.md, "Operator actions"): behind
 * `Authorization: Bearer <ADMIN_TOKEN>` like every /api/admin/ route, recorded by the operator audit hook with the
 * address and role as its target. `npm run admin -- staff invite <email> --role <role>` is its client.
 */
export const operatorStaffRoutes: FastifyPluginAsyncZod<StaffRouteOptions> = async (app, { db, config, clock, links }) => {
  app.addHook('onRequest', requireAdminToken(config.adminToken));

  /**
   * POST /api/admin/staff `{email, role}`: 201 `{id, email, role}`; the invitation with `<PUBLIC_URL>/staff/enroll/<token>`
   * (single use, 72 hours) is queued in the mail outbox in the same transaction. 409 the address is on the team
   * already; 400; 401 no or wrong token; 404 ADMIN_TOKEN unset; 413; 415; 500.
   */
  app.post(
    ADMIN_STAFF_PATH,
    {
      config: { auditBodyFields: ['email', 'role'] },
      schema: {
        summary: 'Invite a staff member (the first admin, typically)',
        body: StaffInvitationSchema,
        response: { 201: StaffMemberSchema, ...errorAnswers(...ADMIN_ERRORS, ...MACHINE_WRITE_ERRORS, 409) },
      },
    },
    async (request, reply) => {
      const invited = await inviteMember(db, links, { invitation: request.body, inviter: { operator: true }, now: clock.now() });
      if (invited === 'exists') return reply.code(409).send(apiError(MEMBER_EXISTS_MESSAGE));
      request.log.info({ event: 'staff.invited', staffId: invited.id, role: invited.role, by: 'operator' }, 'Staff member invited');
      return reply.code(201).send(staffMemberOf(invited));
    },
  );
};
