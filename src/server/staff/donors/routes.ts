import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  StaffDonorDetailSchema,
  StaffDonorEmailCorrectionAnswerSchema,
  StaffDonorEmailCorrectionRequestSchema,
  StaffDonorMergeAnswerSchema,
  StaffDonorMergeRequestSchema,
  StaffDonorMergeUndoAnswerSchema,
  StaffDonorNoteRequestSchema,
  StaffDonorNoteSchema,
  StaffDonorListAnswerSchema,
  StaffDonorListQuerySchema,
  StaffStatementResendAnswerSchema,
  StaffStatementResendRequestSchema,
} from '../../../shared/staff/donors-api';
import { EmptyBodySchema } from '../../../shared/staff/identity-api';
import { STAFF_API } from '../../../shared/staff/paths';
import type { Database } from '../../db/client';
import { errorAnswers } from '../../http/error-answers';
import { apiError } from '../../http/errors';
import type { Clock } from '../../platform/clock';
import { READ_ERRORS, WRITE_ERRORS } from '../identity/errors';
import { requireStaff, signedInMember } from '../identity/guard';
import { DONOR_KEY_PATTERN } from '../shared/donor-key';
import { readStaffDonor } from './detail';
import { correctDonorEmailEverywhere } from './email-correction';
import { mergeDonors, undoDonorMerge } from './merge';
import { addDonorNote } from './notes';
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

/** 409 of a donor-wide correction to an address another donor uses (issue #36; decision 0110: merge them instead). */
export const ADDRESS_TAKEN_MESSAGE = 'Another donor uses this address: merge the two donors instead, so the change can be undone.';
/** 400 of a correction asked to resend a receipt the donor does not have (or that is void). */
export const BAD_RESEND_MESSAGE = 'Only the receipts of this donor that are not void can be resent.';
/** 409 of a donor merged into themselves. */
export const SAME_DONOR_MESSAGE = 'Choose another donor to merge: a donor cannot be merged into themselves.';
/** 404 of a merge whose donor to merge does not exist. */
export const MERGED_DONOR_NOT_FOUND_MESSAGE = 'No donor has the key of the donor to merge.';
/** 404 of an unknown merge. */
export const MERGE_NOT_FOUND_MESSAGE = 'No merge has that id.';
/** 409 of a merge undone already. */
export const MERGE_ALREADY_UNDONE_MESSAGE = 'This merge was undone already.';
/** 409 of a merge more than 30 days old. */
export const MERGE_TOO_LATE_MESSAGE = 'A merge can be undone within 30 days; this one is older. Correct the e-mail of the gifts instead.';

/** A merge's id in a path: any text (one that is not a UUID answers 404). */
const MergeParamsSchema = z.object({ id: z.string().max(100) });
/** A UUID as PostgreSQL writes it. */
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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

  /**
   * POST /api/staff/donors/:id/email `{email, resendDonationIds?}` (right `correct`; issue #36, part 1): the donor's
   * address corrected on every gift, receipt and plan, messages waiting and notes (correctDonorEmailEverywhere), the
   * receipts of `resendDonationIds` queued again, audited in the same transaction. 200 with the donor's new key and what
   * changed. 400 a bad body or a receipt that cannot be resent (`fieldErrors.resendDonationIds`); 404 no such donor;
   * 409 the address is another donor's (`fieldErrors.email`: merge instead).
   */
  app.post(
    STAFF_API.donorEmail,
    {
      preHandler: requireStaff('correct'),
      schema: {
        summary: "Staff: correct a donor's e-mail address on every gift, receipt and plan",
        params: DonorParamsSchema,
        body: StaffDonorEmailCorrectionRequestSchema,
        response: { 200: StaffDonorEmailCorrectionAnswerSchema, ...WRITE_ERRORS, ...errorAnswers(404, 409) },
      },
    },
    async (request, reply) => {
      const donorKey = request.params.id;
      const { email, resendDonationIds } = request.body;
      const outcome = DONOR_KEY_PATTERN.test(donorKey)
        ? await correctDonorEmailEverywhere(db, { donorKey, email, resendDonationIds }, { staffMember: signedInMember(request), requestId: request.id })
        : { kind: 'not_found' as const };
      switch (outcome.kind) {
        case 'not_found':
          return reply.code(404).send(apiError(DONOR_NOT_FOUND_MESSAGE));
        case 'taken':
          return reply.code(409).send(apiError(ADDRESS_TAKEN_MESSAGE, { email: ADDRESS_TAKEN_MESSAGE }));
        case 'bad_resend':
          return reply.code(400).send(apiError(BAD_RESEND_MESSAGE, { resendDonationIds: BAD_RESEND_MESSAGE }));
        case 'corrected': {
          const { correction, receiptsQueued } = outcome;
          return reply.code(200).send({
            donorKey: correction.donorKey,
            email: correction.email,
            previousEmail: correction.previousEmail,
            donationsUpdated: correction.donationIds.length,
            plansUpdated: correction.planIds.length,
            messagesRedirected: correction.messageIds.length,
            receiptsQueued,
          });
        }
      }
    },
  );

  /**
   * POST /api/staff/donors/:id/merges `{sourceDonorKey}` (right `correct`: finance and admin; issue #36, part 1): the
   * donor `sourceDonorKey` merged into the donor of the path, who is kept (mergeDonors), audited in the same
   * transaction. 201 with the merge's id and what moved. 400 a bad body; 404 either donor unknown; 409 the same donor.
   */
  app.post(
    STAFF_API.donorMerges,
    {
      preHandler: requireStaff('correct'),
      schema: {
        summary: 'Staff: merge another donor into this one (every gift, plan and receipt moves to it)',
        params: DonorParamsSchema,
        body: StaffDonorMergeRequestSchema,
        response: { 201: StaffDonorMergeAnswerSchema, ...WRITE_ERRORS, ...errorAnswers(404, 409) },
      },
    },
    async (request, reply) => {
      const targetDonorKey = request.params.id;
      const { sourceDonorKey } = request.body;
      const outcome = DONOR_KEY_PATTERN.test(targetDonorKey)
        ? await mergeDonors(db, { targetDonorKey, sourceDonorKey, now: clock.now() }, { staffMember: signedInMember(request), requestId: request.id })
        : { kind: 'not_found' as const, which: 'kept' as const };
      switch (outcome.kind) {
        case 'not_found':
          return outcome.which === 'kept'
            ? reply.code(404).send(apiError(DONOR_NOT_FOUND_MESSAGE))
            : reply.code(404).send(apiError(MERGED_DONOR_NOT_FOUND_MESSAGE, { sourceDonorKey: MERGED_DONOR_NOT_FOUND_MESSAGE }));
        case 'same':
          return reply.code(409).send(apiError(SAME_DONOR_MESSAGE, { sourceDonorKey: SAME_DONOR_MESSAGE }));
        case 'merged':
          return reply.code(201).send({
            mergeId: outcome.mergeId,
            donorKey: targetDonorKey,
            donationsMoved: outcome.changes.donations.length,
            messagesRedirected: outcome.changes.messages.length,
            notesMoved: outcome.changes.notes.length,
          });
      }
    },
  );

  /**
   * POST /api/staff/donor-merges/:id/undo (right `correct`; issue #36, part 1): merge `id` undone (undoDonorMerge: every
   * row back to its value before the merge), audited in the same transaction. 200 with the merged donor's key again.
   * 404 no such merge; 409 undone already, older than 30 days, or a gift it moved has changed since (the reason says which).
   */
  app.post(
    STAFF_API.donorMergeUndo,
    {
      preHandler: requireStaff('correct'),
      schema: {
        summary: 'Staff: undo a merge of two donors (within 30 days)',
        params: MergeParamsSchema,
        body: EmptyBodySchema,
        response: { 200: StaffDonorMergeUndoAnswerSchema, ...WRITE_ERRORS, ...errorAnswers(404, 409) },
      },
    },
    async (request, reply) => {
      const mergeId = request.params.id;
      const outcome = UUID_PATTERN.test(mergeId)
        ? await undoDonorMerge(db, { mergeId, now: clock.now() }, { staffMember: signedInMember(request), requestId: request.id })
        : { kind: 'not_found' as const };
      switch (outcome.kind) {
        case 'not_found':
          return reply.code(404).send(apiError(MERGE_NOT_FOUND_MESSAGE));
        case 'already_undone':
          return reply.code(409).send(apiError(MERGE_ALREADY_UNDONE_MESSAGE));
        case 'too_late':
          return reply.code(409).send(apiError(MERGE_TOO_LATE_MESSAGE));
        case 'changed':
          return reply.code(409).send(apiError(outcome.reason));
        case 'undone':
          return reply.code(200).send({ mergeId, sourceDonorKey: outcome.sourceDonorKey, donationsRestored: outcome.donationsRestored });
      }
    },
  );

  /**
   * POST /api/staff/donors/:id/notes `{body}` (right `correct`: finance and admin; issue #36, part 1): a note on the
   * donor (addDonorNote), audited in the same transaction. 201 the note. 400 a bad body (empty, too long, control
   * characters: `fieldErrors.body`), nothing written; 404 no such donor.
   */
  app.post(
    STAFF_API.donorNotes,
    {
      preHandler: requireStaff('correct'),
      schema: {
        summary: 'Staff: add a note on a donor',
        params: DonorParamsSchema,
        body: StaffDonorNoteRequestSchema,
        response: { 201: StaffDonorNoteSchema, ...WRITE_ERRORS, ...errorAnswers(404) },
      },
    },
    async (request, reply) => {
      const donorKey = request.params.id;
      const note = DONOR_KEY_PATTERN.test(donorKey)
        ? await addDonorNote(db, { donorKey, body: request.body.body, now: clock.now() }, { staffMember: signedInMember(request), requestId: request.id })
        : undefined;
      if (!note) return reply.code(404).send(apiError(DONOR_NOT_FOUND_MESSAGE));
      return reply.code(201).send(note);
    },
  );
};
