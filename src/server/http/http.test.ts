import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { API_PATHS, ApiErrorSchema, CSRF_COOKIE_NAME, CSRF_HEADER_NAME } from '../../shared/api';
import { SITE_CONFIG_META_NAME, SiteConfigSchema } from '../../shared/site-config';
import { PATHS } from '../../shared/site-paths';
import { BODY_LIMIT_BYTES, buildApp } from '../app';
import { loadConfig } from '../platform/config';
import { CSRF_SECRET_COOKIE_NAME } from './csrf';
import { donations } from '../db/schema';
import {
  INVALID_JSON_MESSAGE,
  NOT_FOUND_MESSAGE,
  PAYLOAD_TOO_LARGE_MESSAGE,
  PAYMENT_BEING_CONFIRMED_MESSAGE,
  UNSUPPORTED_MEDIA_TYPE_MESSAGE,
} from './errors';
import { createLogger } from '../platform/logger';
import type { PaymentGateway } from '../payments/gateway';
import { createTestGateway } from '../payments/test-gateway';
import { createManageLinkSigner } from '../recurring/manage-link';
import { SITE_NOT_BUILT_MESSAGE } from './site';
import { createTestApp, setCookies, validSubmission, type CsrfCredentials, type TestApp } from '../testing/test-app';

/** How the server answers over HTTP besides the donation logic: the site, and every kind of failure (issue #2). */

const ORGANIZATION_URL = 'https://reef.example.org/about?lang=en&from="site"';
const HASHED_ASSET = 'assets/index-Bx3k9Q2a.js';
const LARGE_ASSET = 'assets/form-Dd4e5F6g.js';
const LARGE_ASSET_TEXT = 'export const reef = "coral";\n'.repeat(200);
/** Chromium's Accept header when it navigates to a page (typed address, link, reload). */
const NAVIGATION_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';

let t: TestApp;
let csrf: CsrfCredentials;
beforeAll(async () => {
  t = await createTestApp({
    env: { ORGANIZATION_URL, PUBLIC_URL: 'https://give.example.org' },
    files: { [HASHED_ASSET]: 'console.log("reef")', [LARGE_ASSET]: LARGE_ASSET_TEXT, 'favicon.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>' },
  });
  csrf = await t.csrf();
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await t.reset();
});

/** POSTs a raw body with valid CSRF credentials. */
const postRaw = (payload: string, contentType: string) =>
  t.app.inject({
    method: 'POST',
    url: API_PATHS.processDonation,
    headers: { cookie: csrf.cookie, [CSRF_HEADER_NAME]: csrf.token, 'content-type': contentType },
    payload,
  });

describe('the page', () => {
  it.each(['/es/donate/form', '/donate', '/donate/form', '/donate/thank-you', '/no/such/page', '/index.html'])(
    'GET %s answers index.html with no-cache, the CSRF cookies and the site-config meta tag',
    async (url) => {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect([...setCookies(response).keys()].sort()).toEqual([CSRF_COOKIE_NAME, CSRF_SECRET_COOKIE_NAME].sort());
      expect(response.body).toContain('<div id="root"></div>');

      const meta = response.body.match(new RegExp(`<meta name="${SITE_CONFIG_META_NAME}" content="([^"]*)">\\s*</head>`));
      expect(meta, 'meta tag just before </head>').not.toBeNull();
      const content = meta?.[1] ?? '';
      expect(content).not.toMatch(/[<>"]/);
      const unescaped = content
        .replaceAll('&quot;', '"')
        .replaceAll('&#39;', "'")
        .replaceAll('&lt;', '<')
        .replaceAll('&gt;', '>')
        .replaceAll('&amp;', '&');
      expect(SiteConfigSchema.parse(JSON.parse(unescaped))).toEqual({
        organizationUrl: ORGANIZATION_URL,
        publicUrl: 'https://give.example.org',
        minAmountDollars: 1,
        payments: { gateway: 'test' },
        feeCoverage: { percent: 2.9, fixedCents: 30 },
      });
    },
  );

  /**
   * Every route of the site's router but the empty path (which redirects by language: site-prerendered.test.ts), a
   * plan's manage page with a real token, whose dots look like a file extension.
   */
  const pageRoutes = () => {
    const token = createManageLinkSigner(t.config.cookieSecret).sign('0b7c1f1e-6a34-4f0e-9a57-2f4c8d1e5b21', new Date());
    return Object.values(PATHS)
      .filter((route) => route !== PATHS.root)
      .map((route) => route.replace(':token', token));
  };

  it.each([
    ['*/*', { accept: '*/*' }],
    ['no', {}],
  ])('every route of the site answers the page to a client with %s Accept header: curl, link checkers (issue #19)', async (_kind, headers) => {
    for (const url of pageRoutes()) {
      const response = await t.app.inject({ method: 'GET', url, headers });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type'], url).toMatch(/^text\/html/);
      expect(response.body, url).toMatch(/<div id="root"/);
    }
  });

  it('answers HEAD too', async () => {
    expect((await t.app.inject({ method: 'HEAD', url: '/donate' })).statusCode).toBe(200);
  });

  it('answers 503 with a short text when the site is not built, while the API keeps working', async () => {
    const emptyRoot = await mkdtemp(path.join(tmpdir(), 'donation-empty-web-'));
    const app = await buildApp({
      config: loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', WEB_ROOT: emptyRoot }),
      db: t.db,
      gateway: t.gateway,
    });
    try {
      const page = await app.inject({ method: 'GET', url: '/donate' });
      expect(page.statusCode).toBe(503);
      expect(page.headers['content-type']).toMatch(/^text\/plain/);
      expect(page.body).toBe(SITE_NOT_BUILT_MESSAGE);
      expect(page.body).toContain('npm run build');
      expect((await app.inject({ method: 'GET', url: API_PATHS.donationStats })).statusCode).toBe(200);
    } finally {
      await app.close();
      await rm(emptyRoot, { recursive: true, force: true });
    }
  });
});

describe('static files', () => {
  it('serves hashed assets with a year-long immutable cache', async () => {
    const response = await t.app.inject({ method: 'GET', url: `/${HASHED_ASSET}` });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('console.log("reef")');
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers['cache-control']).toMatch(/max-age=31536000/);
    expect(response.headers['cache-control']).toMatch(/immutable/);
  });

  it('compresses text assets with brotli or gzip, as the browser accepts (issue #5)', async () => {
    for (const [encoding, decode] of [
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
    ] as const) {
      const response = await t.app.inject({ method: 'GET', url: `/${LARGE_ASSET}`, headers: { 'accept-encoding': encoding } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBe(encoding);
      expect(response.rawPayload.length).toBeLessThan(LARGE_ASSET_TEXT.length / 4);
      expect(decode(response.rawPayload).toString()).toBe(LARGE_ASSET_TEXT);
    }
    const plain = await t.app.inject({ method: 'GET', url: `/${LARGE_ASSET}` });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(LARGE_ASSET_TEXT);
  });

  it('serves other files of WEB_ROOT revalidated on each use', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-cache');
  });

  it.each(['/assets/missing-123.js', '/assets/nope.js', '/missing.js', '/images/logo.png', '/assets/../../etc/passwd.txt'])(
    'answers 404 to a missing file %s',
    async (url) => {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(404);
    },
  );

  it.each(['/old-page.php', '/donate/x.y', '/blog/2019/reef.html?ref=mail'])(
    'a browser navigation to a missing file %s gets the page, whose router sends it to /donate (spec section 2)',
    async (url) => {
      const response = await t.app.inject({ method: 'GET', url, headers: { accept: NAVIGATION_ACCEPT } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.body).toContain('<div id="root"></div>');
    },
  );

  it('a browser navigation to a file that exists gets the file', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/favicon.svg', headers: { accept: NAVIGATION_ACCEPT } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^image\/svg\+xml/);
  });

  it.each([
    ['a script', '/old-page.js', '*/*'],
    ['an image', '/images/logo.png', 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8'],
    ['a fetch', '/old-page.php', 'application/json'],
    ['a navigation under /assets/', '/assets/missing-123.js', NAVIGATION_ACCEPT],
    ['any client', '/assets/nope.js', '*/*'],
  ])('%s asking for a missing file %s gets 404', async (_kind, url, accept) => {
    const response = await t.app.inject({ method: 'GET', url, headers: { accept } });
    expect(response.statusCode).toBe(404);
  });
});

describe('failures answer {success: false, error}', () => {
  it.each(['/api/nope', '/api', '/api/donations'])('unknown API path %s: 404 JSON', async (url) => {
    const response = await t.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(ApiErrorSchema.parse(response.json())).toEqual({ success: false, error: NOT_FOUND_MESSAGE, code: 'not_found' });
  });

  it.each(['/api/recurring/manage/%E0%A4%A', '/donate/manage/%E0%A4%A', '/api/admin/donations/%FF/refund'])(
    'a URL that cannot be decoded, %s: 404 JSON, not cached, nosniff',
    async (url) => {
      const response = await t.app.inject({ method: 'POST', url, payload: {} });
      expect(response.statusCode).toBe(404);
      expect(ApiErrorSchema.parse(response.json())).toEqual({ success: false, error: NOT_FOUND_MESSAGE, code: 'not_found' });
      expect(response.headers).toMatchObject({ 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });
    },
  );

  it('malformed JSON: 400', async () => {
    const response = await postRaw('{"amount": 25,', 'application/json');
    expect(response.statusCode).toBe(400);
    expect(ApiErrorSchema.parse(response.json())).toEqual({ success: false, error: INVALID_JSON_MESSAGE, code: 'invalid_json' });
  });

  it('empty JSON body: 400', async () => {
    const response = await postRaw('', 'application/json');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ success: false, error: INVALID_JSON_MESSAGE, code: 'invalid_json' });
  });

  it('a text/plain body: 415', async () => {
    const response = await postRaw(JSON.stringify(validSubmission()), 'text/plain');
    expect(response.statusCode).toBe(415);
    expect(ApiErrorSchema.parse(response.json())).toEqual({ success: false, error: UNSUPPORTED_MEDIA_TYPE_MESSAGE, code: 'unsupported_media_type' });
  });

  it('a form-encoded body: 415', async () => {
    const response = await postRaw('amount=25', 'application/x-www-form-urlencoded');
    expect(response.statusCode).toBe(415);
  });

  it('a body over the limit: 413', async () => {
    const payload = JSON.stringify(validSubmission({ message: 'x'.repeat(BODY_LIMIT_BYTES) }));
    const response = await postRaw(payload, 'application/json');
    expect(response.statusCode).toBe(413);
    expect(ApiErrorSchema.parse(response.json())).toEqual({ success: false, error: PAYLOAD_TOO_LARGE_MESSAGE, code: 'payload_too_large' });
    expect(await t.countDonations()).toBe(0);
    expect(t.gateway.calls).toBe(0);
  });

  it('a gateway that fails: 503 saying the payment is being confirmed, no stack, the donation left pending', async () => {
    const brokenGateway: PaymentGateway = {
      ...createTestGateway(),
      charge: async () => {
        throw new Error('connection reset by gateway at Socket.onEnd (node:net:123)');
      },
      retrieveCharge: async () => ({ status: 'not_found' }),
    };
    const app = await buildApp({
      config: t.config,
      db: t.db,
      gateway: brokenGateway,
      logger: createLogger({ logLevel: 'silent' }),
    });
    try {
      const page = await app.inject({ method: 'GET', url: '/donate' });
      const cookies = setCookies(page);
      const token = cookies.get(CSRF_COOKIE_NAME) ?? '';
      const response = await app.inject({
        method: 'POST',
        url: API_PATHS.processDonation,
        headers: { cookie: `_csrf=${cookies.get('_csrf')}; ${CSRF_COOKIE_NAME}=${token}`, [CSRF_HEADER_NAME]: token },
        payload: validSubmission(),
      });
      expect(response.statusCode).toBe(503);
      expect(ApiErrorSchema.parse(response.json())).toEqual({ success: false, error: PAYMENT_BEING_CONFIRMED_MESSAGE, code: 'payment_being_confirmed' });
      expect(response.headers['retry-after']).toMatch(/^\d+$/);
      expect(response.body).not.toMatch(/connection reset|node:net|at /);
      const rows = await t.db.select({ status: donations.status }).from(donations);
      expect(rows).toEqual([{ status: 'pending' }]);
    } finally {
      await app.close();
    }
  });

  it('sets basic security headers and never lets API answers be cached', async () => {
    const response = await t.app.inject({ method: 'GET', url: API_PATHS.donationStats });
    expect(response.headers).toMatchObject({
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'cache-control': 'no-store',
    });
  });
});
