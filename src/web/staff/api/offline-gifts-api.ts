import type { z } from 'zod';
import type { OfflineGiftAnswer, OfflineGiftRequest, OfflineImportErrorSchema, OfflineVoidAnswerSchema } from '../../../shared/offline-gifts';
import type { StaffDonorListAnswer } from '../../../shared/staff/donors-api';
import { STAFF_API, staffApiPath } from '../../../shared/staff/paths';
import { StaffApiError, staffFetch, withQuery } from './staff-fetch';

/**
 * The calls of the page that records gifts received outside the site (issue #37): record one under an Idempotency-Key
 * (the same key for every press of the button, so a gift is saved once), look a donor up, check or record a CSV, void one.
 */

/** Records `gift` under `idempotencyKey` (POST /api/staff/offline-gifts); rejects with the API's error (409 a likely duplicate). */
export function recordOfflineGift(gift: OfflineGiftRequest, idempotencyKey: string): Promise<OfflineGiftAnswer> {
  return staffFetch(STAFF_API.offlineGifts, { method: 'POST', json: gift, headers: { 'Idempotency-Key': idempotencyKey } });
}

/** Up to 5 donors whose name or e-mail starts with `q` (GET /api/staff/donors). */
export function searchDonors(q: string): Promise<StaffDonorListAnswer> {
  return staffFetch(withQuery(STAFF_API.donors, { q, pageSize: '5' }));
}

/** A CSV checked (`record: false`) or recorded. */
export type ImportAnswer = { rows: number; toRecord?: number; recorded?: number; alreadyRecorded: number };
/** One error of a refused CSV. */
export type ImportError = z.infer<typeof OfflineImportErrorSchema>;

/**
 * Checks or records the CSV `csv` (POST /api/staff/offline-gifts/import): resolves with the counts, or with `errors` (every
 * row's, nothing written) when the file is refused; rejects with the API's error otherwise.
 */
export async function importOfflineCsv(csv: string, record: boolean): Promise<ImportAnswer | { errors: ImportError[]; message: string }> {
  try {
    return await staffFetch<ImportAnswer>(STAFF_API.offlineGiftsImport, { method: 'POST', json: { csv, record } });
  } catch (caught) {
    if (caught instanceof StaffApiError && caught.code === 'import_refused') return { errors: caught.details as ImportError[], message: caught.message };
    throw caught;
  }
}

/** Voids the offline gift `donationId` with `reason`. */
export function voidOfflineGift(donationId: string, reason: string): Promise<z.infer<typeof OfflineVoidAnswerSchema>> {
  return staffFetch(staffApiPath(STAFF_API.offlineGiftVoid, donationId), { method: 'POST', json: { reason } });
}
