import { apiFetch, type ApiFetchInit } from '../../api/api-client';

/**
 * The staff pages' calls of `/api/staff/*` (issue #21): {@link apiFetch} (same-origin cookies, the CSRF header on every
 * write, as on the donor side), with the answer's JSON parsed and every non-2xx answer turned into a
 * {@link StaffApiError}, so a page shows the server's own message.
 */

/** Shown when the request never reached the server, or its answer was not the API's. */
export const STAFF_NETWORK_ERROR = 'We could not reach the server. Check your connection and try again.';

/**
 * A refused staff API call: the HTTP `status`, the API's `code` (`staff_unauthenticated`, `staff_forbidden`,
 * `staff_reauth_required`, `staff_link_invalid`...) when it sent one, and its message.
 */
export class StaffApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string | undefined,
    readonly fieldErrors: Record<string, string> = {},
    /** What else the answer carried: a refused CSV's `errors` (issue #37), a likely duplicate's `duplicateOf`. */
    readonly details: unknown = undefined,
  ) {
    super(message);
    this.name = 'StaffApiError';
  }
}

/** The JSON error body of the API (`{success:false, error, code?, fieldErrors?}`), as far as the pages read it. */
interface ErrorBody {
  error?: string;
  code?: string;
  fieldErrors?: Record<string, string>;
  errors?: unknown;
  duplicateOf?: unknown;
}

/**
 * Calls `url` with `init` and resolves with its JSON body as `T` (undefined for 202/204 without a body). A write without
 * a `json` body sends `{}`: the site's writes take a JSON object body, an empty one included (sign-out, a removal).
 * Rejects with a {@link StaffApiError}: the answer's status, code and message, or status 0 and
 * {@link STAFF_NETWORK_ERROR} when the request failed.
 */
export async function staffFetch<T>(url: string, init: ApiFetchInit = {}): Promise<T> {
  const write = !['GET', 'HEAD'].includes((init.method ?? 'GET').toUpperCase());
  let response: Response;
  try {
    response = await apiFetch(url, { ...init, json: init.json ?? (write ? {} : undefined) });
  } catch {
    throw new StaffApiError(STAFF_NETWORK_ERROR, 0, undefined);
  }
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (!response.ok) {
    const error = (body ?? {}) as ErrorBody;
    throw new StaffApiError(error.error ?? STAFF_NETWORK_ERROR, response.status, error.code, error.fieldErrors, error.errors ?? error.duplicateOf);
  }
  return body as T;
}

/** `path` with the non-empty entries of `query` as its query string: `/api/staff/audit?actor=a%40b.org`. */
export function withQuery(path: string, query: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value) params.set(key, value);
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}
