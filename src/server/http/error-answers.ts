import { ApiErrorSchema } from '../../shared/api';

/**
 * The error statuses of a route's `response` schemas (DESIGN.md example 9: a schema for every status; issue #14: the
 * OpenAPI document lists them). Besides what its handler answers, a route answers what the app's hooks and error
 * handler answer for it; the sets below name those, so each route declares them without copying a list.
 */

/**
 * What any write request (POST, PUT, PATCH, DELETE) of the site's pages can be answered before its handler runs:
 * 400 a malformed JSON body or one that fails the route's schema (errors.ts handleError); 403 a failed CSRF check or
 * a request from another site (csrf.ts); 413 over BODY_LIMIT_BYTES; 415 not `application/json`; 429 a per-IP
 * card-testing limit (card-testing/defence.ts, OWASP OAT-001); 500 anything unexpected.
 */
export const PAGE_WRITE_ERRORS = [400, 403, 413, 415, 429, 500] as const;

/**
 * What a write request of a machine route (webhooks, operator actions: machine-routes.ts) can be answered before its
 * handler runs: 400 malformed or invalid body; 413; 415; 500. No CSRF check and no per-IP limit apply to them.
 */
export const MACHINE_WRITE_ERRORS = [400, 413, 415, 500] as const;

/**
 * What every operator route under /api/admin/* can answer, whatever its method (operator-auth.ts requireAdminToken;
 * DESIGN.md, "Operator actions"): 401 no or wrong bearer token; 404 ADMIN_TOKEN unset; 500.
 */
export const ADMIN_ERRORS = [401, 404, 500] as const;

/** The ApiErrorSchema of each status of `statuses` (duplicates allowed), keyed by status, to spread into a route's `response`. */
export type ErrorAnswers<Status extends number> = { [S in Status]: typeof ApiErrorSchema };

/**
 * The `response` schemas of the error statuses `statuses` (say `...errorAnswers(...PAGE_WRITE_ERRORS, 402)`): each
 * one an ApiErrorSchema body. NOTE: keyed by the literal statuses, so fastify-type-provider-zod still types
 * `reply.code(...)` with exactly the statuses a route declares.
 */
export function errorAnswers<const Status extends number>(...statuses: Status[]): ErrorAnswers<Status> {
  return Object.fromEntries(statuses.map((status) => [status, ApiErrorSchema])) as ErrorAnswers<Status>;
}
