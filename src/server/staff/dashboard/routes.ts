import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { StaffDashboardQuerySchema, StaffDashboardSchema } from '../../../shared/staff/dashboard-api';
import { STAFF_API } from '../../../shared/staff/paths';
import type { Database } from '../../db/client';
import { errorAnswers } from '../../http/error-answers';
import type { Clock } from '../../platform/clock';
import { staffErrorAnswers } from '../identity/errors';
import { requireStaff } from '../identity/guard';
import { loadDashboard } from './figures';

/** What the dashboard route needs. */
export interface StaffDashboardOptions {
  db: Database;
  /** The injected clock: what "today" is. */
  clock: Clock;
  /** The staff's time zone (TZ, as the daily digest): the days of every figure. */
  timeZone: string;
}

/**
 * GET /api/staff/dashboard?period=today|last7|last30|year (issue #22, "Dashboard /staff"; right `read`, so every role):
 * the figures at a glance (loadDashboard; StaffDashboardSchema), the breakdowns over `period` (default last30). 401
 * without a session; 400 (fieldErrors) an unknown period or parameter. JSON, `Cache-Control: no-store` as every /api
 * route. Register after registerStaff, whose session hook the guard reads.
 */
export const staffDashboardRoutes: FastifyPluginAsyncZod<StaffDashboardOptions> = async (app, { db, clock, timeZone }) => {
  app.get(
    STAFF_API.dashboard,
    {
      preHandler: requireStaff('read'),
      schema: {
        summary: 'Staff: the figures at a glance (net raised by period and a year before, by cause, by frequency, donors, plans, failing renewals and mail)',
        querystring: StaffDashboardQuerySchema,
        response: { 200: StaffDashboardSchema, ...staffErrorAnswers(401, 403), ...errorAnswers(400, 500) },
      },
    },
    async (request, reply) => reply.code(200).send(await loadDashboard(db, { now: clock.now(), timeZone, period: request.query.period })),
  );
};
