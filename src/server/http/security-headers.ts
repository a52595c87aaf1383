import { randomBytes, randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { CSP_NONCE_META_PROPERTY } from '../../shared/csp';

/**
 * Response headers of every answer (issue #4, "Headers"; ASVS 5.0 section 3.4; OWASP HTTP Headers Cheat Sheet),
 * set by @fastify/helmet in `onRequest`, so they are on pages, assets, API answers and every error answer alike:
 * - a Content-Security-Policy ({@link cspDirectives}) with a fresh nonce per response for `<style>` (MUI's
 *   emotion inserts style tags at run time) and `<script>` elements; the page carries the same nonce
 *   ({@link prepareNoncedPage});
 * - Strict-Transport-Security for a year, with subdomains, only on answers to HTTPS requests;
 * - Referrer-Policy `strict-origin-when-cross-origin`, a Permissions-Policy turning off every powerful
 *   feature ({@link PERMISSIONS_POLICY}), X-Content-Type-Options `nosniff`, X-Frame-Options `DENY`, and the
 *   rest of helmet's defaults (Cross-Origin-Opener-Policy, Cross-Origin-Resource-Policy...);
 * - `Cache-Control: no-store` on every /api answer, errors included.
 * See docs/decisions/0031-csp-nonce-origin-checks-host-cookies.md for the choices.
 */

/** HSTS value on HTTPS answers: a year, subdomains included (issue #4: "at least a year"). No `preload`: that is a deployment's choice. */
export const HSTS_VALUE = 'max-age=31536000; includeSubDomains';

/**
 * Permissions-Policy: every powerful feature off, for this page and any frame (the site uses none of them;
 * issue #4). `payment` is the Payment Request API, which the site does not use (cards go through its own form).
 * NOTE: only features Chromium knows: an unknown one (`interest-cohort`, FLoC, retired) is logged as an error.
 */
const POWERFUL_FEATURES = [
  'accelerometer',
  'autoplay',
  'browsing-topics',
  'camera',
  'display-capture',
  'encrypted-media',
  'fullscreen',
  'geolocation',
  'gyroscope',
  'hid',
  'idle-detection',
  'magnetometer',
  'microphone',
  'midi',
  'payment',
  'picture-in-picture',
  'publickey-credentials-get',
  'screen-wake-lock',
  'serial',
  'usb',
  'xr-spatial-tracking',
] as const;
export const PERMISSIONS_POLICY = POWERFUL_FEATURES.map((feature) => `${feature}=()`).join(', ');

/**
 * The Permissions-Policy of the staff pages (issue #21): the same, except that the page itself (never a frame) may ask
 * for a passkey (`publickey-credentials-get=(self)`; WebAuthn Level 3, section 5.9): "Sign in with a passkey" and the
 * refund's re-confirmation call navigator.credentials.get(). Creating one (`publickey-credentials-create`) is not in
 * the list, so its default, the page's own origin, stands.
 */
export const STAFF_PAGE_PERMISSIONS_POLICY = POWERFUL_FEATURES.map((feature) =>
  feature === 'publickey-credentials-get' ? `${feature}=(self)` : `${feature}=()`,
).join(', ');

/**
 * The Permissions-Policy of a framed donation page in Stripe mode (issue #35: Apple Pay and Google Pay inside a frame):
 * the same, except that the page and Stripe.js's frames (`stripeOrigins`) may use the Payment Request API
 * (`payment=(self "https://js.stripe.com" ...)`; W3C Payment Request API, section 13; the host's `<iframe allow="payment">`
 * delegates it to our frame, this lets it on to Stripe's).
 */
export function framedPagePermissionsPolicy(stripeOrigins: readonly string[]): string {
  const allowed = ['self', ...stripeOrigins.map((origin) => `"${origin}"`)].join(' ');
  return POWERFUL_FEATURES.map((feature) => (feature === 'payment' ? `${feature}=(${allowed})` : `${feature}=()`)).join(', ');
}

/** Referrer-Policy: other sites (share targets, the organisation's site) see this site's origin only, never a path. */
export const REFERRER_POLICY = 'strict-origin-when-cross-origin';

/** Bytes of randomness in a CSP nonce (128 bits: CSP Level 3 asks for at least 128). */
const NONCE_BYTES = 16;

/** The nonce of each response in flight, keyed by Node's response object (which helmet's directive functions receive). */
const nonces = new WeakMap<ServerResponse, string>();

/** A fresh CSP nonce: 16 random bytes, base64 (CSP Level 3 "nonce-source"; issue #4). */
export function createCspNonce(): string {
  return randomBytes(NONCE_BYTES).toString('base64');
}

/** The CSP nonce of `reply`'s response (the one in its Content-Security-Policy header). Throws if the hook did not run. */
export function cspNonce(reply: FastifyReply): string {
  const nonce = nonces.get(reply.raw);
  if (nonce === undefined) throw new Error('No CSP nonce for this response: registerSecurityHeaders was not registered');
  return nonce;
}

const nonceSource = (_request: unknown, response: ServerResponse) => `'nonce-${nonces.get(response) ?? ''}'`;

/**
 * The CSP directives, in helmet's form (issue #4; ASVS 5.0 section 3.4; MUI's "Content Security Policy" guide):
 * - `default-src 'self'`, `connect-src 'self'` (the API), `img-src 'self'` (the favicon; no `data:` image is
 *   used), `font-src 'self'` (system fonts only), `object-src 'none'`, `base-uri 'none'`, `form-action 'self'`,
 *   `frame-ancestors 'none'` (no framing of the payment page);
 * - `script-src 'self' 'nonce-…'`: the built bundles; an inline script only if the page itself carries it
 *   with this response's nonce; no `unsafe-inline`, no `unsafe-eval`; `script-src-attr 'none'` (no handlers);
 * - `style-src 'self' 'nonce-…'`: emotion's `<style>` elements carry the nonce (src/web/emotion-cache.ts);
 * - `style-src-attr 'unsafe-inline'`: the pre-rendered page holds `style="…"` attributes written by React
 *   (MUI transitions, icons). NOTE: attributes cannot carry a nonce; an injected attribute could restyle one
 *   element, but cannot read the page or load anything (no selectors, and img/font/connect stay 'self').
 */
export function cspDirectives(stripe?: StripeCspSources): Record<string, Array<string | typeof nonceSource>> {
  const directives: Record<string, Array<string | typeof nonceSource>> = {
    'default-src': ["'self'"],
    'base-uri': ["'none'"],
    'object-src': ["'none'"],
    'frame-ancestors': ["'none'"],
    'form-action': ["'self'"],
    'script-src': ["'self'", nonceSource],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'", nonceSource],
    'style-src-attr': ["'unsafe-inline'"],
    'connect-src': ["'self'"],
    'img-src': ["'self'"],
    'font-src': ["'self'"],
    'manifest-src': ["'self'"],
    'worker-src': ["'none'"],
  };
  if (!stripe) return directives;
  // Stripe mode only (issue #11): the hosts Stripe documents for Elements, plus the stand-ins' origins in tests.
  const standIns = [stripe.jsUrl, stripe.apiUrl].filter((url): url is string => url !== undefined).map((url) => new URL(url).origin);
  const extra = (hosts: readonly string[]) => [...new Set([...hosts, ...standIns.filter((origin) => !hosts.includes(origin))])];
  return {
    ...directives,
    'script-src': [...(directives['script-src'] ?? []), ...extra(STRIPE_CSP_HOSTS.script)],
    'frame-src': extra(STRIPE_CSP_HOSTS.frame),
    'connect-src': ["'self'", ...extra(STRIPE_CSP_HOSTS.connect)],
  };
}

/**
 * Stripe's hosts for Stripe.js and the Payment Element (Stripe, "Security at Stripe", Content Security Policy:
 * https://docs.stripe.com/security/guide#content-security-policy), by directive.
 */
export const STRIPE_CSP_HOSTS = {
  script: ['https://js.stripe.com', 'https://*.js.stripe.com'],
  frame: ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com'],
  connect: ['https://api.stripe.com'],
} as const;

/** Where Stripe.js and Stripe's API are in Stripe mode: Stripe's own hosts, or the stand-ins' addresses in tests. */
export interface StripeCspSources {
  /** STRIPE_JS_URL. */
  jsUrl: string;
  /** STRIPE_API_URL, when set (tests). */
  apiUrl?: string;
}

/** Whether a URL is under the API (`/api`, `/api/...`, `/api?...`). */
export function isApiUrl(url: string): boolean {
  return /^\/api(?:[/?#]|$)/.test(url);
}

/**
 * Registers the security headers of every response (see the module comment), with Stripe's hosts in the CSP
 * when `stripe` is given (Stripe mode, issue #11). Call it before any plugin
 * whose `onRequest` hook may answer (CSRF checks, rate limits), so refusals carry the headers too.
 */
export async function registerSecurityHeaders(app: FastifyInstance, stripe?: StripeCspSources): Promise<void> {
  // NOTE: before helmet's own hook, whose CSP directive functions read the nonce.
  app.addHook('onRequest', (request, reply, done) => {
    nonces.set(reply.raw, createCspNonce());
    reply.header('permissions-policy', PERMISSIONS_POLICY);
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS_VALUE);
    done();
  });
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: { useDefaults: false, directives: cspDirectives(stripe) },
    // Set above, on HTTPS answers only (a browser ignores it over HTTP, and it would pin localhost).
    strictTransportSecurity: false,
    referrerPolicy: { policy: REFERRER_POLICY },
    frameguard: { action: 'deny' },
  });
  app.addHook('onSend', async (request, reply) => {
    // API answers hold donor data (name, transaction id): never cached, errors included. NOTE: but for an answer its route
    // made public on purpose (a campaign's public figures, issue #34), which holds none.
    if (isApiUrl(request.url) && !String(reply.getHeader('cache-control') ?? '').startsWith('public')) reply.header('cache-control', 'no-store');
  });
}

/** A page whose `<script>` and `<style>` tags and CSP meta tag get a nonce per response, cheaply. */
export interface NoncedPage {
  /** The page with `nonce` on every `<script>`/`<style>` tag and in `<meta property="csp-nonce">`. */
  render(nonce: string): string;
}

/**
 * Prepares `html` once for per-response nonces (issue #4): adds `<meta property="csp-nonce" nonce="…">` first
 * in `<head>` (or first in the page without one; Vite's convention; read by src/web/emotion-cache.ts) and a `nonce` attribute to every
 * `<script` and `<style` start tag (including pre-rendered emotion `<style data-emotion>` tags), then splits the
 * page at those places so {@link NoncedPage.render} only joins strings. A tag that already has a nonce keeps
 * a single one (the old value is dropped). A nonce must be base64 (it is put in double-quoted attributes as is).
 */
export function prepareNoncedPage(html: string): NoncedPage {
  let marker = `nonce-${randomUUID()}`;
  while (html.includes(marker)) marker = `nonce-${randomUUID()}`;
  const meta = `<meta property="${CSP_NONCE_META_PROPERTY}" nonce="${marker}">`;
  const headStart = /<head\b[^>]*>/i.exec(html);
  const at = headStart ? headStart.index + headStart[0].length : 0;
  const withMeta = `${html.slice(0, at)}${meta}${html.slice(at)}`;
  const marked = withMeta.replace(/<(script|style)\b([^>]*)>/gi, (_tag, name: string, attributes: string) => {
    const rest = attributes.replace(/\snonce\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]+)/gi, '');
    return `<${name} nonce="${marker}"${rest}>`;
  });
  const parts = marked.split(marker);
  return {
    render(nonce) {
      if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(nonce)) throw new Error('A CSP nonce must be base64');
      return parts.join(nonce);
    },
  };
}
