import { parse } from 'csv-parse/sync';
import type { MoneyTotals } from '../../../shared/staff/dashboard-api';

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

/**
 * The totals of a standard export's rows: count = rows; gross = amounts; refunded = refunded amounts; disputed = what
 * was left of the `disputed` rows; net = what was left of the `succeeded` rows (partly refunded ones at what was kept).
 * Throws when the file is not a standard export.
 */
export function totalsOfStandardExport(csv: string): MoneyTotals {
  const rows = parse(csv, { columns: true, bom: true }) as Record<string, string>[];
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
