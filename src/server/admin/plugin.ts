import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../db/client';
import { apiError, INVALID_INPUT_MESSAGE } from '../http/errors';
import { ADMIN_ERRORS, errorAnswers, MACHINE_WRITE_ERRORS } from '../http/error-answers';
import type { Clock } from '../platform/clock';
import { lastCompletedYear, queueYearEndStatements } from '../receipts/statements';
import type { PaymentGateway } from '../payments/gateway';
import { requireAdminToken } from '../http/operator-auth';
import { exportRoutes } from './export-routes';
import { ADMIN_STATEMENTS_RUN_PATH } from './paths';
import { offlineGiftRoute } from './offline-gift-route';
import { refundRoute } from './refund-route';

/**
 * Operator actions under /api/admin/* (DESIGN.md, "Operator actions"): authenticated by ADMIN_TOKEN (see
 * requireAdminToken), exempt from the browser CSRF check and the per-IP card-testing limits (machine-routes.ts),
 * never cached (`Cache-Control: no-store`, as every /api answer). `npm run admin` (scripts/admin.ts) is their client.
 */


/** Body of POST /api/admin/statements/run: the calendar year (UTC) whose statements to queue. */
export const StatementsRunRequestSchema = z.strictObject({ year: z.number().int().min(2000).max(9999) });
/** Answer of POST /api/admin/statements/run: how many statements this run queued (0 for donors queued before). */
export const StatementsRunAnswerSchema = z.object({ queued: z.number().int().min(0) });

/** What the admin routes need. */
export interface AdminOptions {
  db: Database;
  /** ADMIN_TOKEN; undefined turns every admin route into a 404. */
  adminToken: string | undefined;
  /** The injected clock (DESIGN.md, "Time"): which years are over. */
  clock: Clock;
  /** The gateway refunds go through (issue #14), within GATEWAY_TIMEOUT_MS. */
  gateway: PaymentGateway;
  /** The staff's time zone (TZ): the day an offline gift was received (issue #37). */
  timeZone: string;
}

/** 400 when statements are asked for a year not over yet: its donors would get a partial statement, and none in January. */
export const YEAR_NOT_OVER_MESSAGE = 'Statements can be sent only for a year that is over.';

/** The admin routes, each behind requireAdminToken (an onRequest hook of this encapsulated plugin). */
const adminRoutes: FastifyPluginAsyncZod<AdminOptions> = async (app, { db, adminToken, clock, gateway, timeZone }) => {
  app.addHook('onRequest', requireAdminToken(adminToken));
  // GET /api/admin/donations.csv (issue #14, Export): a child plugin, so the token hook above guards it too.
  await app.register(exportRoutes, { db });
  // POST /api/admin/donations/:id/refund (issue #14): a refund through the gateway, recorded in the ledger.
  await app.register(refundRoute, { db, gateway });
  // POST /api/admin/offline-gifts (issue #37): a gift received outside the site, as the staff page records it.
  await app.register(offlineGiftRoute, { db, clock, timeZone });

  /**
   * POST /api/admin/statements/run `{year}`: queues the year-end statement of `year` for every donor with a gift of
   * that year not refunded, once per (donor, year) whoever asks and however often (see queueYearEndStatements), and
   * answers 200 `{queued}`, the number queued by this run. 400 a year not over yet (at the clock's now, UTC) or a bad
   * body; 401 no or wrong token; 404 ADMIN_TOKEN unset; 413; 415; 500. The relay sends them within seconds.
   */
  app.post(
    ADMIN_STATEMENTS_RUN_PATH,
    {
      schema: {
        summary: "Queue the year-end statements of a year that is over",
        body: StatementsRunRequestSchema,
        response: { 200: StatementsRunAnswerSchema, ...errorAnswers(...ADMIN_ERRORS, ...MACHINE_WRITE_ERRORS) },
      },
    },
    async (request, reply) => {
      const { year } = request.body;
      if (year > lastCompletedYear(clock.now())) {
        return reply.code(400).send(apiError(INVALID_INPUT_MESSAGE, { year: YEAR_NOT_OVER_MESSAGE }));
      }
      const queued = await queueYearEndStatements(db, year);
      request.log.info({ event: 'statements.queued', year, queued, by: 'admin' }, 'Year-end statements queued');
      return reply.code(200).send({ queued });
    },
  );
};

/** Registers the admin routes on `app` (DESIGN.md layout: `admin/`, a Fastify plugin registered by app.ts). */
export async function registerAdmin(app: FastifyInstance, options: AdminOptions): Promise<void> {
  await app.register(adminRoutes, options);
}
