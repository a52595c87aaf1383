import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../testing/test-app';
import { PERMISSIONS_POLICY, STAFF_PAGE_PERMISSIONS_POLICY } from './security-headers';

/**
 * The staff pages (issue #21): every path under /staff is the page, whatever the client accepts (a mail scanner's GET or
 * HEAD of an e-mailed link included), answered `no-store` and `noindex`, and allowed to ask for a passkey; the donor's
 * pages keep `no-cache` and every powerful feature off.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('the staff pages', () => {
  it.each([
    ['GET', '/staff', 'text/html'],
    ['GET', '/staff/donations?status=refunded&q=ana', 'text/html'],
    ['GET', '/staff/sign-in/abc.DEF-123_x', '*/*'],
    ['HEAD', '/staff/enroll/abc.DEF-123_x', '*/*'],
  ])('%s %s (Accept %s) answers the page, no-store and noindex', async (method, url, accept) => {
    const response = await t.app.inject({ method: method as 'GET' | 'HEAD', url, headers: { accept } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['x-robots-tag']).toBe('noindex, nofollow');
    expect(response.headers['permissions-policy']).toBe(STAFF_PAGE_PERMISSIONS_POLICY);
    if (method === 'GET') expect(response.body).toContain('<div id="root"></div>');
  });

  it.each(['/donate/form', '/staffing'])('GET %s is no staff page: no-cache, no X-Robots-Tag', async (url) => {
    const response = await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers['x-robots-tag']).toBeUndefined();
    expect(response.headers['permissions-policy']).toBe(PERMISSIONS_POLICY);
  });
});

describe('the staff pages Permissions-Policy', () => {
  it('differs from the site policy only in letting the page itself ask for a passkey', () => {
    expect(PERMISSIONS_POLICY).toContain('publickey-credentials-get=()');
    expect(STAFF_PAGE_PERMISSIONS_POLICY).toBe(PERMISSIONS_POLICY.replace('publickey-credentials-get=()', 'publickey-credentials-get=(self)'));
  });
});
