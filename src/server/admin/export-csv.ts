import { pipeline, Readable } from 'node:stream';
import { stringify, type CastReturnObject } from 'csv-stringify';
import type { Database } from '../db/client';
import { EXPORT_LAYOUTS } from './export-formats';
import type { ExportRequest } from './export-request';
import { readExportRows } from './export-rows';

/**
 * A donation export as a CSV stream (issue #14, "Staff actions", Export; decision 0061): RFC 4180 (CRLF line ends,
 * fields quoted when they hold a comma, quote or line break), UTF-8 without a byte order mark, one header row, then
 * one row per gift read batch by batch from the database as the consumer reads (csv-stringify).
 */

// NOTE: text made of digits and the punctuation of numbers and phone numbers only (`+1 (555) 010-0100`, `-1.50`) can
// hold no function, cell reference or DDE call, so a spreadsheet can run nothing from it; left as it is, a CRM gets
// the phone number or amount intact. Anything else starting with = + - @ tab or CR is neutralised (decision 0061).
const PLAIN_NUMBER = /^[+-]?[\d ().-]*\d[\d ().-]*$/;

/**
 * csv-stringify's cast of text cells: a plain number or phone number (see PLAIN_NUMBER) is written without formula
 * escaping; any other cell goes through `escape_formulas`, which prefixes a single quote to a cell starting with
 * `=`, `+`, `-`, `@`, tab or carriage return (or their full-width forms): OWASP, "CSV Injection".
 */
function castText(value: string): string | CastReturnObject {
  // NOTE: csv-stringify applies the options a cast returns to that cell alone, escape_formulas included (its
  // runtime does; its CastReturnObject type does not list that option yet).
  return PLAIN_NUMBER.test(value) ? ({ value, escape_formulas: false } as CastReturnObject) : value;
}

/**
 * The CSV of `request`: its format's header row, then a row per gift of its days (UTC, both included), in receipt
 * number order, EXPORT_BATCH_SIZE rows per query (readExportRows). Returns the readable end at once: nothing is
 * queried until it is read, and the next batch only as it is read (backpressure), so memory holds one batch whatever
 * the number of rows. A failed query destroys the stream with the error (a reply then ends short,
 * which a client sees as a broken download rather than a complete file).
 */
export function exportCsv(db: Database, request: ExportRequest): Readable {
  const layout = EXPORT_LAYOUTS[request.format];
  const rows = readExportRows(db, { from: request.from, to: request.to, keptOnly: layout.keptOnly });
  const records = Readable.from(
    (async function* () {
      for await (const row of rows) yield layout.columns.map(([, cell]) => cell(row));
    })(),
  );
  const csv = stringify({
    header: true,
    columns: layout.columns.map(([header]) => header),
    record_delimiter: 'windows',
    escape_formulas: true,
    cast: { string: castText },
  });
  // NOTE: pipeline, not pipe: an error on either side destroys both, and reaches the reply through `csv`'s 'error'.
  return pipeline(records, csv, () => undefined);
}
