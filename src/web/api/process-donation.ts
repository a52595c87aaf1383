import { API_PATHS, ApiErrorSchema, DONATION_FAILED_FALLBACK, ProcessDonationSuccessSchema } from '../../shared/api';
import type { DonationResult, DonationSubmission } from '../../shared/donation';
import { apiFetch } from './api-client';

/** The response body as JSON, or undefined when there is none or it is not JSON. */
async function readJson(response: Response): Promise<unknown> {
  try {
    return await response.json();
  } catch {
    return undefined;
  }
}

/**
 * Sends the donation to `POST /api/process-donation` (spec section 7) and returns the donation
 * result. Throws an Error with the server's `error` text, or 'Failed to process donation' when the
 * answer has no body or no message (spec section 8). Network failures propagate as errors.
 */
export async function processDonation(submission: DonationSubmission): Promise<DonationResult> {
  const response = await apiFetch(API_PATHS.processDonation, { method: 'POST', json: submission });
  const body = await readJson(response);
  const success = ProcessDonationSuccessSchema.safeParse(body);
  if (success.success) return success.data.data;
  // NOTE: any body with an `error` text is read, not only `{success: false}`, so a proxy's or
  // the framework's own error answer still tells the donor something (spec section 8).
  const failure = ApiErrorSchema.pick({ error: true }).safeParse(body);
  throw new Error(failure.success && failure.data.error.trim() ? failure.data.error : DONATION_FAILED_FALLBACK);
}
