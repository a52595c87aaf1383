import { STAFF_API } from '../../../shared/staff/paths';
import type { StaffDonationListAnswer } from '../../../shared/staff/donations-api';
import { staffFetch } from '../api/staff-fetch';

/** One page of donations, with the totals of the whole filtered set, for `query` (the page's own query string). */
export function fetchDonations(query: string): Promise<StaffDonationListAnswer> {
  return staffFetch(query ? `${STAFF_API.donations}?${query}` : STAFF_API.donations);
}

/** The address of the CSV export of the filtered set `query` in `format` (a plain GET: the browser downloads it). */
export function donationsExportUrl(format: string, query: string): string {
  return `${STAFF_API.donationsExport}?${new URLSearchParams({ format }).toString()}${query ? `&${query}` : ''}`;
}
