import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { API_PATHS, CSRF_HEADER_NAME } from '../../shared/api';
import { BODY_LIMIT_BYTES } from '../app';
import { createCspNonce, HSTS_VALUE, isApiUrl, PERMISSIONS_POLICY, prepareNoncedPage, REFERRER_POLICY } from './security-headers';
import { faultyDatabase, type FaultyDatabase } from '../testing/faulty-database';
import { createTestApp, validSubmission, type CsrfCredentials, type TestApp } from '../testing/test-app';

/**
 * Security headers on every kind of answer (issue #4, "Headers"; ASVS 5.0 section 3.4; OWASP HTTP Headers
 * Cheat Sheet): the page, an asset, API answers, and 403, 404, 413, 415 and 500 answers; the 404, 413 and 500
 * answers over plain HTTP and over HTTPS (behind the trusted proxy), with HSTS only on the latter.
 */

/** A built page as the pre-render writes it: a module script, a modulepreload and emotion's critical CSS. */
const PAGE_HTML = [
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test site</title>',
  '<script type="module" crossorigin src="/assets/index-abc123.js"></script>',
  '<link rel="modulepreload" crossorigin href="/assets/chunk-def456.js">',
  '<style data-emotion="css-global 0">body{margin:0}</style><style data-emotion="css 1x2y3z">.css-1x2y3z{color:red}</style>',
  '</head><body><div id="root"><p style="opacity:0">Hi</p></div></body></html>',
].join('');
const ASSET = 'assets/index-abc123.js';

/** The policy of issue #4, with `NONCE` standing for the response's nonce. */
const EXPECTED_CSP =
  "default-src 'self';base-uri 'none';object-src 'none';frame-ancestors 'none';form-action 'self';" +
  "script-src 'self' 'nonce-NONCE';script-src-attr 'none';style-src 'self' 'nonce-NONCE';style-src-attr 'unsafe-inline';" +
  "connect-src 'self';img-src 'self';font-src 'self';manifest-src 'self';worker-src 'none'";

let t: TestApp;
let faults: FaultyDatabase;
let csrf: CsrfCredentials;
beforeAll(async () => {
  t = await createTestApp({
    env: { TRUST_PROXY: 'true' },
    indexHtml: PAGE_HTML,
    files: { [ASSET]: 'console.log("reef")' },
    database: (handle) => {
      faults = faultyDatabase(handle);
      return faults.db;
    },
  });
  csrf = await t.csrf();
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  faults.down = false;
  await t.reset();
});

/** The nonce in a response's Content-Security-Policy (the same in script-src and style-src), checked against the policy. */
function nonceOf(response: LightMyRequestResponse): string {
  const csp = String(response.headers['content-security-policy']);
  const nonce = /'nonce-([^']+)'/.exec(csp)?.[1] ?? '';
  expect(csp).toBe(EXPECTED_CSP.replaceAll('NONCE', nonce));
  return nonce;
}

/** The header by which the trusted proxy (TRUST_PROXY=true) says a request came over HTTPS. */
const OVER_HTTPS = { 'x-forwarded-proto': 'https' } as const;

/** How a request reaches the app: plain HTTP, or HTTPS through the trusted proxy; `headers` say which. */
const TRANSPORTS = [
  { name: 'HTTP', headers: {}, https: false },
  { name: 'HTTPS', headers: OVER_HTTPS, https: true },
] as const;

/** Asserts the headers every answer carries, HSTS only when it was served over HTTPS (`https`). */
function expectSecurityHeaders(response: LightMyRequestResponse, https = false) {
  nonceOf(response);
  expect(response.headers).toMatchObject({
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': REFERRER_POLICY,
    'permissions-policy': PERMISSIONS_POLICY,
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
  });
  expect(response.headers['strict-transport-security']).toBe(https ? HSTS_VALUE : undefined);
  expect(response.headers['x-powered-by']).toBeUndefined();
}

/** Asserts the security headers (HSTS when `https`) and `Cache-Control: no-store` of an API answer with `statusCode`. */
function expectApiAnswer(response: LightMyRequestResponse, statusCode: number, https = false) {
  expect(response.statusCode).toBe(statusCode);
  expectSecurityHeaders(response, https);
  expect(response.headers['cache-control']).toBe('no-store');
  expect(response.headers['content-type']).toMatch(/^application\/json/);
}

/** POSTs `payload` as JSON to the donation route with `credentials` (those of a page loaded over HTTP by default). */
const post = (payload: string, headers: Record<string, string> = {}, credentials: CsrfCredentials = csrf) =>
  t.app.inject({
    method: 'POST',
    url: API_PATHS.processDonation,
    headers: { cookie: credentials.cookie, [CSRF_HEADER_NAME]: credentials.token, 'content-type': 'application/json', ...headers },
    payload,
  });

describe('the exact header values', () => {
  it('Permissions-Policy turns every powerful feature off, Payment Request API included', () => {
    expect(PERMISSIONS_POLICY).toMatch(/^([a-z-]+=\(\))(, [a-z-]+=\(\))*$/);
    for (const feature of ['camera', 'microphone', 'geolocation', 'payment', 'usb', 'browsing-topics']) {
      expect(PERMISSIONS_POLICY).toContain(`${feature}=()`);
    }
  });

  it('HSTS lasts at least a year and covers subdomains', () => {
    expect(HSTS_VALUE).toBe('max-age=31536000; includeSubDomains');
  });
});

describe('the page', () => {
  it.each(['/es/donate', '/donate', '/donate/form'])('GET %s carries every header, and its nonce on each <script> and <style>', async (url) => {
    const response = await t.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(200);
    expectSecurityHeaders(response);
    expect(response.headers['cache-control']).toBe('no-cache');
    const nonce = nonceOf(response);
    expect(Buffer.from(nonce, 'base64')).toHaveLength(16);

    const html = response.body;
    expect(html).toContain(`<head><meta property="csp-nonce" nonce="${nonce}">`);
    const tags = html.match(/<(script|style)\b[^>]*>/g) ?? [];
    expect(tags).toHaveLength(3);
    for (const tag of tags) expect(tag).toContain(` nonce="${nonce}"`);
    expect(html).toContain(`<style nonce="${nonce}" data-emotion="css 1x2y3z">.css-1x2y3z{color:red}</style>`);
    expect(html).toContain('<link rel="modulepreload" crossorigin href="/assets/chunk-def456.js">');
    expect(html).toContain('<p style="opacity:0">Hi</p>');
  });

  it('gets a fresh nonce on every response', async () => {
    const nonces = new Set<string>();
    for (let i = 0; i < 20; i += 1) nonces.add(nonceOf(await t.app.inject({ method: 'GET', url: '/donate' })));
    expect(nonces.size).toBe(20);
  });

  it('answers HSTS only over HTTPS, and only when the proxy is trusted', async () => {
    const https = await t.app.inject({ method: 'GET', url: '/', headers: OVER_HTTPS });
    expect(https.headers['strict-transport-security']).toBe(HSTS_VALUE);
    const plain = await t.app.inject({ method: 'GET', url: '/' });
    expect(plain.headers['strict-transport-security']).toBeUndefined();

    const untrusting = await createTestApp({ indexHtml: PAGE_HTML });
    try {
      const spoofed = await untrusting.app.inject({ method: 'GET', url: '/', headers: OVER_HTTPS });
      expect(spoofed.headers['strict-transport-security']).toBeUndefined();
    } finally {
      await untrusting.close();
    }
  });
});

describe('static files', () => {
  it('an asset carries every header and keeps its year-long cache', async () => {
    const response = await t.app.inject({ method: 'GET', url: `/${ASSET}` });
    expect(response.statusCode).toBe(200);
    expectSecurityHeaders(response);
    expect(response.headers['cache-control']).toMatch(/max-age=31536000/);
  });
});

describe('API answers: every header and Cache-Control: no-store, whatever the status', () => {
  it('200 stats', async () => {
    expectApiAnswer(await t.app.inject({ method: 'GET', url: API_PATHS.donationStats }), 200);
  });

  it('200 donation, and HSTS on it over HTTPS', async () => {
    expectApiAnswer(await post(JSON.stringify(validSubmission())), 200);
    const https = await t.app.inject({ method: 'GET', url: API_PATHS.donationStats, headers: OVER_HTTPS });
    expect(https.headers['strict-transport-security']).toBe(HSTS_VALUE);
    expect(https.headers['cache-control']).toBe('no-store');
  });

  it('400 invalid input', async () => {
    expectApiAnswer(await post('{"amount": '), 400);
  });

  it('403 CSRF and 403 foreign origin', async () => {
    expectApiAnswer(await post(JSON.stringify(validSubmission()), { [CSRF_HEADER_NAME]: 'wrong' }), 403);
    expectApiAnswer(await post(JSON.stringify(validSubmission()), { 'sec-fetch-site': 'cross-site' }), 403);
  });

  it('415 text/plain body', async () => {
    expectApiAnswer(await post('{}', { 'content-type': 'text/plain' }), 415);
  });
});

describe.each(TRANSPORTS)('404, 413 and 500 over $name: every header, HSTS only over HTTPS', ({ headers, https }) => {
  // The CSRF cookies of a page loaded the same way (`__Host-` ones over HTTPS), or the POST is refused first.
  let credentials: CsrfCredentials;
  beforeAll(async () => {
    credentials = await t.csrf(headers);
  });

  it('a missing file: 404', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/assets/missing-123.js', headers });
    expect(response.statusCode).toBe(404);
    expectSecurityHeaders(response, https);
  });

  it.each(['/api/nope', '/api', '/api?x=1', '/api/donations'])('404 unknown API path %s', async (url) => {
    expectApiAnswer(await t.app.inject({ method: 'GET', url, headers }), 404, https);
  });

  it('413 body over the limit', async () => {
    const tooLarge = JSON.stringify(validSubmission({ message: 'x'.repeat(BODY_LIMIT_BYTES) }));
    expectApiAnswer(await post(tooLarge, headers, credentials), 413, https);
  });

  it('500 when the database fails under the stats', async () => {
    faults.down = true;
    expectApiAnswer(await t.app.inject({ method: 'GET', url: API_PATHS.donationStats, headers }), 500, https);
  });
});

describe('prepareNoncedPage', () => {
  it('puts the nonce on every <script>/<style> start tag and in the meta tag, and nowhere else', () => {
    const page = prepareNoncedPage('<html><head><SCRIPT src="/a.js"></SCRIPT><style>a{}</style></head><body><scripts-list></scripts-list></body></html>');
    expect(page.render('abc+/=')).toBe(
      '<html><head><meta property="csp-nonce" nonce="abc+/="><SCRIPT nonce="abc+/=" src="/a.js"></SCRIPT><style nonce="abc+/=">a{}</style></head>' +
        '<body><scripts-list></scripts-list></body></html>',
    );
  });

  it('replaces a nonce a tag already had, and works on a page without <head>', () => {
    const page = prepareNoncedPage(`<style nonce="old" data-x='1'>a{}</style><script nonce='old2'></script>`);
    expect(page.render('n1')).toBe(
      `<meta property="csp-nonce" nonce="n1"><style nonce="n1" data-x='1'>a{}</style><script nonce="n1"></script>`,
    );
    expect(page.render('n2')).toContain('<style nonce="n2"');
  });

  it('refuses a nonce that is not base64 (it goes into HTML attributes as is)', () => {
    expect(() => prepareNoncedPage('<style></style>').render('"><script>')).toThrow(/base64/);
  });

  it('createCspNonce: 128 random bits, base64', () => {
    const nonce = createCspNonce();
    expect(Buffer.from(nonce, 'base64')).toHaveLength(16);
    expect(createCspNonce()).not.toBe(nonce);
  });
});

describe('isApiUrl', () => {
  it.each([
    ['/api', true],
    ['/api/process-donation', true],
    ['/api?x=1', true],
    ['/apis', false],
    ['/donate/api', false],
    ['/', false],
  ])('%s → %s', (url, expected) => {
    expect(isApiUrl(url)).toBe(expected);
  });
});
