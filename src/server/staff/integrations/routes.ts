import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { and, asc, count, desc, eq, notExists, sql } from 'drizzle-orm';
import { EmptyBodySchema } from '../../../shared/staff/identity-api';
import {
  StaffDeliveryLogSchema,
  StaffDeliveryParamsSchema,
  StaffEndpointInputSchema,
  StaffEndpointListSchema,
  StaffEndpointParamsSchema,
  StaffEndpointWithSecretSchema,
  StaffEndpointSchema,
  StaffResendSchema,
  StaffTestEventSchema,
  type StaffEndpoint,
} from '../../../shared/staff/integrations-api';
import { STAFF_API } from '../../../shared/staff/paths';
import { WEBHOOK_TEST_EVENT_TYPE } from '../../../shared/webhooks';
import type { Database } from '../../db/client';
import { webhookAttempts, webhookDeliveries, webhookEndpoints, type WebhookEndpointRow } from '../../db/schema';
import { errorAnswers, PAGE_WRITE_ERRORS } from '../../http/error-answers';
import { apiError, INVALID_INPUT_MESSAGE, NOT_FOUND_MESSAGE } from '../../http/errors';
import type { Clock } from '../../platform/clock';
import { newWebhookMessageId, webhookBody } from '../../webhooks/record';
import { WEBHOOK_LOG_KEPT_MS } from '../../webhooks/relay';
import { newWebhookSecret } from '../../webhooks/sign';
import { checkTarget, isRefusal } from '../../webhooks/target';
import { recordStaffAction } from '../identity/audit-record';
import { staffErrorAnswers } from '../identity/errors';
import { requireStaff, signedInMember } from '../identity/guard';

/**
 * The staff integrations API (issue #38, "/staff/integrations"; decision 0106), under /api/staff/integrations, for
 * admins only (right `integrations`; viewer and finance get 403): the endpoints, adding one (its URL checked against
 * SSRF as every delivery is: webhooks/target.ts), rotating its secret (the old one signs 24 more hours), pausing and
 * resuming it, sending a test event, its delivery log and a resend. Every change and its audit entry in one
 * transaction; a secret is answered only by the creation and the rotation, and never logged or audited.
 */

/** What the routes need. */
export interface StaffIntegrationsOptions {
  db: Database;
  /** The injected clock: a rotation's overlap, a resend's due time. */
  clock: Clock;
}

/** How long the secret before a rotation still signs: 24 hours, in ms (issue #38). */
export const SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;
/** Tries the delivery log shows at most. */
const LOG_LIMIT = 100;

/** Message of a test event sent to a paused endpoint. */
export const ENDPOINT_PAUSED_MESSAGE = 'Resume the endpoint before sending a test event';
/** Message of a resend of a delivery being tried right now. */
export const DELIVERY_SENDING_MESSAGE = 'This delivery is being tried right now';

const READ_ERRORS = { ...staffErrorAnswers(401, 403), ...errorAnswers(400, 500) };
const WRITE_ERRORS = { ...staffErrorAnswers(401, 403), ...errorAnswers(...PAGE_WRITE_ERRORS.filter((status) => status !== 403)) };

/** An endpoint row as the page shows it: never its secrets. */
function endpointOf(row: WebhookEndpointRow, now: Date): StaffEndpoint {
  const overlap = row.previousSecretExpiresAt !== null && row.previousSecretExpiresAt > now ? row.previousSecretExpiresAt.toISOString() : null;
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.eventTypes,
    includeContact: row.includeContact,
    status: row.status,
    pausedReason: row.pausedReason,
    previousSecretExpiresAt: overlap,
    failingSince: row.failingSince?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The staff integrations routes; see each route's comment. */
export const staffIntegrationRoutes: FastifyPluginAsyncZod<StaffIntegrationsOptions> = async (app, { db, clock }) => {
  const admin = requireStaff('integrations');

  /** The endpoint `id`, or undefined. */
  const find = async (id: string) => (await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id)))[0];

  /** GET /api/staff/integrations (right `integrations`): every endpoint, oldest first, without secrets. */
  app.get(
    STAFF_API.integrations,
    { preHandler: admin, schema: { summary: 'Staff: outgoing webhook endpoints', response: { 200: StaffEndpointListSchema, ...READ_ERRORS } } },
    async (_request, reply) => {
      const rows = await db.select().from(webhookEndpoints).orderBy(asc(webhookEndpoints.createdAt));
      const now = clock.now();
      return reply.code(200).send({ endpoints: rows.map((row) => endpointOf(row, now)) });
    },
  );

  /**
   * POST /api/staff/integrations StaffEndpointInputSchema (right `integrations`): adds an active endpoint with a new
   * secret, audited (`webhook_endpoint.create`: URL, events, contact; never the secret); 201 with the endpoint and its
   * secret, shown this once. 400 (fieldErrors.url) an address refused: not https:// (http:// allowed outside
   * production), or a host that resolves to a loopback, private, link-local or reserved address.
   */
  app.post(
    STAFF_API.integrations,
    {
      preHandler: admin,
      schema: { summary: 'Staff: add a webhook endpoint (its secret is answered once)', body: StaffEndpointInputSchema, response: { 201: StaffEndpointWithSecretSchema, ...WRITE_ERRORS } },
    },
    async (request, reply) => {
      const input = request.body;
      const checked = await checkTarget(input.url, app.webhooks.policy);
      if (isRefusal(checked)) return reply.code(400).send(apiError(INVALID_INPUT_MESSAGE, { url: checked.refused }));
      const secret = newWebhookSecret();
      const row = await db.transaction(async (tx) => {
        const [created] = await tx
          .insert(webhookEndpoints)
          .values({ url: checked.url.toString(), description: input.description, eventTypes: input.events, includeContact: input.includeContact, secret })
          .returning();
        if (!created) throw new Error('The webhook endpoint was not written');
        await recordStaffAction(tx, {
          staffMember: signedInMember(request),
          action: 'webhook_endpoint.create',
          subjectType: 'webhook_endpoint',
          subjectId: created.id,
          details: { url: created.url, events: created.eventTypes, includeContact: created.includeContact },
          requestId: request.id,
        });
        return created;
      });
      return reply.code(201).send({ endpoint: endpointOf(row, clock.now()), secret });
    },
  );

  /**
   * POST /api/staff/integrations/:id/rotate (right `integrations`): a new secret; the current one becomes the previous
   * one and still signs for 24 hours (both signatures are sent). Audited (`webhook_endpoint.rotate_secret`). 200 with
   * the new secret, shown this once; 404 no such endpoint.
   */
  app.post(
    STAFF_API.integrationRotate,
    {
      preHandler: admin,
      schema: {
        summary: 'Staff: rotate a webhook endpoint’s secret (the old one signs 24 more hours)',
        params: StaffEndpointParamsSchema,
        body: EmptyBodySchema,
        response: { 200: StaffEndpointWithSecretSchema, ...WRITE_ERRORS, ...errorAnswers(404) },
      },
    },
    async (request, reply) => {
      const secret = newWebhookSecret();
      const now = clock.now();
      const expiresAt = new Date(now.getTime() + SECRET_OVERLAP_MS);
      const row = await db.transaction(async (tx) => {
        const [rotated] = await tx
          .update(webhookEndpoints)
          .set({ previousSecret: sql`${webhookEndpoints.secret}`, previousSecretExpiresAt: expiresAt, secret, updatedAt: sql`now()` })
          .where(eq(webhookEndpoints.id, request.params.id))
          .returning();
        if (!rotated) return undefined;
        await recordStaffAction(tx, {
          staffMember: signedInMember(request),
          action: 'webhook_endpoint.rotate_secret',
          subjectType: 'webhook_endpoint',
          subjectId: rotated.id,
          details: { previousSecretExpiresAt: expiresAt.toISOString() },
          requestId: request.id,
        });
        return rotated;
      });
      if (!row) return reply.code(404).send(apiError(NOT_FOUND_MESSAGE));
      return reply.code(200).send({ endpoint: endpointOf(row, now), secret });
    },
  );

  /** Registers the pause or resume route: sets the status (audited `webhook_endpoint.pause` / `.resume`); 200 the endpoint; 404 none. */
  const statusRoute = (path: string, status: 'paused' | 'active') =>
    app.post(
      path,
      {
        preHandler: admin,
        schema: {
          summary: status === 'paused' ? 'Staff: pause a webhook endpoint' : 'Staff: resume a webhook endpoint',
          params: StaffEndpointParamsSchema,
          body: EmptyBodySchema,
          response: { 200: StaffEndpointSchema, ...WRITE_ERRORS, ...errorAnswers(404) },
        },
      },
      async (request, reply) => {
        const row = await db.transaction(async (tx) => {
          const [changed] = await tx
            .update(webhookEndpoints)
            .set(
              status === 'paused'
                ? { status, pausedReason: 'staff', updatedAt: sql`now()` }
                : // NOTE: a resumed endpoint starts a new failure window; its deliveries cancelled by a pause are resent from the log.
                  { status, pausedReason: null, failingSince: null, updatedAt: sql`now()` },
            )
            .where(eq(webhookEndpoints.id, request.params.id))
            .returning();
          if (!changed) return undefined;
          await recordStaffAction(tx, {
            staffMember: signedInMember(request),
            action: status === 'paused' ? 'webhook_endpoint.pause' : 'webhook_endpoint.resume',
            subjectType: 'webhook_endpoint',
            subjectId: changed.id,
            details: { url: changed.url },
            requestId: request.id,
          });
          return changed;
        });
        if (!row) return reply.code(404).send(apiError(NOT_FOUND_MESSAGE));
        if (status === 'active') app.webhooks.nudge();
        return reply.code(200).send(endpointOf(row, clock.now()));
      },
    );
  statusRoute(STAFF_API.integrationPause, 'paused');
  statusRoute(STAFF_API.integrationResume, 'active');

  /**
   * POST /api/staff/integrations/:id/test (right `integrations`): queues a `webhook.test` event for this endpoint only,
   * delivered, signed and logged like any other, audited (`webhook_endpoint.test`); 202 its message id. 404 none;
   * 409 the endpoint is paused.
   */
  app.post(
    STAFF_API.integrationTest,
    {
      preHandler: admin,
      schema: {
        summary: 'Staff: send a test event to a webhook endpoint',
        params: StaffEndpointParamsSchema,
        body: EmptyBodySchema,
        response: { 202: StaffTestEventSchema, ...WRITE_ERRORS, ...errorAnswers(404, 409) },
      },
    },
    async (request, reply) => {
      const endpoint = await find(request.params.id);
      if (!endpoint) return reply.code(404).send(apiError(NOT_FOUND_MESSAGE));
      if (endpoint.status !== 'active') return reply.code(409).send(apiError(ENDPOINT_PAUSED_MESSAGE));
      const messageId = newWebhookMessageId();
      const member = signedInMember(request);
      await db.transaction(async (tx) => {
        const body = webhookBody(WEBHOOK_TEST_EVENT_TYPE, clock.now(), { endpointId: endpoint.id, message: 'A test event sent from the integrations page.' });
        await tx.insert(webhookDeliveries).values({ endpointId: endpoint.id, messageId, eventType: WEBHOOK_TEST_EVENT_TYPE, body });
        await recordStaffAction(tx, { staffMember: member, action: 'webhook_endpoint.test', subjectType: 'webhook_endpoint', subjectId: endpoint.id, details: { messageId }, requestId: request.id });
      });
      app.webhooks.nudge();
      return reply.code(202).send({ messageId });
    },
  );

  /**
   * GET /api/staff/integrations/:id/deliveries (right `integrations`): the endpoint's last 100 tries of the last 30 days,
   * newest first, each with its time, status, latency, the start of the answer and its delivery's state, and how many
   * deliveries wait for their first try. 404 none.
   */
  app.get(
    STAFF_API.integrationDeliveries,
    {
      preHandler: admin,
      schema: {
        summary: 'Staff: a webhook endpoint’s delivery log (30 days)',
        params: StaffEndpointParamsSchema,
        response: { 200: StaffDeliveryLogSchema, ...READ_ERRORS, ...errorAnswers(404) },
      },
    },
    async (request, reply) => {
      const endpoint = await find(request.params.id);
      if (!endpoint) return reply.code(404).send(apiError(NOT_FOUND_MESSAGE));
      const since = new Date(clock.now().getTime() - WEBHOOK_LOG_KEPT_MS);
      // NOTE: the deliveries waiting for their first try first, then the tries: a delivery counted as done here has
      // its try's row committed already (the relay writes the try and settles the delivery in one transaction), so the
      // tries read next hold it. "Waiting" means no try recorded yet, an in-flight one included: the relay's claim counts
      // `attempts` before its request, and counting only unclaimed deliveries let the page stop reading the log again
      // before the try was written (a CI run's integrations story saw "No deliveries" for good).
      const [waiting] = await db
        .select({ n: count() })
        .from(webhookDeliveries)
        .where(
          and(
            eq(webhookDeliveries.endpointId, endpoint.id),
            eq(webhookDeliveries.status, 'pending'),
            notExists(db.select({ one: sql`1` }).from(webhookAttempts).where(eq(webhookAttempts.deliveryId, webhookDeliveries.id))),
          ),
        );
      const rows = await db
        .select({ attempt: webhookAttempts, messageId: webhookDeliveries.messageId, eventType: webhookDeliveries.eventType, deliveryStatus: webhookDeliveries.status })
        .from(webhookAttempts)
        .innerJoin(webhookDeliveries, eq(webhookDeliveries.id, webhookAttempts.deliveryId))
        .where(and(eq(webhookAttempts.endpointId, endpoint.id), sql`${webhookAttempts.attemptedAt} >= ${since.toISOString()}`))
        .orderBy(desc(webhookAttempts.attemptedAt))
        .limit(LOG_LIMIT);
      return reply.code(200).send({
        attempts: rows.map(({ attempt, messageId, eventType, deliveryStatus }) => ({
          id: attempt.id,
          deliveryId: attempt.deliveryId,
          messageId,
          eventType,
          attemptedAt: attempt.attemptedAt.toISOString(),
          statusCode: attempt.statusCode,
          latencyMs: attempt.latencyMs,
          responseStart: attempt.responseStart,
          error: attempt.error,
          deliveryStatus,
        })),
        waiting: waiting?.n ?? 0,
      });
    },
  );

  /**
   * POST /api/staff/integrations/:id/deliveries/:deliveryId/resend (right `integrations`): makes the delivery due now
   * under its same message id (`webhook-id`), with a new three-day retry window, audited (`webhook_endpoint.resend`);
   * 202. 404 no such delivery of this endpoint; 409 it is being tried right now.
   */
  app.post(
    STAFF_API.integrationResend,
    {
      preHandler: admin,
      schema: {
        summary: 'Staff: resend a webhook delivery (same webhook-id)',
        params: StaffDeliveryParamsSchema,
        body: EmptyBodySchema,
        response: { 202: StaffResendSchema, ...WRITE_ERRORS, ...errorAnswers(404, 409) },
      },
    },
    async (request, reply) => {
      const now = clock.now();
      const outcome = await db.transaction(async (tx) => {
        const [row] = await tx
          .select()
          .from(webhookDeliveries)
          .where(and(eq(webhookDeliveries.id, request.params.deliveryId), eq(webhookDeliveries.endpointId, request.params.id)))
          .for('update');
        if (!row) return 'not_found' as const;
        if (row.lockedUntil !== null && row.lockedUntil > now) return 'sending' as const;
        await tx
          .update(webhookDeliveries)
          .set({ status: 'pending', nextAttemptAt: now, retryWindowStartedAt: null, lockedUntil: null })
          .where(eq(webhookDeliveries.id, row.id));
        await recordStaffAction(tx, {
          staffMember: signedInMember(request),
          action: 'webhook_endpoint.resend',
          subjectType: 'webhook_endpoint',
          subjectId: row.endpointId,
          details: { deliveryId: row.id, messageId: row.messageId, eventType: row.eventType, previousStatus: row.status },
          requestId: request.id,
        });
        return row;
      });
      if (outcome === 'not_found') return reply.code(404).send(apiError(NOT_FOUND_MESSAGE));
      if (outcome === 'sending') return reply.code(409).send(apiError(DELIVERY_SENDING_MESSAGE));
      app.webhooks.nudge();
      return reply.code(202).send({ deliveryId: outcome.id, messageId: outcome.messageId });
    },
  );
};
