import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAdminToken } from '../http/operator-auth';
import type { CapabilitySigner } from '../platform/capability-link';
import type { ServerConfig } from '../platform/config';
import type { Database } from '../db/client';
import { apiError, INVALID_INPUT_MESSAGE } from '../http/errors';
import { ADMIN_ERRORS, errorAnswers, MACHINE_WRITE_ERRORS } from '../http/error-answers';
import type { Clock } from '../platform/clock';
import type { ComposeMail } from '../mail/relay';
import type { PaymentGateway } from '../payments/gateway';
import { runBilling, type BillingDeps, type BillingReport } from './billing';
import { createPlanComposer } from './compose';
import { manageRoutes } from './manage-routes';
import { startBillingRunner, type RunningBilling } from './runner';

/** API path of an operator's billing run (DESIGN.md, "Operator actions"). */
export const ADMIN_BILLING_RUN_PATH = '/api/admin/billing/run';

/** Body of POST /api/admin/billing/run: an optional `asOf` instant (ISO 8601 with its offset), test gateway only. */
export const BillingRunRequestSchema = z.strictObject({ asOf: z.iso.datetime({ offset: true }).optional() }).optional();
/** Answer of POST /api/admin/billing/run: renewals charged, tries declined, plans claimed but left for a later run. */
export const BillingRunAnswerSchema = z.object({ charged: z.number().int().min(0), failed: z.number().int().min(0), skipped: z.number().int().min(0) });

/** 400 of a billing run with `asOf` when the gateway moves real money: time can be moved forward only in test mode. */
export const AS_OF_TEST_ONLY_MESSAGE = 'asOf is accepted only with the test payment gateway.';

/** What the app uses of recurring gifts: a billing run on demand, the plan e-mails' composer, the manage-link signer. */
export interface AppBilling {
  /** One billing run at `asOf` (the clock's now by default); resolves with what it did. */
  run(asOf?: Date): Promise<BillingReport>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Recurring gifts' billing (issue #13); see registerRecurring. */
    billing: AppBilling;
  }
}

/** What registerRecurring needs. */
export interface RecurringOptions {
  db: Database;
  gateway: PaymentGateway;
  config: ServerConfig;
  clock: Clock;
  /** The signer of manage links (createManageLinkSigner), shared with the receipts that carry them. */
  links: CapabilitySigner;
}

/** The admin route of billing, behind requireAdminToken (http/operator-auth.ts). */
const billingAdminRoutes: FastifyPluginAsyncZod<{ billing: AppBilling; gateway: PaymentGateway; adminToken: string | undefined }> = async (
  app,
  { billing, gateway, adminToken },
) => {
  app.addHook('onRequest', requireAdminToken(adminToken));
  /**
   * POST /api/admin/billing/run `{asOf?}`: runs billing now, or as of `asOf` (ISO 8601; only with the test gateway, so
   * a person trying the site can move time forward; issue #13), and answers 200 `{charged, failed, skipped}`.
   * 400 `asOf` with another gateway, or a bad body; 401 no or wrong token; 404 ADMIN_TOKEN unset; 413; 415; 500.
   */
  app.post(
    ADMIN_BILLING_RUN_PATH,
    {
      schema: {
        summary: 'Run billing now, or as of a given instant (test gateway only)',
        body: BillingRunRequestSchema,
        response: { 200: BillingRunAnswerSchema, ...errorAnswers(...ADMIN_ERRORS, ...MACHINE_WRITE_ERRORS) },
      },
    },
    async (request, reply) => {
      const asOf = request.body?.asOf;
      if (asOf !== undefined && gateway.name !== 'test') return reply.code(400).send(apiError(INVALID_INPUT_MESSAGE, { asOf: AS_OF_TEST_ONLY_MESSAGE }));
      const report = await billing.run(asOf === undefined ? undefined : new Date(asOf));
      request.log.info({ event: 'billing.run', asOf, ...report, by: 'admin' }, 'Billing run by an operator');
      return reply.code(200).send(report);
    },
  );
};

/**
 * Registers recurring gifts (issue #13): `app.billing`, the billing runner on `clock` every BILLING_INTERVAL_MS
 * (started when the server listens, so `app.inject()` tests run billing only when they ask, and stopped when the app
 * closes), POST /api/admin/billing/run, and the donor's manage API (manage-routes.ts). Returns the composer of plan
 * e-mails (for the mail relay).
 */
export async function registerRecurring(app: FastifyInstance, { db, gateway, config, clock, links }: RecurringOptions): Promise<{ compose: ComposeMail }> {
  const deps: BillingDeps = { db, gateway, log: app.log, retryDays: config.billing.retryDays };
  const billing: AppBilling = { run: (asOf) => runBilling(deps, asOf ?? clock.now()) };
  app.decorate('billing', billing);
  let running: RunningBilling | undefined;
  app.addHook('onListen', async () => {
    running ??= startBillingRunner({ ...deps, clock }, config.billing.intervalMs);
  });
  app.addHook('onClose', async () => {
    await running?.stop();
  });
  await app.register(billingAdminRoutes, { billing, gateway, adminToken: config.adminToken });
  await app.register(manageRoutes, { db, gateway, links, clock, minAmountCents: config.minAmountCents, feeCoverage: config.site.feeCoverage });
  return { compose: createPlanComposer({ db, organization: config.organization, publicUrl: config.site.publicUrl, links, clock }) };
}
