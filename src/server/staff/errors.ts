import { z } from 'zod';
import {
  StaffApiErrorSchema,
  type StaffApiError,
  type StaffErrorCode,
} from '../../shared/staff/identity-api';

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

/** The StaffApiErrorSchema of each status of `statuses`, keyed by status, to spread into a route's `response`. */
export function staffErrorAnswers<const Status extends number>(...statuses: Status[]): { [S in Status]: typeof StaffApiErrorSchema } {
  return Object.fromEntries(statuses.map((status) => [status, StaffApiErrorSchema])) as { [S in Status]: typeof StaffApiErrorSchema };
}
