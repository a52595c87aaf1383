import type { z } from 'zod';
import type {
  StaffDonorDetail,
  StaffDonorEmailCorrectionAnswer,
  StaffDonorListAnswer,
  StaffDonorMergeAnswer,
  StaffDonorMergeUndoAnswerSchema,
  StaffDonorNote,
  StaffStatementResendAnswerSchema,
} from '../../../shared/staff/donors-api';
import { STAFF_API, staffApiPath } from '../../../shared/staff/paths';
import { staffFetch } from './staff-fetch';

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

/**
 * Corrects the donor's address on every gift, receipt and plan (issue #36), the receipts of `resendDonationIds` sent
 * again to it; resolves with the donor's new key and what changed.
 */
export function correctDonorEmail(donorKey: string, email: string, resendDonationIds: readonly string[]): Promise<StaffDonorEmailCorrectionAnswer> {
  return staffFetch(staffApiPath(STAFF_API.donorEmail, donorKey), { method: 'POST', json: { email, resendDonationIds } });
}

/** Merges the donor `sourceDonorKey` into `donorKey` (kept); resolves with the merge's id and what moved. */
export function mergeDonor(donorKey: string, sourceDonorKey: string): Promise<StaffDonorMergeAnswer> {
  return staffFetch(staffApiPath(STAFF_API.donorMerges, donorKey), { method: 'POST', json: { sourceDonorKey } });
}

/** Undoes merge `mergeId`; resolves with the merged donor's key again. */
export function undoMerge(mergeId: string): Promise<z.infer<typeof StaffDonorMergeUndoAnswerSchema>> {
  return staffFetch(staffApiPath(STAFF_API.donorMergeUndo, mergeId), { method: 'POST', json: {} });
}

/** Adds the note `body` on the donor; resolves with the note. */
export function addDonorNote(donorKey: string, body: string): Promise<StaffDonorNote> {
  return staffFetch(staffApiPath(STAFF_API.donorNotes, donorKey), { method: 'POST', json: { body } });
}
