import { API_PATHS, ProcessDonationSuccessSchema } from '../../shared/api';
import type { DonationResult, DonationSubmission } from '../../shared/donation';
import { postDonationRequest } from './donation-request';

/**
 * Sends the donation to `POST /api/process-donation` (spec section 7) and returns the donation
 * result. Failures throw a DonationRequestError (see postDonationRequest): the server's `error` text or
 * 'Failed to process donation' (spec section 8), whether the attempt may be retried with the same
 * `idempotencyKey` (issue #3), and a 400 answer's `fieldErrors` (issue #2).
 */
export function processDonation(submission: DonationSubmission, idempotencyKey: string): Promise<DonationResult> {
  return postDonationRequest({ path: API_PATHS.processDonation, body: submission, idempotencyKey, successSchema: ProcessDonationSuccessSchema });
}
