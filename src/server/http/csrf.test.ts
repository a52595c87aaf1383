import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { API_PATHS, ApiErrorSchema, CSRF_COOKIE_NAME, CSRF_HEADER_NAME, CSRF_HTTPS_COOKIE_NAME } from '../../shared/api';
import type { App } from '../app';
import { checkRequestSource, CSRF_HTTPS_SECRET_COOKIE_NAME, CSRF_SECRET_COOKIE_NAME } from './csrf';
import { idempotencyKeys } from '../db/schema';
import { CSRF_FAILED_MESSAGE, FOREIGN_ORIGIN_MESSAGE, UNSUPPORTED_MEDIA_TYPE_MESSAGE } from './errors';
import { createTestApp, setCookies, validSubmission, type CsrfCredentials, type TestApp } from '../testing/test-app';
import { isMachineRoute } from './machine-routes';

/**
 * CSRF protection (spec section 7; issues #2 and #4; OWASP CSRF Prevention Cheat Sheet; ASVS 5.0 section 3.5):
 * every state-changing request needs a token bound to the visitor and must come from this site; a refused one
 * writes nothing and charges nothing.
 */

const PUBLIC_URL = 'https://give.example.org';

// NOTE: built at the top level (not in beforeAll) so the route matrix below is generated from its routes.
const t: TestApp = await createTestApp({ env: { TRUST_PROXY: 'true', PUBLIC_URL } });
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  await t.reset();
});

/** Rows in the idempotency-key table (a refused request must not claim a key either). */
async function countIdempotencyKeys(): Promise<number> {
  const [row] = await t.db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(idempotencyKeys);
  return row?.n ?? 0;
}

/** Asserts that nothing was written or charged. */
async function expectNothingDone() {
  expect(await t.countDonations()).toBe(0);
  expect(await countIdempotencyKeys()).toBe(0);
  expect(t.gateway.calls).toBe(0);
}

/** Asserts a 403 with `message`, no row written and no charge attempted. */
async function expectRefused(response: LightMyRequestResponse, message = CSRF_FAILED_MESSAGE) {
  expect(response.statusCode).toBe(403);
  const code = message === FOREIGN_ORIGIN_MESSAGE ? 'foreign_origin' : 'csrf_failed';
  expect(ApiErrorSchema.parse(response.json())).toEqual({ success: false, error: message, code });
  await expectNothingDone();
}

/**
 * The paths `app` routes for `method`, read from Fastify's own route tree (`printRoutes`), so a new
 * state-changing route is covered by the tests below without anyone remembering to add it.
 */
function routesOf(app: App, method: string): string[] {
  const stack: string[] = [];
  const paths: string[] = [];
  for (const line of app.printRoutes({ method, commonPrefix: false }).split('\n')) {
    const match = /^((?:[│ ] {3})*)[└├]── (.+?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    stack.length = (match[1] ?? '').length / 4;
    stack.push(match[2] ?? '');
    if (match[3]?.split(', ').includes(method)) paths.push(stack.join(''));
  }
  return paths;
}

const STATE_CHANGING_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'] as const;
type StateChangingMethod = (typeof STATE_CHANGING_METHODS)[number];

/**
 * Every state-changing (non-GET/HEAD/OPTIONS) route of `app` that a page calls: machine routes (webhooks, /api/admin/*,
 * authenticated by signature or bearer token) are exempt from the browser CSRF checks (machine-routes.ts).
 */
function stateChangingRoutes(app: App): Array<{ method: StateChangingMethod; url: string }> {
  return STATE_CHANGING_METHODS.flatMap((method) => routesOf(app, method).map((url) => ({ method, url }))).filter(({ url }) => !isMachineRoute(url));
}
const STATE_CHANGING_ROUTES = stateChangingRoutes(t.app);

describe('the page sets the CSRF cookies', () => {
  it('over HTTP: an httpOnly signed secret and a readable token, both SameSite=Strict on path /, not Secure', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/donate' });
    expect(page.statusCode).toBe(200);
    const byName = new Map(page.cookies.map((cookie) => [cookie.name, cookie]));
    expect([...byName.keys()].sort()).toEqual([CSRF_COOKIE_NAME, CSRF_SECRET_COOKIE_NAME].sort());
    expect(byName.get(CSRF_SECRET_COOKIE_NAME)).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    expect(byName.get(CSRF_SECRET_COOKIE_NAME)?.secure).toBeFalsy();
    const token = byName.get(CSRF_COOKIE_NAME);
    expect(token).toMatchObject({ sameSite: 'Strict', path: '/' });
    expect(token?.httpOnly).toBeFalsy();
    expect(token?.secure).toBeFalsy();
  });

  it('over HTTPS (X-Forwarded-Proto behind a trusted proxy): __Host- names, Secure, Path=/, no Domain', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/donate', headers: { 'x-forwarded-proto': 'https' } });
    const byName = new Map(page.cookies.map((cookie) => [cookie.name, cookie]));
    expect([...byName.keys()].sort()).toEqual([CSRF_HTTPS_COOKIE_NAME, CSRF_HTTPS_SECRET_COOKIE_NAME].sort());
    for (const cookie of byName.values()) {
      expect(cookie).toMatchObject({ secure: true, path: '/', sameSite: 'Strict' });
      expect(cookie.domain).toBeUndefined();
    }
    expect(byName.get(CSRF_HTTPS_SECRET_COOKIE_NAME)?.httpOnly).toBe(true);
    expect(byName.get(CSRF_HTTPS_COOKIE_NAME)?.httpOnly).toBeFalsy();
    const raw = [page.headers['set-cookie']].flat().join('\n');
    expect(raw).not.toMatch(/domain=/i);
  });

  it('over HTTPS, a donation with the __Host- pair passes, and one with a plain _csrf secret is refused', async () => {
    const https = { 'x-forwarded-proto': 'https' };
    const page = await t.app.inject({ method: 'GET', url: '/donate', headers: https });
    const cookies = setCookies(page);
    const secret = cookies.get(CSRF_HTTPS_SECRET_COOKIE_NAME) ?? '';
    const token = cookies.get(CSRF_HTTPS_COOKIE_NAME) ?? '';
    const post = (cookie: string) =>
      t.app.inject({
        method: 'POST',
        url: API_PATHS.processDonation,
        headers: { ...https, cookie, [CSRF_HEADER_NAME]: token, origin: 'https://localhost:80', 'sec-fetch-site': 'same-origin' },
        payload: validSubmission(),
      });
    // NOTE: a cookie without the prefix may have been planted by a sibling subdomain or over HTTP.
    await expectRefused(await post(`${CSRF_SECRET_COOKIE_NAME}=${secret}; ${CSRF_HTTPS_COOKIE_NAME}=${token}`));
    expect((await post(`${CSRF_HTTPS_SECRET_COOKIE_NAME}=${secret}; ${CSRF_HTTPS_COOKIE_NAME}=${token}`)).statusCode).toBe(200);
  });

  it('keeps the visitor secret on a reload and gives a new token that works alongside the old one', async () => {
    const first = await t.csrf();
    const reload = await t.app.inject({ method: 'GET', url: '/donate', headers: { cookie: first.cookie } });
    const cookies = setCookies(reload);
    expect(cookies.has(CSRF_SECRET_COOKIE_NAME)).toBe(false);
    const secondToken = cookies.get(CSRF_COOKIE_NAME) ?? '';
    expect(secondToken).not.toBe(first.token);
    expect((await t.postDonation(validSubmission(), first)).statusCode).toBe(200);
    expect((await t.postDonation(validSubmission(), { ...first, token: secondToken })).statusCode).toBe(200);
  });

  it('replaces a secret cookie whose signature does not verify', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/donate', headers: { cookie: `${CSRF_SECRET_COOKIE_NAME}=forged.value` } });
    expect(setCookies(page).get(CSRF_SECRET_COOKIE_NAME)).not.toBe('forged.value');
    expect(setCookies(page).has(CSRF_SECRET_COOKIE_NAME)).toBe(true);
  });
});

describe('every state-changing route refuses a forged request (issue #4)', () => {
  it('finds the routes from the app itself, POST /api/process-donation among them', () => {
    expect(STATE_CHANGING_ROUTES).toContainEqual({ method: 'POST', url: API_PATHS.processDonation });
  });

  /** A request to `route` with a JSON donation body and the given headers. */
  const send = (route: { method: StateChangingMethod; url: string }, headers: Record<string, string>, payload?: string) =>
    t.app.inject({
      method: route.method,
      url: route.url,
      headers: { 'content-type': 'application/json', ...headers },
      payload: payload ?? JSON.stringify(validSubmission()),
    });
  const credentials = (csrf: CsrfCredentials) => ({ cookie: csrf.cookie, [CSRF_HEADER_NAME]: csrf.token });

  describe.each(STATE_CHANGING_ROUTES)(
    '$method $url',
    (route) => {
      it('without the X-XSRF-TOKEN header: 403', async () => {
        const { cookie } = await t.csrf();
        await expectRefused(await send(route, { cookie }));
      });

      it('with a header that does not match the cookie (tampered token): 403', async () => {
        const mine = await t.csrf();
        await expectRefused(await send(route, credentials({ ...mine, token: `${mine.token.slice(0, -2)}xx` })));
      });

      it('without the secret cookie: 403', async () => {
        const { token } = await t.csrf();
        await expectRefused(await send(route, { cookie: `${CSRF_COOKIE_NAME}=${token}`, [CSRF_HEADER_NAME]: token }));
      });

      it('with no cookie and no header at all: 403', async () => {
        await expectRefused(await send(route, {}));
      });

      it('with a token minted for another visitor: 403', async () => {
        const mine = await t.csrf();
        const theirs = await t.csrf();
        await expectRefused(await send(route, credentials({ cookie: mine.cookie, token: theirs.token })));
      });

      it('with a secret cookie whose signature was tampered with: 403', async () => {
        const mine = await t.csrf();
        const forged = mine.cookie.replace(/^_csrf=([^;]*?)\.[^.;]*;/, '_csrf=$1.forged;');
        expect(forged).not.toBe(mine.cookie);
        await expectRefused(await send(route, credentials({ ...mine, cookie: forged })));
      });

      it.each(['https://evil.example', 'http://localhost:81', 'https://localhost:80', 'null', 'not a url'])(
        'from a foreign Origin %s, even with a valid token: 403',
        async (origin) => {
          const response = await send(route, { ...credentials(await t.csrf()), origin });
          await expectRefused(response, FOREIGN_ORIGIN_MESSAGE);
        },
      );

      it.each(['cross-site', 'same-site'])('with Sec-Fetch-Site: %s, even with a valid token: 403', async (site) => {
        const response = await send(route, { ...credentials(await t.csrf()), 'sec-fetch-site': site });
        await expectRefused(response, FOREIGN_ORIGIN_MESSAGE);
      });

      it('with a text/plain body (a "simple" cross-site request): 415 with a valid token, 403 without', async () => {
        const plain = { 'content-type': 'text/plain' };
        const withToken = await send(route, { ...credentials(await t.csrf()), ...plain });
        expect(withToken.statusCode).toBe(415);
        expect(withToken.json()).toEqual({ success: false, error: UNSUPPORTED_MEDIA_TYPE_MESSAGE, code: 'unsupported_media_type' });
        await expectNothingDone();
        await expectRefused(await send(route, plain));
      });

      it('before the body is read: a foreign request with malformed JSON gets 403, not 400', async () => {
        await expectRefused(await send(route, { origin: 'https://evil.example' }, '{"amount": '), FOREIGN_ORIGIN_MESSAGE);
        await expectRefused(await send(route, {}, '{"amount": '));
      });
    },
  );
});

describe('a request from the site itself passes', () => {
  it.each([
    ['the request’s own origin', { origin: 'http://localhost:80', 'sec-fetch-site': 'same-origin' }],
    ['PUBLIC_URL’s origin (a proxy that rewrites Host)', { origin: PUBLIC_URL }],
    ['the own origin written with its default port', { host: 'give.example.org', origin: 'http://give.example.org:80' }],
    ['no Origin and no Sec-Fetch-Site (an older browser)', {}],
    ['Sec-Fetch-Site: none (a user-initiated request)', { 'sec-fetch-site': 'none' }],
    ['the forwarded HTTPS origin behind a trusted proxy', { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'donate.example.net', origin: 'https://donate.example.net' }],
  ])('from %s', async (_label, headers: Record<string, string>) => {
    const https = headers['x-forwarded-proto'] === 'https';
    const page = await t.app.inject({ method: 'GET', url: '/donate', headers: https ? { 'x-forwarded-proto': 'https' } : {} });
    const cookies = setCookies(page);
    const [secretName, tokenName] = https
      ? [CSRF_HTTPS_SECRET_COOKIE_NAME, CSRF_HTTPS_COOKIE_NAME]
      : [CSRF_SECRET_COOKIE_NAME, CSRF_COOKIE_NAME];
    const token = cookies.get(tokenName) ?? '';
    const response = await t.app.inject({
      method: 'POST',
      url: API_PATHS.processDonation,
      headers: { cookie: `${secretName}=${cookies.get(secretName)}; ${tokenName}=${token}`, [CSRF_HEADER_NAME]: token, ...headers },
      payload: validSubmission(),
    });
    expect(response.statusCode).toBe(200);
  });
});

describe('reads need no token and no origin check', () => {
  it('answers GET and HEAD of the stats without a token, even cross-site', async () => {
    const crossSite = { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };
    expect((await t.app.inject({ method: 'GET', url: API_PATHS.donationStats, headers: crossSite })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'HEAD', url: API_PATHS.donationStats })).statusCode).toBe(200);
  });
});

describe('checkRequestSource', () => {
  const own = 'https://give.example.org';
  const allowed = new Set(['https://www.example.org']);
  it.each([
    [undefined, undefined, null],
    [own, 'same-origin', null],
    ['https://GIVE.example.org:443', undefined, null],
    ['https://www.example.org', undefined, null],
    [undefined, 'none', null],
    [undefined, 'SAME-ORIGIN', null],
    ['https://give.example.org.evil.example', undefined, 'foreign-origin'],
    ['http://give.example.org', undefined, 'foreign-origin'],
    ['null', undefined, 'foreign-origin'],
    ['', undefined, 'foreign-origin'],
    [own, 'cross-site', 'cross-site-fetch'],
    [own, 'same-site', 'cross-site-fetch'],
    [undefined, 'something-new', 'cross-site-fetch'],
  ] as const)('Origin %s, Sec-Fetch-Site %s → %s', (origin, secFetchSite, expected) => {
    expect(checkRequestSource({ origin, secFetchSite, ownOrigin: own }, allowed)).toBe(expected);
  });
});
