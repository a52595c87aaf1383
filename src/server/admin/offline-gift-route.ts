import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { OfflineDuplicateAnswerSchema, OfflineGiftAnswerSchema, OfflineGiftRequestSchema } from '../../shared/offline-gifts';
import type { Database } from '../db/client';
import { ADMIN_ERRORS, errorAnswers, MACHINE_WRITE_ERRORS } from '../http/error-answers';
import { apiError, INVALID_INPUT_MESSAGE } from '../http/errors';
import { IDEMPOTENT_REPLAYED_HEADER, readIdempotencyKey } from '../idempotency/idempotency-key';
import { recordOneOfflineGift, todayIn } from '../offline-gifts/service';
import type { Clock } from '../platform/clock';
import { ADMIN_OFFLINE_GIFTS_PATH } from './paths';

/**
 * `POST /api/admin/offline-gifts` (issue #37: "The same for operators' scripts"; decision 0112): an operator's script
 * records a gift received outside the site with the page's body and an `Idempotency-Key`, through the same
 * recordOneOfflineGift as the page. Registered by the admin plugin, behind its requireAdminToken hook; audited by the
 * admin audit hook (every /api/admin request), so no staff entry is written here.
 */

/** What the route needs. */
export interface AdminOfflineGiftOptions {
  db: Database;
  clock: Clock;
  /** The staff's time zone (TZ): what "today" and a gift's day mean. */
  timeZone: string;
}

/** 400 without a valid Idempotency-Key. */
export const ADMIN_OFFLINE_KEY_MESSAGE = 'Recording a gift needs an Idempotency-Key header (1 to 255 printable characters), so that a repeated request records it once.';
/** 422 of a key sent before with another gift. */
export const ADMIN_OFFLINE_KEY_REUSED_MESSAGE = 'This Idempotency-Key was used for another gift. Use a new key for a new gift.';
/** 409 of a likely duplicate (same donor, amount, day and reference): send again with `confirmDuplicate: true`. */
export const ADMIN_OFFLINE_DUPLICATE_MESSAGE = 'A gift from this donor with the same amount, date and reference is recorded already; send confirmDuplicate: true to record a second one.';

/**
 * The route: 201 `{donationId, receiptNumber, receiptEmailed}`; the same key and body again answer the same gift
 * (`Idempotent-Replayed: true`); 400 no key or a bad body (fieldErrors); 409 `likely_duplicate`; 422 key reused;
 * 401/404 as every admin route.
 */
export const offlineGiftRoute: FastifyPluginAsyncZod<AdminOfflineGiftOptions> = async (app, { db, clock, timeZone }) => {
  app.post(
    ADMIN_OFFLINE_GIFTS_PATH,
    {
      schema: {
        summary: 'Record a gift received outside the site (cheque, cash, bank transfer, other), once per Idempotency-Key',
        body: OfflineGiftRequestSchema,
        response: { 201: OfflineGiftAnswerSchema, 409: OfflineDuplicateAnswerSchema, ...errorAnswers(...ADMIN_ERRORS, ...MACHINE_WRITE_ERRORS, 422) },
      },
    },
    async (request, reply) => {
      const idempotency = readIdempotencyKey(request.headers);
      if ('invalid' in idempotency || idempotency.key === undefined) return reply.code(400).send(apiError(ADMIN_OFFLINE_KEY_MESSAGE));
      const outcome = await recordOneOfflineGift(db, request.body, idempotency.key, {
        source: 'operator',
        timeZone,
        today: todayIn(timeZone, clock.now()),
        audit: async () => {},
      });
      switch (outcome.kind) {
        case 'invalid':
          return reply.code(400).send(apiError(INVALID_INPUT_MESSAGE, outcome.fieldErrors));
        case 'key_reused':
          return reply.code(422).send(apiError(ADMIN_OFFLINE_KEY_REUSED_MESSAGE));
        case 'likely_duplicate':
          return reply.code(409).send({ success: false as const, error: ADMIN_OFFLINE_DUPLICATE_MESSAGE, code: 'likely_duplicate' as const, duplicateOf: outcome.duplicateOf });
        case 'recorded':
          if (outcome.replayed) reply.header(IDEMPOTENT_REPLAYED_HEADER, 'true');
          request.log.info({ event: 'offline_gift.recorded', by: 'admin', donationId: outcome.gift.donationId, replayed: outcome.replayed }, 'Offline gift recorded');
          return reply.code(201).send(outcome.gift);
      }
    },
  );
};
