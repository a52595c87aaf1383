import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ADMIN_ERRORS, errorAnswers } from '../http/error-answers';
import type { Database } from '../db/client';
import { exportCsv } from './export-csv';
import { exportFileName, ExportRequestSchema } from './export-request';
import { ADMIN_DONATIONS_EXPORT_PATH } from './paths';

/** What the export route needs. */
export interface ExportRouteOptions {
  db: Database;
}

/** Content-Type of the export: CSV (RFC 4180, with its `header` parameter, RFC 7111) in UTF-8. */
export const EXPORT_CONTENT_TYPE = 'text/csv; charset=utf-8; header=present';

/**
 * GET /api/admin/donations.csv?from=YYYY-MM-DD&to=YYYY-MM-DD&format=standard|npsp|bloomerang|lgl|civicrm (issue #14,
 * "Staff actions", Export; decisions 0060 and 0061), registered inside the admin plugin, behind its requireAdminToken hook.
 * Answers 200 with the CSV streamed from the database as it is sent (exportCsv): `Content-Type: text/csv;
 * charset=utf-8`, `Content-Disposition: attachment; filename="donations-<format>-<from>-to-<to>.csv"`, never cached.
 * 400 (ApiError with fieldErrors) a missing or malformed date or format, an unknown parameter, `from` after `to`, or a
 * range over MAX_EXPORT_DAYS; 401 no or wrong token; 404 ADMIN_TOKEN unset. Reads only: nothing changes.
 */
export const exportRoutes: FastifyPluginAsyncZod<ExportRouteOptions> = async (app, { db }) => {
  app.get(
    ADMIN_DONATIONS_EXPORT_PATH,
    {
      // NOTE: sent uncompressed: a compressor holds the first rows until its buffer fills (64 KiB from Node 22), so a
      // database failure in the second batch became a 500 on some Node versions and a broken download on others; a
      // reverse proxy may still compress it. Rows leave as they are read, and a failure after them always cuts the
      // download short (decision 0061).
      compress: false,
      // NOTE: no HEAD route: Fastify's would read the whole range from the database only to drop it.
      exposeHeadRoute: false,
      schema: {
        summary: 'Export the gifts of a range of days as CSV, for the charity or its CRM',
        querystring: ExportRequestSchema,
        response: {
          // NOTE: a stream is sent as it is (no serializer runs); the schema only tells the OpenAPI document its media type.
          200: {
            description: 'The CSV file (attachment): a header row, then one row per gift',
            content: { 'text/csv': { schema: z.instanceof(Readable) } },
          },
          ...errorAnswers(...ADMIN_ERRORS, 400),
        },
      },
    },
    async (request, reply) => {
      const { format, from, to } = request.query;
      request.log.info({ event: 'export.started', format, from, to }, 'Donation export started');
      return reply
        .code(200)
        .header('content-type', EXPORT_CONTENT_TYPE)
        .header('content-disposition', `attachment; filename="${exportFileName(request.query)}"`)
        .send(exportCsv(db, format, { receiptDays: { from, to } }));
    },
  );
};
