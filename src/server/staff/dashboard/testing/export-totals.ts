import { parse } from 'csv-parse/sync';
import type { MoneyTotals } from '../../../../shared/staff/dashboard-api';

/**
 * For tests of the dashboard (issue #22: "Every figure agrees with the CSV export"): the totals of a `standard` export
 * file (admin/export-formats.ts: one row per receipted gift with its `status`, `amount` and `refunded_amount` in
 * dollars), counted from the file's own cells as the dashboard defines them, so a test compares the two.
 */

/** `12.50` (the export's dollars: digits, a point, two digits) as integer cents (1250), without floating point. */
function dollarCellToCents(cell: string): number {
  const match = /^(\d+)\.(\d{2})$/.exec(cell);
  if (!match) throw new Error(`Not an export amount: ${cell}`);
  return Number(match[1]) * 100 + Number(match[2]);
}

/** The rows of an export file, each a record by header. */
function exportRows(csv: string): Record<string, string>[] {
  return parse(csv, { columns: true, bom: true }) as Record<string, string>[];
}

/**
 * The net of a standard export's rows grouped by the value of `column` (`cause`, `frequency`...): what was left of its
 * `succeeded` rows, in cents, by value (a value without such rows absent). Throws when the file is not a standard export.
 */
export function netOfStandardExportBy(csv: string, column: string): Record<string, number> {
  const net: Record<string, number> = {};
  for (const row of exportRows(csv)) {
    if (row.status !== 'succeeded') continue;
    const key = row[column] ?? '';
    net[key] = (net[key] ?? 0) + dollarCellToCents(row.amount ?? '') - dollarCellToCents(row.refunded_amount ?? '');
  }
  return net;
}

/**
 * The totals of a standard export's rows: count = rows; gross = amounts; refunded = refunded amounts; disputed = what
 * was left of the `disputed` rows; net = what was left of the `succeeded` rows (partly refunded ones at what was kept).
 * Throws when the file is not a standard export.
 */
export function totalsOfStandardExport(csv: string): MoneyTotals {
  const rows = exportRows(csv);
  const totals: MoneyTotals = { count: 0, grossCents: 0, refundedCents: 0, disputedCents: 0, netCents: 0 };
  for (const row of rows) {
    const amountCents = dollarCellToCents(row.amount ?? '');
    const refundedCents = dollarCellToCents(row.refunded_amount ?? '');
    totals.count += 1;
    totals.grossCents += amountCents;
    totals.refundedCents += refundedCents;
    if (row.status === 'disputed') totals.disputedCents += amountCents - refundedCents;
    if (row.status === 'succeeded') totals.netCents += amountCents - refundedCents;
  }
  return totals;
}
