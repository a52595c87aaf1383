import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STAFF_API } from '../../../shared/staff/paths';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { STAFF_IP_ATTEMPTS, STAFF_LINK_REQUESTS_PER_EMAIL } from './limits';
import { StaffBrowser } from './testing/staff-browser';
import { signInStaffForTest } from './testing/staff-session';

/**
 * The sign-in limits (issue #21, "Limits") on the card-testing counters' in-process store (RATE_LIMITS on): link
 * requests per address, sign-in attempts per IP; a 429 with the staff code, and the donor side's limits untouched by
 * staff requests. RATE_LIMITS=off (every other staff test) turns them off, as it does the card-testing limits.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { RATE_LIMITS: 'on', PUBLIC_URL: 'http://localhost:3000' } });
});
afterAll(async () => {
  await t?.close();
});

describe('staff sign-in limits', () => {
  it('refuses more link requests for one address than the limit (429), whatever its case, and not for another address', async () => {
    const browser = await StaffBrowser.open(t.app, 'http://localhost:3000');
    for (let request = 1; request <= STAFF_LINK_REQUESTS_PER_EMAIL.max; request += 1) {
      expect((await browser.request('POST', STAFF_API.signInEmail, { email: 'target@reef.example.org' })).statusCode).toBe(202);
    }
    const refused = await browser.request('POST', STAFF_API.signInEmail, { email: 'TARGET@reef.example.org' });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ success: false, error: 'Too many sign-in attempts. Please wait a few minutes and try again.', code: 'staff_rate_limited' });
    expect((await browser.request('POST', STAFF_API.signInEmail, { email: 'other@reef.example.org' })).statusCode).toBe(202);
  });

  it('refuses sign-in attempts from one IP over the limit (429), while a signed-in member keeps working', async () => {
    const member = await signInStaffForTest(t.app, t.db, { role: 'admin' });
    const browser = await StaffBrowser.open(t.app, 'http://localhost:3000');
    let answered = 0;
    let refused = 0;
    // The address requests above counted against this IP too: the limit is reached within STAFF_IP_ATTEMPTS.max attempts.
    for (let attempt = 0; attempt < STAFF_IP_ATTEMPTS.max + 1; attempt += 1) {
      const response = await browser.request('POST', STAFF_API.signInOptions, {});
      if (response.statusCode === 429) refused += 1;
      else answered += 1;
    }
    expect(refused).toBeGreaterThan(0);
    expect(answered).toBeLessThanOrEqual(STAFF_IP_ATTEMPTS.max);
    expect((await browser.request('POST', STAFF_API.signInLink, { token: 'x'.repeat(43) })).statusCode).toBe(429);
    // Staff work is not a sign-in attempt, nor are staff requests counted by the donation limits.
    expect((await t.app.inject({ method: 'GET', url: STAFF_API.team, headers: member.headers })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: STAFF_API.team, headers: member.headers, payload: { email: 'x@reef.example.org', role: 'nope' } })).statusCode).toBe(400);
  });
});
