import type { z } from 'zod';
import { ApiErrorSchema, DONATION_FAILED_FALLBACK, IDEMPOTENCY_KEY_HEADER } from '../../shared/api';
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
 * A failed donation call: `message` is for the donor (the server's English); `status` is the answer's HTTP status;
 * `retryable` says whether to keep the idempotency key; `fieldErrors` are a 400 answer's messages by payload dotted
 * path (`creditCard.number`; issue #2), or `{}`; `code` is the answer's stable error code (issue #24), if any.
 */
export class DonationRequestError extends Error {
  readonly retryable: boolean;

  constructor(
    message: string,
    readonly status: number,
    readonly fieldErrors: Readonly<Record<string, string>> = {},
    readonly code?: string,
  ) {
    super(message);
    this.name = 'DonationRequestError';
    this.retryable = RETRYABLE_STATUSES.has(status);
  }
}

/**
 * `fieldErrors` with `prefix` taken off the paths that carry it (`donationData.donorEmail` → `donorEmail`), so
 * the errors of a payload nested in a request (issue #11) name the submission's paths as process-donation's do.
 */
function unnest(fieldErrors: Readonly<Record<string, string>>, prefix: string): Record<string, string> {
  return Object.fromEntries(Object.entries(fieldErrors).map(([path, message]) => [path.startsWith(prefix) ? path.slice(prefix.length) : path, message]));
}

/** What {@link postDonationRequest} sends and how it reads the answer. */
export interface DonationRequest<TSuccess extends z.ZodType<{ success: true; data: unknown }>> {
  /** An API path (API_PATHS). */
  path: string;
  /** The JSON body. */
  body: unknown;
  /** The attempt's Idempotency-Key (issue #3). */
  idempotencyKey: string;
  /** Schema of the 200 answer, `{success: true, data}`. */
  successSchema: TSuccess;
  /** Dotted path under which the body nests the submission (`donationData.`), taken off `fieldErrors`' paths. */
  fieldErrorPrefix?: string;
}

/**
 * POSTs a donation call (process-donation, create-payment-intent, confirm-donation; spec section 7) with its
 * Idempotency-Key and returns the 200 answer's `data`. Otherwise throws a {@link DonationRequestError} with the
 * server's `error` text, or 'Failed to process donation' when the answer has no body or no message (spec
 * section 8), saying whether the attempt may be retried with the same key (issue #3) and carrying a 400 answer's
 * `fieldErrors` (issue #2). Network failures propagate as fetch's errors (also retryable: the answer is unknown).
 */
export async function postDonationRequest<TSuccess extends z.ZodType<{ success: true; data: unknown }>>({
  path,
  body,
  idempotencyKey,
  successSchema,
  fieldErrorPrefix,
}: DonationRequest<TSuccess>): Promise<z.output<TSuccess>['data']> {
  const response = await apiFetch(path, { method: 'POST', json: body, headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey } });
  const answer = await readJson(response);
  const success = successSchema.safeParse(answer);
  if (success.success) return success.data.data;
  // NOTE: any body with an `error` text is read, not only `{success: false}`, so a proxy's or
  // the framework's own error answer still tells the donor something (spec section 8).
  const failure = ApiErrorSchema.pick({ error: true }).safeParse(answer);
  const message = failure.success && failure.data.error.trim() ? failure.data.error : DONATION_FAILED_FALLBACK;
  // Read apart from `error`, so malformed field errors never cost the donor the message.
  const details = ApiErrorSchema.pick({ fieldErrors: true }).safeParse(answer);
  const fieldErrors = details.success ? (details.data.fieldErrors ?? {}) : {};
  const coded = ApiErrorSchema.pick({ code: true }).safeParse(answer);
  const code = coded.success ? coded.data.code : undefined;
  throw new DonationRequestError(
    message,
    response.status,
    fieldErrorPrefix === undefined ? fieldErrors : unnest(fieldErrors, fieldErrorPrefix),
    code,
  );
}
