import { pipeline, Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { Database } from '../db/client';
import { EXPORT_LAYOUTS } from './export-formats';
import type { ExportFormat } from './export-request';
import { readExportRows, type ExportFilter } from './export-rows';

/**
 * A donation export as a CSV stream (issue #14, "Staff actions", Export; decision 0061): RFC 4180 (CRLF line ends,
 * fields quoted when they hold a comma, quote or line break), UTF-8 without a byte order mark, one header row, then
 * one row per gift read batch by batch from the database as the consumer reads (csv-stringify). Every cell that starts
 * with `=`, `+`, `-`, `@`, tab or carriage return (or their full-width forms) gets a single quote in front
 * (csv-stringify's `escape_formulas`; OWASP, "CSV Injection"), phone numbers included.
 */

/**
 * The CSV of the gifts `gifts` selects in `format`: the format's header row, then a row per gift (of those the format
 * holds: every receipted gift, or only the kept ones for a CRM), in receipt number order, EXPORT_BATCH_SIZE rows per
 * query (readExportRows). The operator's export selects a range of receipt days; the staff's, their filters (issue #21). Returns the readable end at once: nothing is
 * queried until it is read, and the next batch only as it is read (backpressure), so memory holds one batch whatever
 * the number of rows. A failed query destroys the stream with the error (a reply then ends short,
 * which a client sees as a broken download rather than a complete file).
 */
export function exportCsv(db: Database, format: ExportFormat, gifts: Omit<ExportFilter, 'keptOnly'>): Readable {
  const layout = EXPORT_LAYOUTS[format];
  const rows = readExportRows(db, { ...gifts, keptOnly: layout.keptOnly });
  const records = Readable.from(
    (async function* () {
      for await (const row of rows) yield layout.columns.map(([, cell]) => cell(row));
    })(),
  );
  const csv = stringify({
    header: true,
    columns: layout.columns.map(([header]) => header),
    record_delimiter: 'windows',
    // NOTE: a cell holding a lone LF or CR (a two-line message is stored with LF) is quoted too: csv-stringify quotes
    // only the record delimiter itself (CRLF) once one is set, and a spreadsheet or an importer ends a row at a lone LF,
    // where the rest of the cell would start a row of its own, formula included.
    quote_record_delimiter: true,
    escape_formulas: true,
  });
  // NOTE: pipeline, not pipe: an error on either side destroys both, and reaches the reply through `csv`'s 'error'.
  return pipeline(records, csv, () => undefined);
}
