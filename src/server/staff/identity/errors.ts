import { errorAnswers, PAGE_WRITE_ERRORS } from '../../http/error-answers';
import { z } from 'zod';
import {
  StaffApiErrorSchema,
  type StaffApiError,
  type StaffErrorCode,
} from '../../../shared/staff/identity-api';

/**
 * Refusals of the staff API (issue #21): `{success: false, error, code}`, where `code` is what the pages branch on.
 * StaffApiErrorSchema becomes one component of the OpenAPI document, as ApiErrorSchema does (http/openapi.ts).
 */

/** Component name of StaffApiErrorSchema in the OpenAPI document. */
export const STAFF_API_ERROR_COMPONENT = 'StaffApiError';

z.globalRegistry.add(StaffApiErrorSchema, {
  id: STAFF_API_ERROR_COMPONENT,
  description: 'A refusal of the staff API: a sentence a person can read, and a code the pages act on.',
});

/** The body of a staff API refusal with `code`. */
export function staffError(error: string, code: StaffErrorCode): StaffApiError {
  return { success: false, error, code };
}

/** What a status means on the staff API, for the OpenAPI document (the app-wide meanings speak of the operator token and card-testing). */
const STAFF_STATUS_MEANINGS: Record<number, string> = {
  400: 'Invalid input, or a passkey that could not be created (staff_passkey_failed).',
  401: 'No valid staff session (staff_unauthenticated), or a passkey that did not sign in (staff_passkey_failed).',
  403: 'The role lacks the right (staff_forbidden), a recent passkey sign-in is needed (staff_reauth_required), or the CSRF check failed.',
  404: 'No such record (staff_not_found).',
  409: 'Refused by a team rule: the last admin (staff_last_admin), the only passkey (staff_last_passkey), an address already on the team (staff_member_exists).',
  410: 'The e-mailed link was used, has expired or is unknown (staff_link_invalid).',
  429: 'Too many sign-in attempts or link requests from this client or for this address (staff_rate_limited).',
};

/**
 * The StaffApiErrorSchema of each status of `statuses`, keyed by status, to spread into a route's `response`, each
 * described by what the status means on the staff API.
 */
export function staffErrorAnswers<const Status extends number>(...statuses: Status[]): { [S in Status]: typeof StaffApiErrorSchema } {
  return Object.fromEntries(
    statuses.map((status) => [status, StaffApiErrorSchema.describe(STAFF_STATUS_MEANINGS[status] ?? `Refused (${status}).`)]),
  ) as { [S in Status]: typeof StaffApiErrorSchema };
}

/** What every staff read can answer besides its 200: 400 a bad query, 401, 403, 500. */
export const READ_ERRORS = { ...staffErrorAnswers(401, 403), ...errorAnswers(400, 500) };
/** What every staff write can answer before its handler: the page's write errors (CSRF 403...), and 401. */
export const WRITE_ERRORS = { ...staffErrorAnswers(401, 403), ...errorAnswers(...PAGE_WRITE_ERRORS.filter((status) => status !== 403)) };
