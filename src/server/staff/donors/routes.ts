import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  StaffDonorDetailSchema,
  StaffDonorListAnswerSchema,
  StaffDonorListQuerySchema,
  StaffStatementResendAnswerSchema,
  StaffStatementResendRequestSchema,
} from '../../../shared/staff/donors-api';
import { STAFF_API } from '../../../shared/staff/paths';
import type { Database } from '../../db/client';
import { errorAnswers } from '../../http/error-answers';
import { apiError } from '../../http/errors';
import type { Clock } from '../../platform/clock';
import { READ_ERRORS, WRITE_ERRORS } from '../identity/errors';
import { requireStaff, signedInMember } from '../identity/guard';
import { DONOR_KEY_PATTERN } from '../shared/donor-key';
import { readStaffDonor } from './detail';
import { listStaffDonors } from './list';
import { resendStatementForStaff } from './statement-resend';

/**
 * The staff donors API (issue #22, "Donors"), under /api/staff/donors: the list, a donor's page, and a year's statement
 * sent again. Every route is behind requireStaff(right) (401 without a valid session, 403 when the role lacks the right:
 * shared/staff/roles.ts); JSON, CSRF on writes and `Cache-Control: no-store` as every /api route.
 */

/** What the staff donors routes need. */
export interface StaffDonorsOptions {
  db: Database;
  /** The injected clock: this calendar year, the years whose statement is over. */
  clock: Clock;
  /** The staff's time zone (TZ, as the daily digest and the donations list): the calendar year and the days of the filters. */
  timeZone: string;
}

/** 404 of a donor key that names no donor with a charged gift. */
export const DONOR_NOT_FOUND_MESSAGE = 'No donor has that key.';
/** 409 of a statement asked for a year without one (not over, or no receipt of the donor that is not void). */
export const NO_STATEMENT_MESSAGE = 'This donor has no statement for that year: the year is not over, or no gift of theirs that year still stands.';

/** A donor key in a path: any text (one that is not a key, or names no donor, answers 404). */
const DonorParamsSchema = z.object({ id: z.string().max(100) });
/** What every staff read can answer besides its 200: 400 a bad query, 401, 403, 500. */
/** What every staff write can answer before its handler: the page's write errors (CSRF 403...), and 401. */

/** The staff donors routes; see each route's comment. */
export const staffDonorRoutes: FastifyPluginAsyncZod<StaffDonorsOptions> = async (app, { db, clock, timeZone }) => {
  /**
   * GET /api/staff/donors (right `read`): one page of donors (listStaffDonors: one per address, case-insensitive, with
   * first and last gift, number of gifts, lifetime and this year's totals net of refunds, active plans). 400 a bad query.
   */
  app.get(
    STAFF_API.donors,
    {
      preHandler: requireStaff('read'),
      schema: {
        summary: 'Staff: list donors (one per e-mail address) with search, filters, sort and pagination',
        querystring: StaffDonorListQuerySchema,
        response: { 200: StaffDonorListAnswerSchema, ...READ_ERRORS },
      },
    },
    async (request, reply) => reply.code(200).send(await listStaffDonors(db, request.query, clock.now(), timeZone)),
  );

  /** GET /api/staff/donors/:id (right `read`; `id` the donor key): the donor's page (readStaffDonor); 404 none. */
  app.get(
    STAFF_API.donor,
    {
      preHandler: requireStaff('read'),
      schema: {
        summary: "Staff: a donor's gifts, plans, receipts and year-end statements",
        params: DonorParamsSchema,
        response: { 200: StaffDonorDetailSchema, ...READ_ERRORS, ...errorAnswers(404) },
      },
    },
    async (request, reply) => {
      const donorKey = request.params.id;
      const detail = DONOR_KEY_PATTERN.test(donorKey) ? await readStaffDonor(db, donorKey, clock.now(), timeZone) : undefined;
      if (!detail) return reply.code(404).send(apiError(DONOR_NOT_FOUND_MESSAGE));
      return reply.code(200).send(detail);
    },
  );

  /**
   * POST /api/staff/donors/:id/statements/resend `{year}` (right `resend`): queues that year's statement again to the
   * donor's latest address (resendStatementForStaff), audited in the same transaction; 202 `{success, year, recipient}`.
   * 400 a bad body; 404 no such donor; 409 no statement for that year (`fieldErrors.year`).
   */
  app.post(
    STAFF_API.donorStatementResend,
    {
      preHandler: requireStaff('resend'),
      schema: {
        summary: "Staff: send a donor's year-end statement again",
        params: DonorParamsSchema,
        body: StaffStatementResendRequestSchema,
        response: { 202: StaffStatementResendAnswerSchema, ...WRITE_ERRORS, ...errorAnswers(404, 409) },
      },
    },
    async (request, reply) => {
      const donorKey = request.params.id;
      const { year } = request.body;
      const outcome = DONOR_KEY_PATTERN.test(donorKey)
        ? await resendStatementForStaff(db, { donorKey, year, now: clock.now() }, { staffMember: signedInMember(request), requestId: request.id })
        : { kind: 'not_found' as const };
      switch (outcome.kind) {
        case 'not_found':
          return reply.code(404).send(apiError(DONOR_NOT_FOUND_MESSAGE));
        case 'no_statement':
          return reply.code(409).send(apiError(NO_STATEMENT_MESSAGE, { year: NO_STATEMENT_MESSAGE }));
        case 'queued':
          return reply.code(202).send({ success: true, year, recipient: outcome.recipient });
      }
    },
  );
};
