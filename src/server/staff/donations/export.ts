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
 * The file name of a filtered export: `donations-<format>-filtered-<YYYY-MM-DD of now, UTC>.csv` (only letters, digits,
 * `-` and `.`: no quoting needed in Content-Disposition).
 */
export function filteredExportFileName(format: StaffDonationExportQuery['format'], now: Date): string {
  return `donations-${format}-filtered-${now.toISOString().slice(0, 10)}.csv`;
}
