import Tokens from '@fastify/csrf';
import type { FastifyReply } from 'fastify';
import { API_PATHS } from '../../shared/api';
import { EMBED_PATH_PREFIX } from '../../shared/embed-path-prefix';
import { deriveKey } from '../platform/derived-key';

/**
 * The framed donation pages (issue #35; decisions 0104 and 0105): who may frame them, and the CSRF defence of the flow
 * inside a frame on another site, where no SameSite cookie is sent (and Safari, or a browser blocking third-party
 * cookies, keeps none at all).
 * - A framed page (`/embed/donate`, `/embed/es/donate/form`...) answers `Content-Security-Policy: frame-ancestors 'self'
 *   <EMBED_ORIGINS>` and no X-Frame-Options ({@link frameHeadersOf}); every other answer keeps `frame-ancestors 'none'`
 *   and `X-Frame-Options: DENY` (security-headers.ts).
 * - It carries a per-page token ({@link EmbedTokens}): signed with a key derived from COOKIE_SECRET, valid
 *   {@link EMBED_TOKEN_VALIDITY_MS}, bound to no cookie. The page echoes it in `X-Embed-Token` (EMBED_TOKEN_HEADER); the CSRF hook
 *   (csrf.ts) accepts it in place of the cookie pair only on the donation routes ({@link EMBED_TOKEN_ROUTES}), and only
 *   together with an `Origin` header that is the site's own (a custom header cannot be sent cross-site without a CORS
 *   preflight, which the site never grants: OWASP CSRF Prevention Cheat Sheet, "Custom request headers" and "Verifying
 *   origin with standard headers").
 */


/** How long a framed page's token is valid, in ms: a donor who leaves the form open longer reloads (decision 0105). */
export const EMBED_TOKEN_VALIDITY_MS = 4 * 60 * 60 * 1000;

/** The routes a framed page's token may call: the donation's own (the test gateway's, and Stripe mode's two). */
export const EMBED_TOKEN_ROUTES: ReadonlySet<string> = new Set([API_PATHS.processDonation, API_PATHS.createPaymentIntent, API_PATHS.confirmDonation]);


/** True when the request path `pathname` (no query) is a framed page: `/embed` followed by one of the site's page paths. */
export function isEmbedPagePath(pathname: string): boolean {
  return pathname.startsWith(`${EMBED_PATH_PREFIX}/`);
}

/** Issues and checks framed pages' tokens (decision 0105), with @fastify/csrf's time-limited tokens. */
export interface EmbedTokens {
  /** A fresh token for one framed page. */
  create(): string;
  /** True when `token` was made by {@link create} with this server's secret less than EMBED_TOKEN_VALIDITY_MS ago. */
  verify(token: string): boolean;
}

/**
 * Framed pages' tokens signed with a key derived from `cookieSecret` (label `embed-page-token`, so no other use shares
 * it), valid `validityMs` (default {@link EMBED_TOKEN_VALIDITY_MS}).
 */
export function createEmbedTokens(cookieSecret: string, validityMs = EMBED_TOKEN_VALIDITY_MS): EmbedTokens {
  const tokens = new Tokens({ validity: validityMs });
  const secret = deriveKey(cookieSecret, 'embed-page-token').toString('base64url');
  return {
    create: () => tokens.create(secret),
    verify: (token) => {
      try {
        return tokens.verify(secret, token);
      } catch {
        return false;
      }
    },
  };
}

/**
 * The `frame-ancestors` source list of a framed page: `'self'` and each of `embedOrigins` (EMBED_ORIGINS; CSP Level 3,
 * section 6.4.2; OWASP Clickjacking Defense Cheat Sheet: only the listed origins).
 */
export function frameAncestors(embedOrigins: readonly string[]): string {
  return ["'self'", ...embedOrigins].join(' ');
}

/**
 * Sets the framing headers of a framed page on `reply`, whose security headers helmet already set: the CSP's
 * `frame-ancestors 'none'` becomes {@link frameAncestors}, X-Frame-Options is removed (it cannot name origins, and a
 * browser that knows CSP ignores it anyway), and the page is not stored (its token is its own).
 * `paymentPolicy`, when given, replaces the Permissions-Policy (Stripe mode: the Payment Element's frame may use the
 * Payment Request API for Apple Pay and Google Pay).
 */
export function frameHeadersOf(reply: FastifyReply, embedOrigins: readonly string[], permissionsPolicy?: string): void {
  const csp = String(reply.getHeader('content-security-policy') ?? '');
  reply.header('content-security-policy', csp.replace(/frame-ancestors [^;]*/, `frame-ancestors ${frameAncestors(embedOrigins)}`));
  reply.removeHeader('x-frame-options');
  reply.header('cache-control', 'no-store');
  if (permissionsPolicy !== undefined) reply.header('permissions-policy', permissionsPolicy);
}

/**
 * Lets a page of an EMBED_ORIGINS origin read this GET answer from its own script (CORS, Fetch standard section 3.2.5;
 * issue #35: the goal bar and embed.js's check): `Access-Control-Allow-Origin: <that origin>` when the request's
 * `Origin` is listed, nothing otherwise (the browser then withholds the answer), and `Vary: Origin` always, so a cache
 * never serves one origin's answer to another. No credentials: the answers read are public figures.
 * NOTE: a few headers on three public GET routes, rather than @fastify/cors on the whole app, whose every other route
 * must stay same-origin.
 */
export function allowEmbedOrigin(origin: string | undefined, reply: FastifyReply, embedOrigins: readonly string[]): boolean {
  reply.header('vary', 'Origin');
  if (origin === undefined || !embedOrigins.includes(origin)) return false;
  reply.header('access-control-allow-origin', origin);
  return true;
}
