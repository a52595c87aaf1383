import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { EmptyBodySchema } from '../../../shared/staff/identity-api';
import { StaffMailListAnswerSchema, StaffMailListQuerySchema, StaffMailRetryAnswerSchema } from '../../../shared/staff/mail-api';
import { STAFF_API } from '../../../shared/staff/paths';
import { UUID_PATTERN } from '../../admin/refund-route';
import type { Database } from '../../db/client';
import { errorAnswers, PAGE_WRITE_ERRORS } from '../../http/error-answers';
import { apiError } from '../../http/errors';
import type { Clock } from '../../platform/clock';
import { staffErrorAnswers } from '../identity/errors';
import { requireStaff, signedInMember } from '../identity/guard';
import { listStaffMail } from './list';
import { retryMailForStaff } from './retry';

/**
 * The staff mail API (issue #22, "Mail"), under /api/staff/mail: the outbox's messages and "retry now". A receipt to a
 * wrong address is corrected through the donations API's correction (POST /api/staff/donations/:id/email with
 * `resend`), not here. Behind requireStaff(right); JSON, CSRF on writes and `Cache-Control: no-store` as every /api route.
 */

/** What the staff mail routes need. */
export interface StaffMailOptions {
  db: Database;
  /** The injected clock: "now" of a retry, and whether a relay's lease is live. */
  clock: Clock;
}

/** 404 of an unknown message. */
export const MAIL_NOT_FOUND_MESSAGE = 'No e-mail has that id.';
/** 409 of "retry now" for a message already sent. */
export const MAIL_ALREADY_SENT_MESSAGE = 'This e-mail was sent already: there is nothing to retry (resend the receipt or statement instead).';
/** 409 of "retry now" for a message withdrawn on purpose (a tribute card whose gift was refunded before it went; issue #23). */
export const MAIL_CANCELLED_MESSAGE = 'This e-mail was cancelled because its gift was refunded before it was sent: there is nothing to send.';
/** 409 of "retry now" for a message a relay is sending at this moment. */
export const MAIL_SENDING_MESSAGE = 'This e-mail is being sent right now. Look again in a minute.';

/** A message's id in a path: any text (one that names no message answers 404). */
const MailParamsSchema = z.object({ id: z.string().max(100) });
const READ_ERRORS = { ...staffErrorAnswers(401, 403), ...errorAnswers(400, 500) };
const WRITE_ERRORS = { ...staffErrorAnswers(401, 403), ...errorAnswers(...PAGE_WRITE_ERRORS.filter((status) => status !== 403)) };

/** The staff mail routes; see each route's comment. */
export const staffMailRoutes: FastifyPluginAsyncZod<StaffMailOptions> = async (app, { db, clock }) => {
  /** GET /api/staff/mail (right `read`): one page of the outbox's messages by state and kind (listStaffMail). 400 a bad query. */
  app.get(
    STAFF_API.mail,
    {
      preHandler: requireStaff('read'),
      schema: {
        summary: 'Staff: the mail outbox: messages retrying or failed (or any state), by kind, with attempts, next try and last error',
        querystring: StaffMailListQuerySchema,
        response: { 200: StaffMailListAnswerSchema, ...READ_ERRORS },
      },
    },
    async (request, reply) => reply.code(200).send(await listStaffMail(db, request.query, clock.now())),
  );

  /**
   * POST /api/staff/mail/:id/retry (right `resend`): makes a queued, retrying or failed message due now
   * (retryMailForStaff), audited; the relay sends it at its next run. 202 `{success, id, recipient}`; 404 none;
   * 409 already sent, cancelled, or being sent right now.
   */
  app.post(
    STAFF_API.mailRetry,
    {
      preHandler: requireStaff('resend'),
      schema: {
        summary: 'Staff: send a waiting or failed e-mail now',
        params: MailParamsSchema,
        body: EmptyBodySchema,
        response: { 202: StaffMailRetryAnswerSchema, ...WRITE_ERRORS, ...errorAnswers(404, 409) },
      },
    },
    async (request, reply) => {
      const id = request.params.id;
      const outcome = UUID_PATTERN.test(id)
        ? await retryMailForStaff(db, id, clock.now(), { staffMember: signedInMember(request), requestId: request.id })
        : { kind: 'not_found' as const };
      switch (outcome.kind) {
        case 'not_found':
          return reply.code(404).send(apiError(MAIL_NOT_FOUND_MESSAGE));
        case 'sent':
          return reply.code(409).send(apiError(MAIL_ALREADY_SENT_MESSAGE));
        case 'cancelled':
          return reply.code(409).send(apiError(MAIL_CANCELLED_MESSAGE));
        case 'sending':
          return reply.code(409).send(apiError(MAIL_SENDING_MESSAGE));
        case 'due':
          return reply.code(202).send({ success: true, id, recipient: outcome.row.recipient });
      }
    },
  );
};
