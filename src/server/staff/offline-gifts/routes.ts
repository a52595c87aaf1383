import type { preValidationAsyncHookHandler } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  OfflineDuplicateAnswerSchema,
  OfflineGiftAnswerSchema,
  OfflineGiftRequestSchema,
  OfflineImportAnswerSchema,
  OfflineImportRefusedSchema,
  OfflineVoidAnswerSchema,
  OfflineVoidRequestSchema,
} from '../../../shared/offline-gifts';
import { UNSUPPORTED_CHARACTERS_MESSAGE } from '../../../shared/field-rules';
import { STAFF_API } from '../../../shared/staff/paths';
import type { Database } from '../../db/client';
import { errorAnswers } from '../../http/error-answers';
import { apiError, INVALID_INPUT_MESSAGE, NOT_FOUND_MESSAGE } from '../../http/errors';
import { refusedText } from '../../http/input-guard';
import { IDEMPOTENT_REPLAYED_HEADER, readIdempotencyKey } from '../../idempotency/idempotency-key';
import { checkOfflineCsv, offlineCsvTemplate } from '../../offline-gifts/csv';
import { importOfflineCsv, recordOneOfflineGift, todayIn } from '../../offline-gifts/service';
import { voidOfflineGift } from '../../offline-gifts/void';
import type { Clock } from '../../platform/clock';
import { recordStaffAction } from '../identity/audit-record';
import { READ_ERRORS, WRITE_ERRORS } from '../identity/errors';
import { requireStaff, signedInMember } from '../identity/guard';

/**
 * The staff's gifts received outside the site (issue #37; decision 0112), under /api/staff/offline-gifts: record one
 * (the page /staff/donations/new), void one, check or record a CSV of them, and the CSV's template. Right
 * `offline_gifts` (finance and admin) to write, `read` for the template; every write and its audit entry in one
 * transaction (the recording's own: offline-gifts/service.ts). JSON, CSRF on writes and no-store as every /api route.
 */

/** What the routes need. */
export interface StaffOfflineGiftsOptions {
  db: Database;
  /** The injected clock: today, for the day a gift was received. */
  clock: Clock;
  /** The staff's time zone (TZ): what "today" and a gift's day mean. */
  timeZone: string;
}

/** Audit actions of this capability (admin_audit_log.action). */
export const OFFLINE_GIFT_AUDIT_ACTIONS = {
  recorded: 'donation.offline_recorded',
  imported: 'donation.offline_imported',
  voided: 'donation.offline_voided',
} as const;

/** 400 without a valid Idempotency-Key: recording must be once-only however often the button is pressed. */
export const OFFLINE_IDEMPOTENCY_KEY_MESSAGE =
  'Recording a gift needs an Idempotency-Key header (1 to 255 printable characters), so that pressing the button twice records it once.';
/** 422 of a key sent before with another gift. */
export const OFFLINE_KEY_REUSED_MESSAGE = 'This Idempotency-Key was used for another gift. Use a new key for a new gift.';
/** 409 of a likely duplicate. */
export const OFFLINE_DUPLICATE_MESSAGE =
  'A gift from this donor with the same amount, date and reference is recorded already. Record it anyway only if it is a second gift.';
/** 409 of a void of a gift voided before. */
export const OFFLINE_ALREADY_VOIDED_MESSAGE = 'This gift is voided already.';
/** 409 of a void of a gift made on the site. */
export const OFFLINE_NOT_OFFLINE_MESSAGE = 'This gift was made on the site by card: refund it instead of voiding it.';
/** 400 of a CSV refused whole. */
export const OFFLINE_IMPORT_REFUSED_MESSAGE = 'Nothing was recorded: fix the rows below and upload the file again.';

/** Largest CSV upload, in bytes (a 5,000-row file is about 1 MB; issue #37 asks for at least 5,000 rows). */
export const OFFLINE_IMPORT_BODY_LIMIT_BYTES = 8 * 1024 * 1024;

/** Body of an import: the CSV's text, and whether to record it (`false`: check only and say what would be recorded). */
const ImportRequestSchema = z.strictObject({
  csv: z.string({ error: 'Choose a CSV file' }).min(1, { error: 'Choose a CSV file' }).max(OFFLINE_IMPORT_BODY_LIMIT_BYTES),
  record: z.boolean({ error: 'Say whether to record the file or only check it' }),
});

/** Answer of a check (200, nothing written) or a record (201). */
const ImportCheckedSchema = z.object({ rows: z.number().int(), toRecord: z.number().int(), alreadyRecorded: z.number().int() });

/** A gift's id in a path (any text; one that names no gift answers 404). */
const ParamsSchema = z.object({ id: z.string().max(100) });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The staff offline gifts routes; see each route's comment. */
export const staffOfflineGiftRoutes: FastifyPluginAsyncZod<StaffOfflineGiftsOptions> = async (app, { db, clock, timeZone }) => {
  /**
   * The import's preValidation, after the staff check: a CSV holding a character no text may hold (a control character,
   * a bidirectional control: the input guard's rule, http/input-guard.ts) is refused as the file with errors it is, each
   * named by row and column (checkOfflineCsv: every cell's schema refuses the same characters), rather than by the
   * guard's one error on `csv`, so staff see which cell to fix (issue #37: "every row checked with its errors").
   * Nothing is written. A body without such a character goes on to the schema and the guard.
   */
  const nameRefusedCells: preValidationAsyncHookHandler = async (request, reply) => {
    const csv = (request.body as { csv?: unknown } | null | undefined)?.csv;
    if (typeof csv !== 'string' || !refusedText(csv)) return undefined;
    const { errors } = checkOfflineCsv(csv, todayIn(timeZone, clock.now()));
    // A refused character the cells' schemas do not see (say, a form feed trimmed off a cell) is named by its line.
    const line = csv.split(/\r\n|\n|\r/).findIndex(refusedText) + 1;
    const named = errors.length > 0 ? errors : [{ row: 0, column: 'file', message: `Line ${line}: ${UNSUPPORTED_CHARACTERS_MESSAGE}` }];
    return reply.code(400).send({ success: false as const, error: OFFLINE_IMPORT_REFUSED_MESSAGE, code: 'import_refused' as const, errors: named });
  };

  /**
   * POST /api/staff/offline-gifts + `Idempotency-Key` (right `offline_gifts`): records a gift received outside the site
   * (recordOneOfflineGift), audited. 201 `{donationId, receiptNumber, receiptEmailed}`; the same key again answers the
   * same gift (`Idempotent-Replayed: true`). 400 no key or a bad body (fieldErrors: a day out of range, an unknown
   * campaign...); 409 `likely_duplicate` (send again with `confirmDuplicate: true`); 422 the key was for another gift.
   */
  app.post(
    STAFF_API.offlineGifts,
    {
      preHandler: requireStaff('offline_gifts'),
      schema: {
        summary: 'Staff: record a gift received outside the site (cheque, cash, bank transfer, other)',
        body: OfflineGiftRequestSchema,
        response: { 201: OfflineGiftAnswerSchema, 409: OfflineDuplicateAnswerSchema, ...WRITE_ERRORS, ...errorAnswers(422) },
      },
    },
    async (request, reply) => {
      const idempotency = readIdempotencyKey(request.headers);
      if ('invalid' in idempotency || idempotency.key === undefined) return reply.code(400).send(apiError(OFFLINE_IDEMPOTENCY_KEY_MESSAGE));
      const member = signedInMember(request);
      const outcome = await recordOneOfflineGift(db, request.body, idempotency.key, {
        source: 'staff',
        timeZone,
        today: todayIn(timeZone, clock.now()),
        audit: (tx, [gift]) =>
          recordStaffAction(tx, {
            staffMember: member,
            requestId: request.id,
            action: OFFLINE_GIFT_AUDIT_ACTIONS.recorded,
            subjectType: 'donation',
            subjectId: gift?.donationId ?? null,
            details: { method: request.body.method, amountCents: request.body.amountCents, receivedOn: request.body.receivedOn, receiptNumber: gift?.receiptNumber },
          }),
      });
      switch (outcome.kind) {
        case 'invalid':
          return reply.code(400).send(apiError(INVALID_INPUT_MESSAGE, outcome.fieldErrors));
        case 'key_reused':
          return reply.code(422).send(apiError(OFFLINE_KEY_REUSED_MESSAGE));
        case 'likely_duplicate':
          return reply.code(409).send({ success: false as const, error: OFFLINE_DUPLICATE_MESSAGE, code: 'likely_duplicate' as const, duplicateOf: outcome.duplicateOf });
        case 'recorded':
          if (outcome.replayed) reply.header(IDEMPOTENT_REPLAYED_HEADER, 'true');
          request.log.info({ event: 'offline_gift.recorded', by: 'staff', donationId: outcome.gift.donationId, replayed: outcome.replayed }, 'Offline gift recorded');
          return reply.code(201).send(outcome.gift);
      }
    },
  );

  /**
   * POST /api/staff/offline-gifts/:id/void `{reason}` (right `offline_gifts`): voids a gift received outside the site
   * (voidOfflineGift: no gateway, no refund; its receipt voided; the donor told if the receipt had been sent), audited
   * with the reason. 200 `{donationId, receiptVoided, donorNotified}`; 404; 409 voided already, or a site gift.
   */
  app.post(
    STAFF_API.offlineGiftVoid,
    {
      preHandler: requireStaff('offline_gifts'),
      schema: {
        summary: 'Staff: void a gift received outside the site (a bounced cheque, a mistyped amount), with a reason',
        params: ParamsSchema,
        body: OfflineVoidRequestSchema,
        response: { 200: OfflineVoidAnswerSchema, ...WRITE_ERRORS, ...errorAnswers(404, 409) },
      },
    },
    async (request, reply) => {
      const donationId = request.params.id;
      if (!UUID.test(donationId)) return reply.code(404).send(apiError(NOT_FOUND_MESSAGE));
      const member = signedInMember(request);
      const outcome = await db.transaction(async (tx) => {
        const voided = await voidOfflineGift(tx, donationId, request.body.reason);
        if (voided.kind === 'voided') {
          await recordStaffAction(tx, {
            staffMember: member,
            requestId: request.id,
            action: OFFLINE_GIFT_AUDIT_ACTIONS.voided,
            subjectType: 'donation',
            subjectId: donationId,
            details: { reason: request.body.reason, amountCents: voided.amountCents, receiptVoided: voided.receiptVoided, donorNotified: voided.donorNotified },
          });
        }
        return voided;
      });
      switch (outcome.kind) {
        case 'not_found':
          return reply.code(404).send(apiError(NOT_FOUND_MESSAGE));
        case 'not_offline':
          return reply.code(409).send(apiError(OFFLINE_NOT_OFFLINE_MESSAGE));
        case 'already_voided':
          return reply.code(409).send(apiError(OFFLINE_ALREADY_VOIDED_MESSAGE));
        case 'voided':
          return reply.code(200).send({ donationId, receiptVoided: outcome.receiptVoided, donorNotified: outcome.donorNotified });
      }
    },
  );

  /**
   * POST /api/staff/offline-gifts/import `{csv, record}` (right `offline_gifts`): checks every row of the CSV
   * (importOfflineCsv) and, with `record`, records all its new rows or none in one transaction, audited with the counts.
   * 200 `{rows, toRecord, alreadyRecorded}` for a check; 201 `{rows, recorded, alreadyRecorded}` once recorded (a file
   * recorded before records nothing: `recorded: 0`); 400 `import_refused` with every error by row and column (a control
   * character in a cell too: nameRefusedCells).
   */
  app.post(
    STAFF_API.offlineGiftsImport,
    {
      // NOTE: the staff check in preValidation, so that nameRefusedCells reads a file for finance and admin only.
      preValidation: [requireStaff('offline_gifts'), nameRefusedCells],
      bodyLimit: OFFLINE_IMPORT_BODY_LIMIT_BYTES,
      schema: {
        summary: 'Staff: check, then record, a CSV file of gifts received outside the site (all rows or none)',
        body: ImportRequestSchema,
        response: { 200: ImportCheckedSchema, 201: OfflineImportAnswerSchema, ...WRITE_ERRORS, 400: OfflineImportRefusedSchema.or(WRITE_ERRORS[400]) },
      },
    },
    async (request, reply) => {
      const member = signedInMember(request);
      const outcome = await importOfflineCsv(db, request.body.csv, {
        source: 'import',
        record: request.body.record,
        timeZone,
        today: todayIn(timeZone, clock.now()),
        audit: (tx, gifts) =>
          recordStaffAction(tx, {
            staffMember: member,
            requestId: request.id,
            action: OFFLINE_GIFT_AUDIT_ACTIONS.imported,
            details: { recorded: gifts.length, firstReceipt: gifts[0]?.receiptNumber ?? null, lastReceipt: gifts.at(-1)?.receiptNumber ?? null },
          }),
      });
      switch (outcome.kind) {
        case 'refused':
          return reply.code(400).send({ success: false as const, error: OFFLINE_IMPORT_REFUSED_MESSAGE, code: 'import_refused' as const, errors: outcome.errors });
        case 'checked':
          return reply.code(200).send({ rows: outcome.rows, toRecord: outcome.toRecord, alreadyRecorded: outcome.alreadyRecorded });
        case 'recorded':
          request.log.info({ event: 'offline_gift.imported', recorded: outcome.recorded, alreadyRecorded: outcome.alreadyRecorded }, 'Offline gifts imported');
          return reply.code(201).send({ rows: outcome.rows, recorded: outcome.recorded, alreadyRecorded: outcome.alreadyRecorded });
      }
    },
  );

  /** GET /api/staff/offline-gifts/template.csv (right `read`): the CSV template (the header and one example row), as an attachment. */
  app.get(
    STAFF_API.offlineGiftsTemplate,
    {
      preHandler: requireStaff('read'),
      schema: {
        summary: 'Staff: the CSV template of gifts received outside the site',
        response: { 200: { description: 'The template (attachment)', content: { 'text/csv': { schema: z.string() } } }, ...READ_ERRORS },
      },
    },
    async (_request, reply) =>
      reply.code(200).header('content-type', 'text/csv; charset=utf-8').header('content-disposition', 'attachment; filename="offline-gifts-template.csv"').send(offlineCsvTemplate()),
  );
};
