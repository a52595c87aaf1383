import { CSRF_COOKIE_NAME } from '../../shared/api';

/**
 * The value of cookie `name` in `cookieString` (default: the page's cookies), or null when absent.
 * The value is URI-decoded, as cookie parsers (and the server's) read it; a malformed escape is
 * returned as is.
 */
export function readCookie(name: string, cookieString: string = document.cookie): string | null {
  for (const part of cookieString.split(';')) {
    const separator = part.indexOf('=');
    if (separator < 0) continue;
    if (part.slice(0, separator).trim() !== name) continue;
    const raw = part.slice(separator + 1).trim();
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  }
  return null;
}

/** The CSRF token the server set in the `XSRF-TOKEN` cookie on the page (issue #2), or null. */
export function readCsrfToken(): string | null {
  return readCookie(CSRF_COOKIE_NAME);
}
