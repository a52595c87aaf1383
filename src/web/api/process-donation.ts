import {
  API_PATHS,
  ApiErrorSchema,
  DONATION_FAILED_FALLBACK,
  IDEMPOTENCY_KEY_HEADER,
  ProcessDonationSuccessSchema,
} from '../../shared/api';
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
 * Statuses that are not the attempt's final word (issue #3): 409 still in flight, 500 unexpected,
 * 503 database down (nothing charged) or payment being confirmed. A retry must reuse the key.
 */
const RETRYABLE_STATUSES = new Set([409, 500, 502, 503, 504]);

/**
 * A failed donation call: `message` is for the donor; `retryable` says whether to keep the idempotency key;
 * `fieldErrors` are a 400 answer's messages by payload dotted path (`creditCard.number`; issue #2), or `{}`.
 */
export class DonationRequestError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly fieldErrors: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'DonationRequestError';
  }
}

/**
 * Sends the donation to `POST /api/process-donation` (spec section 7) and returns the donation
 * result. Throws an Error with the server's `error` text, or 'Failed to process donation' when the
 * answer has no body or no message (spec section 8), as a DonationRequestError that says whether
 * the attempt may be retried with the same `idempotencyKey` (issue #3) and carries a 400 answer's
 * `fieldErrors` (issue #2). Network failures propagate
 * as fetch's errors (also retryable: the answer is unknown).
 */
export async function processDonation(submission: DonationSubmission, idempotencyKey: string): Promise<DonationResult> {
  const response = await apiFetch(API_PATHS.processDonation, {
    method: 'POST',
    json: submission,
    headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey },
  });
  const body = await readJson(response);
  const success = ProcessDonationSuccessSchema.safeParse(body);
  if (success.success) return success.data.data;
  // NOTE: any body with an `error` text is read, not only `{success: false}`, so a proxy's or
  // the framework's own error answer still tells the donor something (spec section 8).
  const failure = ApiErrorSchema.pick({ error: true }).safeParse(body);
  const message = failure.success && failure.data.error.trim() ? failure.data.error : DONATION_FAILED_FALLBACK;
  // Read apart from `error`, so malformed field errors never cost the donor the message.
  const details = ApiErrorSchema.pick({ fieldErrors: true }).safeParse(body);
  const fieldErrors = details.success ? details.data.fieldErrors : undefined;
  throw new DonationRequestError(message, RETRYABLE_STATUSES.has(response.status), fieldErrors);
}
