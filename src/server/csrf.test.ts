import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { API_PATHS, ApiErrorSchema, CSRF_COOKIE_NAME, CSRF_HEADER_NAME } from '../shared/api';
import { CSRF_SECRET_COOKIE_NAME } from './csrf';
import { CSRF_FAILED_MESSAGE } from './errors';
import { createTestApp, setCookies, validSubmission, type TestApp } from './testing/test-app';

/** CSRF protection (spec section 7; issue #2): 403 and nothing stored or charged without a valid token. */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { TRUST_PROXY: 'true' } });
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await t.reset();
});

/** Asserts a 403 with the CSRF message, no row written and no charge attempted. */
async function expectRefused(response: Awaited<ReturnType<TestApp['postDonation']>>) {
  expect(response.statusCode).toBe(403);
  expect(ApiErrorSchema.parse(response.json())).toEqual({ success: false, error: CSRF_FAILED_MESSAGE });
  expect(await t.countDonations()).toBe(0);
  expect(t.gateway.calls).toBe(0);
}

describe('the page sets the CSRF cookies', () => {
  it('sets an httpOnly signed secret and a readable token, both SameSite=Strict on path /', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/donate' });
    expect(page.statusCode).toBe(200);
    const byName = new Map(page.cookies.map((cookie) => [cookie.name, cookie]));
    expect(byName.get(CSRF_SECRET_COOKIE_NAME)).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/' });
    expect(byName.get(CSRF_SECRET_COOKIE_NAME)?.secure).toBeFalsy();
    const token = byName.get(CSRF_COOKIE_NAME);
    expect(token).toMatchObject({ sameSite: 'Strict', path: '/' });
    expect(token?.httpOnly).toBeFalsy();
    expect(token?.secure).toBeFalsy();
  });

  it('marks both cookies Secure when the request came over HTTPS (behind a trusted proxy)', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/', headers: { 'x-forwarded-proto': 'https' } });
    const secure = Object.fromEntries(page.cookies.map((cookie) => [cookie.name, cookie.secure]));
    expect(secure).toEqual({ [CSRF_SECRET_COOKIE_NAME]: true, [CSRF_COOKIE_NAME]: true });
  });

  it('keeps the visitor secret on a reload and gives a new token that works alongside the old one', async () => {
    const first = await t.csrf();
    const reload = await t.app.inject({ method: 'GET', url: '/', headers: { cookie: first.cookie } });
    const cookies = setCookies(reload);
    expect(cookies.has(CSRF_SECRET_COOKIE_NAME)).toBe(false);
    const secondToken = cookies.get(CSRF_COOKIE_NAME) ?? '';
    expect(secondToken).not.toBe(first.token);
    expect((await t.postDonation(validSubmission(), first)).statusCode).toBe(200);
    expect((await t.postDonation(validSubmission(), { ...first, token: secondToken })).statusCode).toBe(200);
  });
});

describe('a donation without a valid token is refused', () => {
  it('without the X-XSRF-TOKEN header', async () => {
    const { cookie } = await t.csrf();
    const response = await t.app.inject({
      method: 'POST',
      url: API_PATHS.processDonation,
      headers: { cookie },
      payload: validSubmission(),
    });
    await expectRefused(response);
  });

  it('with another visitor’s token', async () => {
    const mine = await t.csrf();
    const theirs = await t.csrf();
    await expectRefused(await t.postDonation(validSubmission(), { cookie: mine.cookie, token: theirs.token }));
  });

  it('with a tampered token', async () => {
    const mine = await t.csrf();
    await expectRefused(await t.postDonation(validSubmission(), { ...mine, token: `${mine.token.slice(0, -2)}xx` }));
  });

  it('without the secret cookie', async () => {
    const { token } = await t.csrf();
    await expectRefused(await t.postDonation(validSubmission(), { cookie: `${CSRF_COOKIE_NAME}=${token}`, token }));
  });

  it('with a secret cookie whose signature was tampered with', async () => {
    const mine = await t.csrf();
    const forged = mine.cookie.replace(/^_csrf=([^;]*?)\.[^.;]*;/, '_csrf=$1.forged;');
    expect(forged).not.toBe(mine.cookie);
    await expectRefused(await t.postDonation(validSubmission(), { ...mine, cookie: forged }));
  });

  it('with no cookie and no header at all', async () => {
    await expectRefused(await t.postDonation(validSubmission(), null));
  });

  it('even when the body is invalid too (the check comes first)', async () => {
    await expectRefused(await t.postDonation({ amount: 'lots' }, null));
  });

  it('but the token is echoed exactly as the cookie holds it, in the header the spec names', async () => {
    const mine = await t.csrf();
    const response = await t.app.inject({
      method: 'POST',
      url: API_PATHS.processDonation,
      headers: { cookie: mine.cookie, [CSRF_HEADER_NAME.toLowerCase()]: mine.token },
      payload: validSubmission(),
    });
    expect(response.statusCode).toBe(200);
  });
});

describe('reads need no token', () => {
  it('answers GET and HEAD of the stats without one', async () => {
    expect((await t.app.inject({ method: 'GET', url: API_PATHS.donationStats })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'HEAD', url: API_PATHS.donationStats })).statusCode).toBe(200);
  });
});
