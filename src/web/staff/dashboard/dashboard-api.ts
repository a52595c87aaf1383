import type { StaffDashboard } from '../../../shared/staff/dashboard-api';
import { STAFF_API } from '../../../shared/staff/paths';
import { staffFetch } from '../api/staff-fetch';

/** The dashboard's figures (issue #22) for `query` (the page's own query string: `period=...` or nothing). */
export function fetchDashboard(query: string): Promise<StaffDashboard> {
  return staffFetch(query ? `${STAFF_API.dashboard}?${query}` : STAFF_API.dashboard);
}
