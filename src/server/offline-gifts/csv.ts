import { createHash } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import {
  centsOfDollarText,
  OFFLINE_CSV_COLUMNS,
  OfflineGiftRequestSchema,
  receivedOnError,
  type OfflineGiftRequest,
} from '../../shared/offline-gifts';
import { canonicalJson } from '../idempotency/idempotency-key';
import type { OfflineGiftEntry } from './record';

/**
 * A CSV file of offline gifts (issue #37, "From a file"; columns documented in README.md, "Offline gifts"): parsed with
 * csv-parse (RFC 4180: quoted fields, commas and line breaks inside quotes, CRLF or LF, a UTF-8 byte-order mark, `;` as
 * the delimiter when the header row has no comma), every row checked
 * with the page's own schema, every error named by row and column. Nothing here writes: the caller records all rows or
 * none (recordOfflineGifts).
 */

/** Most data rows one file may hold (the issue asks for at least 5,000). */
export const OFFLINE_CSV_MAX_ROWS = 10_000;

/** One error of a file: the data row (1 = the first row under the header), the column, and what is wrong. */
export interface OfflineCsvError {
  row: number;
  column: string;
  message: string;
}

/** A file checked: every error, or, when there is none, each row as the gift to record with its once-only key. */
export type CheckedOfflineCsv = { errors: OfflineCsvError[]; entries: OfflineGiftEntry[]; campaigns: Map<string, number[]> };

/** The CSV column each field of the request is read from, for naming an error's column. */
const COLUMN_OF_FIELD: Record<string, (typeof OFFLINE_CSV_COLUMNS)[number]> = {
  method: 'method',
  reference: 'reference',
  receivedOn: 'received_on',
  amountCents: 'amount',
  'donor.name': 'donor_name',
  'donor.email': 'donor_email',
  'donor.address.street': 'street',
  'donor.address.city': 'city',
  'donor.address.state': 'state',
  'donor.address.zipCode': 'zip_code',
  'donor.address.country': 'country',
  cause: 'cause',
  campaign: 'campaign',
  'tribute.type': 'dedication_type',
  'tribute.honoreeName': 'honoree_name',
  tribute: 'dedication_type',
  note: 'note',
  sendReceipt: 'send_receipt',
};

/** The template staff download: the header row and one example row. */
export function offlineCsvTemplate(): string {
  return stringify([
    [...OFFLINE_CSV_COLUMNS],
    ['2026-01-15', 'cheque', '001234', '200.00', 'Jane Doe', 'jane@example.org', '1 Reef Road', 'Hilo', 'HI', '96720', 'US', 'marine-protected-areas', '', '', '', 'Given at the office', 'yes'],
  ]);
}

/**
 * A dedication as staff write it: `honor`/`memory`, or the donation form's words (`In honour of`, `in memory of`),
 * British or American spelling; anything else as written, for the schema to refuse by name.
 */
function dedicationOf(text: string): string {
  const words = text.trim().toLowerCase().replace(/^in\s+/, '').replace(/\s+of$/, '');
  return words === 'honour' ? 'honor' : words;
}

/** A yes/no cell: `yes`, `y`, `true`, `1` or `no`, `n`, `false`, `0`, empty for no; anything else undefined. */
function yesNo(text: string): boolean | undefined {
  const value = text.toLowerCase();
  if (['yes', 'y', 'true', '1'].includes(value)) return true;
  if (['', 'no', 'n', 'false', '0'].includes(value)) return false;
  return undefined;
}

/** The request a row says, before the schema checks it (an empty cell is an absent field). */
function requestOf(cells: Record<string, string>): Record<string, unknown> {
  const optional = (name: string) => (cells[name] === undefined || cells[name].trim() === '' ? undefined : cells[name]);
  const address = Object.fromEntries(
    (
      [
        ['street', 'street'],
        ['city', 'city'],
        ['state', 'state'],
        ['zipCode', 'zip_code'],
        ['country', 'country'],
      ] as const
    ).flatMap(([field, column]) => (optional(column) === undefined ? [] : [[field, cells[column]]])),
  );
  const amount = cells.amount?.trim() ?? '';
  const dedication = optional('dedication_type');
  const honoree = optional('honoree_name');
  return {
    method: cells.method?.trim().toLowerCase().replace(/[\s-]+/g, '_'),
    reference: optional('reference'),
    receivedOn: cells.received_on?.trim(),
    amountCents: centsOfDollarText(amount),
    donor: { name: cells.donor_name ?? '', email: optional('donor_email'), address: Object.keys(address).length > 0 ? address : undefined },
    cause: cells.cause?.trim().toLowerCase(),
    campaign: optional('campaign')?.trim().toLowerCase(),
    tribute: dedication === undefined && honoree === undefined ? undefined : { type: dedication === undefined ? undefined : dedicationOf(dedication), honoreeName: honoree ?? '' },
    note: optional('note'),
    sendReceipt: yesNo(cells.send_receipt?.trim() ?? ''),
  };
}

/**
 * The file's delimiter: a semicolon when its header row has semicolons and no comma (a spreadsheet saved in a language
 * whose decimal mark is a comma writes `;`-separated "CSV"), else a comma.
 */
function delimiterOf(text: string): ',' | ';' {
  const header = text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/, 1)[0] ?? '';
  return header.includes(';') && !header.includes(',') ? ';' : ',';
}

/**
 * Parses and checks `text`, a CSV file with the header row of OFFLINE_CSV_COLUMNS (any order; unknown columns refused),
 * against `today` (`YYYY-MM-DD` in TZ): each row must be a valid gift (OfflineGiftRequestSchema, the dates of
 * receivedOnError). Returns every error by row and column, and the entries (each with key `csv:<SHA-256 of the row's
 * gift>:<its occurrence in the file>`, so the same file, or the same rows in a later file, record nothing twice, while
 * two identical cash gifts in one file stay two gifts), and the rows of each campaign named (for the caller's check
 * that it exists). A file that is not CSV answers one error on row 0.
 */
export function checkOfflineCsv(text: string, today: string): CheckedOfflineCsv {
  let records: string[][];
  try {
    // NOTE: rows of empty cells (`,,,,`: a spreadsheet's formatted but empty rows) are skipped like empty lines.
    records = parse(text, { bom: true, delimiter: delimiterOf(text), skip_empty_lines: true, skip_records_with_empty_values: true, relax_column_count: false }) as string[][];
  } catch (error) {
    return { errors: [{ row: 0, column: 'file', message: `This is not a CSV file we can read: ${(error as Error).message}` }], entries: [], campaigns: new Map() };
  }
  const [header, ...rows] = records;
  const errors: OfflineCsvError[] = [];
  if (!header) return { errors: [{ row: 0, column: 'file', message: 'The file is empty: start with the template’s header row' }], entries: [], campaigns: new Map() };
  const columns = header.map((name) => name.trim().toLowerCase());
  const known = new Set<string>(OFFLINE_CSV_COLUMNS);
  for (const name of columns) if (!known.has(name)) errors.push({ row: 0, column: name, message: 'Unknown column: use the template’s columns' });
  for (const name of ['received_on', 'method', 'amount', 'donor_name', 'cause']) {
    if (!columns.includes(name)) errors.push({ row: 0, column: name, message: 'This column is required' });
  }
  if (rows.length === 0) errors.push({ row: 0, column: 'file', message: 'The file has no gifts under its header row' });
  if (rows.length > OFFLINE_CSV_MAX_ROWS) errors.push({ row: 0, column: 'file', message: `At most ${OFFLINE_CSV_MAX_ROWS.toLocaleString('en-US')} rows per file` });
  if (errors.length > 0) return { errors, entries: [], campaigns: new Map() };

  const entries: OfflineGiftEntry[] = [];
  const occurrences = new Map<string, number>();
  const campaigns = new Map<string, number[]>();
  rows.forEach((cells, index) => {
    const row = index + 1;
    const raw = requestOf(Object.fromEntries(columns.map((name, column) => [name, cells[column] ?? ''])));
    const parsed = OfflineGiftRequestSchema.safeParse(raw);
    if (!parsed.success) {
      const seen = new Set<string>();
      for (const issue of parsed.error.issues) {
        const column = COLUMN_OF_FIELD[issue.path.join('.')] ?? COLUMN_OF_FIELD[String(issue.path[0])] ?? String(issue.path.join('.'));
        if (seen.has(column)) continue;
        seen.add(column);
        const message =
          column === 'amount' && Number.isNaN(raw.amountCents) ? 'Write the amount in dollars, e.g. 200 or 200.00' : column === 'send_receipt' ? 'Write yes or no' : issue.message;
        errors.push({ row, column, message });
      }
      return;
    }
    const request: OfflineGiftRequest = parsed.data;
    const dateError = receivedOnError(request.receivedOn, today);
    if (dateError) {
      errors.push({ row, column: 'received_on', message: dateError });
      return;
    }
    if (request.campaign) campaigns.set(request.campaign, [...(campaigns.get(request.campaign) ?? []), row]);
    const hash = createHash('sha256').update(canonicalJson(request)).digest('hex');
    const occurrence = (occurrences.get(hash) ?? 0) + 1;
    occurrences.set(hash, occurrence);
    entries.push({ request, entryKey: `csv:${hash}:${occurrence}`, fingerprint: hash });
  });
  errors.sort((a, b) => a.row - b.row);
  return { errors, entries: errors.length > 0 ? [] : entries, campaigns };
}
