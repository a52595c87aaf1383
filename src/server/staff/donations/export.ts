import type { Readable } from 'node:stream';
import type { StaffDonationExportQuery } from '../../../shared/staff/donations-api';
import type { Database } from '../../db/client';
import { exportCsv } from '../../admin/export-csv';
import { filterCondition } from './filters';

/**
 * "Export these rows" (issue #21, "Donations"; GiveWP #4085: exports that ignore the filters on screen): the operator's
 * export (admin/export-csv.ts: the same five formats, the same streaming in batches, the same formula neutralisation)
 * of the gifts the staff's filters select, through the same condition as the list (filterCondition). As every export,
 * a file holds receipted gifts only (pending and failed attempts have no receipt), and a CRM's file only the gifts
 * kept (decision 0085).
 */

/** The CSV stream of the gifts `query`'s filters select (dates in `timeZone`) in `query.format`; see exportCsv. */
export function exportFilteredDonations(db: Database, query: StaffDonationExportQuery, timeZone: string): Readable {
  const { format, ...filter } = query;
  return exportCsv(db, format, { donations: filterCondition(filter, timeZone) });
}

/**
 * The file name of an export: `donations-<format>-filtered-<YYYY-MM-DD of now, UTC>.csv` when `filtered` (a filter or
 * a search narrowed the list), else `donations-<format>-all-<date>.csv` (issue #36, part 3: an export of the unfiltered
 * list is not named "filtered"). Only letters, digits, `-` and `.`: no quoting needed in Content-Disposition.
 */
export function exportFileName(format: StaffDonationExportQuery['format'], filtered: boolean, now: Date): string {
  return `donations-${format}-${filtered ? 'filtered' : 'all'}-${now.toISOString().slice(0, 10)}.csv`;
}

/** Whether `query` narrows the list: any filter or search given (the format aside). */
export function isFilteredExport(query: StaffDonationExportQuery): boolean {
  const { format: _format, ...filters } = query;
  return Object.values(filters).some((value) => value !== undefined);
}
