import { CSRF_HEADER_NAME } from '../../shared/api';
import { EMBED_TOKEN_HEADER } from '../../shared/embed-protocol';
import { embedPageToken } from '../embed/frame/embed-frame';
import { readCsrfToken } from './csrf';

/** Methods that change nothing on the server and so carry no CSRF header (spec section 7). */
const SAFE_METHODS = new Set(['GET', 'HEAD']);

/**
 * True for a relative URL (`/api/...`, `api/...`): one with no scheme and not protocol-relative (`//host`).
 * Only those get the CSRF token, so it never leaks to another site (spec section 7, issue #2).
 */
export function isRelativeUrl(url: string): boolean {
  return !/^([a-z][a-z\d+.-]*:|[\\/]{2})/i.test(url);
}

/** Options of {@link apiFetch}: `fetch`'s, plus `json`, a value sent as the JSON body. */
export interface ApiFetchInit extends Omit<RequestInit, 'body'> {
  json?: unknown;
}

/**
 * `fetch` for the site's API. For a relative URL and a method other than GET/HEAD it echoes the
 * `XSRF-TOKEN` cookie's value in the `X-XSRF-TOKEN` header (spec section 7; issue #2: signed
 * double-submit), and on a framed page its page token in `X-Embed-Token` (issue #35). `json` is serialised as the body with `Content-Type: application/json`.
 * Returns the Response whatever its status; network failures reject as `fetch` does.
 */
export function apiFetch(url: string, { json, headers: initHeaders, ...init }: ApiFetchInit = {}): Promise<Response> {
  const method = (init.method ?? 'GET').toUpperCase();
  const headers = new Headers(initHeaders);
  headers.set('Accept', 'application/json');
  if (!SAFE_METHODS.has(method) && isRelativeUrl(url)) {
    const token = readCsrfToken();
    if (token !== null) headers.set(CSRF_HEADER_NAME, token);
    // A framed page on another site has no cookie: its page token instead (issue #35; decision 0105).
    const embedToken = embedPageToken();
    if (embedToken !== null) headers.set(EMBED_TOKEN_HEADER, embedToken);
  }
  let body: BodyInit | undefined;
  if (json !== undefined) {
    headers.set('Content-Type', 'application/json');
    body = JSON.stringify(json);
  }
  return fetch(url, { credentials: 'same-origin', ...init, method, headers, body });
}
