import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { StaffSessionSchema } from '../../../shared/staff/identity-api';
import { STAFF_API } from '../../../shared/staff/paths';
import { errorAnswers } from '../../http/error-answers';
import { staffErrorAnswers } from './errors';
import { requireStaff, signedInMember } from './guard';
import { countPasskeys } from './passkey-store';
import type { StaffRouteOptions } from './options';

/** The current session's route (issue #21, "API"). */
export const sessionRoutes: FastifyPluginAsyncZod<StaffRouteOptions> = async (app, { db }) => {
  /**
   * GET /api/staff/session: 200 `{staffMember, strongAuthAt, passkeyCount}` of the signed-in member (any role); 401
   * `staff_unauthenticated` without a valid session; 500.
   */
  app.get(
    STAFF_API.session,
    {
      preHandler: requireStaff('read'),
      schema: {
        summary: 'The signed-in staff member',
        response: { 200: StaffSessionSchema, ...staffErrorAnswers(401, 403), ...errorAnswers(500) },
      },
    },
    async (request) => {
      const { strongAuthAt, ...staffMember } = signedInMember(request);
      return { staffMember, strongAuthAt: strongAuthAt.toISOString(), passkeyCount: await countPasskeys(db, staffMember.id) };
    },
  );
};
