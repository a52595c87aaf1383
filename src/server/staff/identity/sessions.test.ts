import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STAFF_API } from '../../../shared/staff/paths';
import { manualClock } from '../../platform/clock';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { SESSION_ABSOLUTE_TIMEOUT_MS, SESSION_IDLE_TIMEOUT_MS } from './sessions';
import { signInStaffForTest } from './testing/staff-session';

/**
 * Staff sessions (issue #21, "Sessions"; OWASP Session Management): GET /api/staff/session on the real app and
 * database, with the injected clock moved instead of waiting: 401 without a session, idle timeout 30 minutes,
 * absolute timeout 12 hours.
 */

const clock = manualClock(new Date('2026-11-26T09:00:00Z'));
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(async () => {
  await t?.close();
});

const getSession = (headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url: STAFF_API.session, headers });
const MINUTE_MS = 60_000;

describe('GET /api/staff/session', () => {
  it('answers 401 staff_unauthenticated without a session cookie, or with an unknown one, never cached', async () => {
    for (const headers of [{}, { cookie: 'staff_session=not-a-session' }] as Record<string, string>[]) {
      const response = await getSession(headers);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ success: false, error: 'Sign in to continue.', code: 'staff_unauthenticated' });
      expect(response.headers['cache-control']).toBe('no-store');
    }
  });

  it('answers the signed-in member, the time of their strong sign-in and their passkey count', async () => {
    const session = await signInStaffForTest(t.app, t.db, { role: 'finance', now: clock.now() });
    const response = await getSession(session.headers);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      staffMember: { id: session.staffMember.id, email: session.staffMember.email, role: 'finance' },
      strongAuthAt: clock.now().toISOString(),
      passkeyCount: 0,
    });
  });

  it('ends a session left idle for 30 minutes, and keeps one used within them', async () => {
    const session = await signInStaffForTest(t.app, t.db, { role: 'viewer', now: clock.now() });
    clock.advance(SESSION_IDLE_TIMEOUT_MS - MINUTE_MS);
    expect((await getSession(session.headers)).statusCode).toBe(200);
    clock.advance(SESSION_IDLE_TIMEOUT_MS - MINUTE_MS);
    expect((await getSession(session.headers)).statusCode).toBe(200);
    clock.advance(SESSION_IDLE_TIMEOUT_MS);
    expect((await getSession(session.headers)).statusCode).toBe(401);
    // Once over, it stays over: used again at once, it is still refused.
    expect((await getSession(session.headers)).statusCode).toBe(401);
  });

  it('ends a session 12 hours after it started however busy it is', async () => {
    const session = await signInStaffForTest(t.app, t.db, { role: 'admin', now: clock.now() });
    const start = clock.now().getTime();
    while (clock.now().getTime() + 25 * MINUTE_MS < start + SESSION_ABSOLUTE_TIMEOUT_MS) {
      clock.advance(25 * MINUTE_MS);
      expect((await getSession(session.headers)).statusCode).toBe(200);
    }
    clock.set(new Date(start + SESSION_ABSOLUTE_TIMEOUT_MS));
    expect((await getSession(session.headers)).statusCode).toBe(401);
  });
});
