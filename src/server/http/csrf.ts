import { randomBytes } from 'node:crypto';
import fastifyCookie, { type CookieSerializeOptions } from '@fastify/cookie';
import fastifyCsrf from '@fastify/csrf-protection';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { CSRF_COOKIE_NAME, CSRF_HEADER_NAME, CSRF_HTTPS_COOKIE_NAME, HOST_COOKIE_PREFIX } from '../../shared/api';
import { EMBED_TOKEN_HEADER } from '../../shared/embed-protocol';
import type { ServerConfig } from '../platform/config';
import { apiError, CSRF_FAILED_MESSAGE, FOREIGN_ORIGIN_MESSAGE } from './errors';
import { isMachineRoute } from './machine-routes';
import { EMBED_TOKEN_ROUTES, type EmbedTokens } from './embed-frame';

/**
 * Cross-site request forgery protection (spec section 7; issues #2 and #4; OWASP CSRF Prevention Cheat Sheet;
 * ASVS 5.0 section 3.5), built on @fastify/cookie and @fastify/csrf-protection, no hand-rolled crypto.
 * Every request other than GET/HEAD passes two checks, in `onRequest`, before its body is even read:
 * 1. where it comes from ({@link checkRequestSource}): a present `Origin` must be this site's own origin
 *    and a present `Sec-Fetch-Site` must be `same-origin` or `none`, else 403 {@link FOREIGN_ORIGIN_MESSAGE};
 * 2. the signed double-submit token: the page response sets the visitor's secret (httpOnly, signed with
 *    COOKIE_SECRET) and a token derived from that secret, readable by the page's script, which echoes it
 *    in the `X-XSRF-TOKEN` header; a missing or foreign token is 403 CSRF_FAILED_MESSAGE.
 * A framed page (issue #35) passes check 2 with its signed page token instead, on the donation routes only, with an
 * `Origin` header required (embed-frame.ts; decision 0105).
 * Both cookies are SameSite=Strict, path `/`, no Domain; over HTTPS they are Secure and named with the
 * `__Host-` prefix (a sibling subdomain or a network attacker cannot plant or overwrite them).
 * See docs/decisions/0031-csp-nonce-origin-checks-host-cookies.md.
 */

/** Name of the cookie holding the visitor's CSRF secret over plain HTTP (@fastify/csrf-protection's default). */
export const CSRF_SECRET_COOKIE_NAME = '_csrf';
/** Name of the visitor's CSRF secret cookie when served over HTTPS (`__Host-` prefix; issue #4). */
export const CSRF_HTTPS_SECRET_COOKIE_NAME = `${HOST_COOKIE_PREFIX}${CSRF_SECRET_COOKIE_NAME}`;

/** The names of the two CSRF cookies for one request. */
export interface CsrfCookieNames {
  /** The httpOnly, signed per-visitor secret. */
  secret: string;
  /** The token the page's script echoes in the X-XSRF-TOKEN header. */
  token: string;
}

/**
 * The CSRF cookie names for `request`: `__Host-_csrf` and `__Host-XSRF-TOKEN` when it came over HTTPS
 * (`request.protocol`, which honours X-Forwarded-Proto only with TRUST_PROXY), else `_csrf` and `XSRF-TOKEN`.
 * NOTE: browsers accept a `__Host-` cookie only with Secure, Path=/ and no Domain, so only over HTTPS.
 */
export function csrfCookieNames(request: Pick<FastifyRequest, 'protocol'>): CsrfCookieNames {
  return request.protocol === 'https'
    ? { secret: CSRF_HTTPS_SECRET_COOKIE_NAME, token: CSRF_HTTPS_COOKIE_NAME }
    : { secret: CSRF_SECRET_COOKIE_NAME, token: CSRF_COOKIE_NAME };
}

/** Methods that change nothing and so need no check (spec section 7: "Non-GET, non-HEAD ... requests"). */
const SAFE_METHODS = new Set(['GET', 'HEAD']);

/** `Sec-Fetch-Site` values of a request the site's own page (or the donor, typing a URL) made (W3C Fetch Metadata). */
const ALLOWED_FETCH_SITES = new Set(['same-origin', 'none']);

/** Why {@link checkRequestSource} refused a request (logged, never sent to the client). */
export type ForeignSourceReason = 'foreign-origin' | 'cross-site-fetch';

/** The headers and request facts {@link checkRequestSource} reads. */
export interface RequestSource {
  /** The `Origin` header, if any. */
  origin: string | undefined;
  /** The `Sec-Fetch-Site` header, if any. */
  secFetchSite: string | undefined;
  /** This request's own origin, e.g. `https://give.example.org` (from its protocol and Host). */
  ownOrigin: string;
}

/** `value` as a URL origin (`https://host[:port]`, default port dropped, host lower-cased), or null if it is not one. */
function toOrigin(value: string): string | null {
  try {
    const origin = new URL(value).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

/**
 * Decides whether a state-changing request comes from this site (OWASP CSRF Prevention Cheat Sheet, "Verifying
 * origin with standard headers" and "Fetch Metadata headers"; ASVS 5.0 section 3.5; issue #4). Returns null when
 * it may proceed, or the reason to refuse it:
 * - `foreign-origin`: `Origin` is present and is neither `ownOrigin` nor one of `allowedOrigins` (PUBLIC_URL's
 *   origin); `Origin: null` (sandboxed frames, privacy-redirected forms) counts as foreign;
 * - `cross-site-fetch`: `Sec-Fetch-Site` is present and is not `same-origin` or `none` (so `cross-site` and
 *   `same-site`: the page never calls the API from a sibling subdomain).
 * A request without either header (an old browser, curl) is left to the token check, which it must still pass.
 */
export function checkRequestSource(source: RequestSource, allowedOrigins: ReadonlySet<string>): ForeignSourceReason | null {
  if (source.origin !== undefined) {
    const origin = toOrigin(source.origin);
    if (origin === null || (origin !== toOrigin(source.ownOrigin) && !allowedOrigins.has(origin))) return 'foreign-origin';
  }
  if (source.secFetchSite !== undefined && !ALLOWED_FETCH_SITES.has(source.secFetchSite.toLowerCase())) {
    return 'cross-site-fetch';
  }
  return null;
}

const headerValue = (value: string | string[] | undefined) => (Array.isArray(value) ? value.join(',') : value);

/** Options of the secret cookie. NOTE: @fastify/csrf-protection replaces its defaults with these entirely. */
const SECRET_COOKIE_OPTIONS = { path: '/', sameSite: 'strict', httpOnly: true, signed: true } as const;

/**
 * Registers the cookie and CSRF plugins and the `onRequest` hooks that check every non-GET/HEAD request,
 * whatever its path (see the module comment): first where it comes from, then its token.
 * NOTE: the spec asks this for `/api` requests; checking every path is stricter and costs nothing, as the
 * site has no other state-changing endpoint. Over HTTPS only the `__Host-` secret cookie counts.
 * A foreign source answers 403 FOREIGN_ORIGIN_MESSAGE; a failed token check answers 403 through the app's
 * error handler (codes FST_CSRF_MISSING_SECRET / FST_CSRF_INVALID_TOKEN). Machine routes (webhooks, operator
 * actions: see isMachineRoute) are not checked: their own signature or bearer token authenticates them.
 */
export async function registerCsrfProtection(
  app: FastifyInstance,
  config: Pick<ServerConfig, 'cookieSecret' | 'site'>,
  embedTokens?: EmbedTokens,
): Promise<void> {
  await app.register(fastifyCookie, { secret: config.cookieSecret });
  await app.register(fastifyCsrf, {
    // NOTE: the plugin reads the secret from this cookie; the hook below puts the right one there (see csrfCookieNames).
    cookieKey: CSRF_SECRET_COOKIE_NAME,
    cookieOpts: SECRET_COOKIE_OPTIONS,
    // Only the custom header counts (not a body field): a cross-site form cannot set headers.
    getToken: (request) => {
      const token = request.headers[CSRF_HEADER_NAME.toLowerCase()];
      return typeof token === 'string' ? token : undefined;
    },
  });

  // Over HTTPS the plugin must see the __Host- secret only: a plain `_csrf` cookie may have been planted
  // by a sibling subdomain or over HTTP, which is what the prefix defends against.
  app.addHook('onRequest', (request, _reply, done) => {
    if (request.protocol === 'https') {
      const hostSecret = request.cookies[CSRF_HTTPS_SECRET_COOKIE_NAME];
      if (hostSecret === undefined) delete request.cookies[CSRF_SECRET_COOKIE_NAME];
      else request.cookies[CSRF_SECRET_COOKIE_NAME] = hostSecret;
    }
    done();
  });

  const allowedOrigins = new Set([new URL(config.site.publicUrl).origin]);
  app.addHook('onRequest', (request, reply, done) => {
    // NOTE: webhooks and operator routes prove themselves with a signature or a bearer token instead (machine-routes.ts).
    if (SAFE_METHODS.has(request.method) || isMachineRoute(request.url)) {
      done();
      return;
    }
    const reason = checkRequestSource(
      {
        origin: headerValue(request.headers.origin),
        secFetchSite: headerValue(request.headers['sec-fetch-site']),
        ownOrigin: `${request.protocol}://${request.host}`,
      },
      allowedOrigins,
    );
    if (reason !== null) {
      // NOTE: the Origin is logged (it is not donor data) so an operator can see where forged requests come from.
      request.log.warn({ reason, origin: request.headers.origin, secFetchSite: request.headers['sec-fetch-site'] }, 'Request from a foreign site refused');
      reply.code(403).send(apiError(FOREIGN_ORIGIN_MESSAGE));
      return;
    }
    // A framed page on another site (issue #35; decision 0105) gets no SameSite cookie: on the donation routes its
    // signed page token stands in for the cookie pair, with an Origin that must be present (and, checked above, our own).
    const embedToken = headerValue(request.headers[EMBED_TOKEN_HEADER.toLowerCase()]);
    if (embedTokens !== undefined && embedToken !== undefined && EMBED_TOKEN_ROUTES.has(request.url.split('?', 1)[0] ?? '')) {
      if (request.headers.origin !== undefined && embedTokens.verify(embedToken)) {
        done();
        return;
      }
      request.log.warn({ origin: request.headers.origin }, 'Framed page token refused');
      reply.code(403).send(apiError(CSRF_FAILED_MESSAGE));
      return;
    }
    app.csrfProtection(request, reply, done);
  });
}

/**
 * Sets the visitor's CSRF cookies on a page (HTML) response (issue #2: "the server sets an XSRF-TOKEN cookie
 * on the page (HTML) response itself"): the secret cookie, created only if the visitor has no valid one yet,
 * and a fresh token for the page to echo. Names from {@link csrfCookieNames}; SameSite=Strict, Path=/, no
 * Domain; Secure over HTTPS (issue #4).
 */
export function issueCsrfCookies(request: FastifyRequest, reply: FastifyReply): void {
  const names = csrfCookieNames(request);
  const secure = request.protocol === 'https';
  const signedSecret = request.cookies[CSRF_SECRET_COOKIE_NAME];
  if (signedSecret === undefined || !reply.unsignCookie(signedSecret).valid) {
    // NOTE: the secret is made here rather than by the plugin, which can only set a cookie of one fixed name;
    // 18 random bytes, base64url, as @fastify/csrf's own secretSync.
    const secret = randomBytes(18).toString('base64url');
    const options: CookieSerializeOptions = { ...SECRET_COOKIE_OPTIONS, secure };
    reply.setCookie(names.secret, secret, options);
    request.cookies[CSRF_SECRET_COOKIE_NAME] = reply.signCookie(secret);
  }
  const token = reply.generateCsrf();
  reply.setCookie(names.token, token, { path: '/', sameSite: 'strict', httpOnly: false, secure });
}
