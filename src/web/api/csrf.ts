import { CSRF_COOKIE_NAME, CSRF_HTTPS_COOKIE_NAME } from '../../shared/api';

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

/**
 * The CSRF token the server set on the page, or null: the `__Host-XSRF-TOKEN` cookie when the site is served
 * over HTTPS (issue #4), else `XSRF-TOKEN` (issue #2). The `__Host-` one wins when both are present (a site
 * that moved to HTTPS), as only it cannot have been planted by another host.
 */
export function readCsrfToken(cookieString: string = document.cookie): string | null {
  return readCookie(CSRF_HTTPS_COOKIE_NAME, cookieString) ?? readCookie(CSRF_COOKIE_NAME, cookieString);
}
