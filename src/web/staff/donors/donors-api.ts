import type { z } from 'zod';
import type { StaffDonorDetail, StaffDonorListAnswer, StaffStatementResendAnswerSchema } from '../../../shared/staff/donors-api';
import { STAFF_API, staffApiPath } from '../../../shared/staff/paths';
import { staffFetch } from '../api/staff-fetch';

/** One page of donors for `query` (the page's own query string: GET /api/staff/donors's, key for key). */
export function fetchDonors(query: string): Promise<StaffDonorListAnswer> {
  return staffFetch(query ? `${STAFF_API.donors}?${query}` : STAFF_API.donors);
}

/** A donor's page by donor key: figures, gifts with receipts, plans, statements, years whose statement can go again. */
export function fetchDonor(donorKey: string): Promise<StaffDonorDetail> {
  return staffFetch(staffApiPath(STAFF_API.donor, donorKey));
}

/** Queues the donor's statement of `year` again; resolves with the year and the address it goes to. */
export function resendStatement(donorKey: string, year: number): Promise<z.infer<typeof StaffStatementResendAnswerSchema>> {
  return staffFetch(staffApiPath(STAFF_API.donorStatementResend, donorKey), { method: 'POST', json: { year } });
}
