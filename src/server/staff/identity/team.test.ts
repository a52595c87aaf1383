import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_STAFF_PATH, STAFF_API, staffApiPath } from '../../../shared/staff/paths';
import { STAFF_ROLES, type StaffRole } from '../../../shared/staff/roles';
import { adminAuditLog, mailOutbox, staffMembers } from '../../db/schema';
import { manualClock } from '../../platform/clock';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { signInStaffForTest, type StaffTestSession } from './testing/staff-session';
import { StaffBrowser } from './testing/staff-browser';

/**
 * Roles, the team and the audit log through the real app and database (issue #21, "Team", "Audit", "API"): the 401/403
 * matrix of the identity routes, invitations by an admin, role changes and removals that end sessions at once, the
 * last-admin rule, passkeys added and removed, and the audit API's filters.
 */

const ADMIN_TOKEN = 'staff-team-test-admin-token-0123456789abcd';
const PUBLIC_URL = 'http://localhost:3000';
const clock = manualClock(new Date(Date.now() + 60_000));
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock, env: { ADMIN_TOKEN, PUBLIC_URL } });
});
afterAll(async () => {
  await t?.close();
});

const as = (session: StaffTestSession | undefined, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: session?.headers ?? {}, ...(payload === undefined ? {} : { payload }) });
const signIn = (role: StaffRole, email?: string) => signInStaffForTest(t.app, t.db, { role, email, now: clock.now() });
const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

describe('rights', () => {
  /** Each identity route that needs more than a session, with the right it needs. */
  const ADMIN_ROUTES = [
    { method: 'POST', url: STAFF_API.team, payload: { email: 'matrix@reef.example.org', role: 'viewer' } },
    { method: 'PATCH', url: staffApiPath(STAFF_API.teamMember, UNKNOWN_ID), payload: { role: 'viewer' } },
    { method: 'DELETE', url: staffApiPath(STAFF_API.teamMember, UNKNOWN_ID) },
    { method: 'GET', url: STAFF_API.audit },
  ] as const;
  const ANY_ROLE_ROUTES = [
    // Issue #36: every member may read the team (the page shows a viewer the team without the invite form).
    { method: 'GET', url: STAFF_API.team },
    { method: 'GET', url: STAFF_API.session },
    { method: 'GET', url: STAFF_API.passkeys },
    { method: 'POST', url: STAFF_API.passkeyOptions, payload: {} },
  ] as const;

  it('answers 401 without a session, 403 staff_forbidden to viewer and finance on the admin routes, and lets admins in', async () => {
    const sessions = Object.fromEntries(await Promise.all(STAFF_ROLES.map(async (role) => [role, await signIn(role)] as const)));
    const csrfOnly = await StaffBrowser.open(t.app, PUBLIC_URL);
    for (const route of ADMIN_ROUTES) {
      const anonymous = await t.app.inject({ method: route.method, url: route.url, headers: csrfOnly.headers(), ...('payload' in route ? { payload: route.payload } : {}) });
      expect(anonymous.statusCode, `${route.method} ${route.url}`).toBe(401);
      expect(anonymous.json().code).toBe('staff_unauthenticated');
      for (const role of ['viewer', 'finance'] as const) {
        const refused = await as(sessions[role], route.method, route.url, 'payload' in route ? route.payload : undefined);
        expect(refused.statusCode, `${role} ${route.method} ${route.url}`).toBe(403);
        expect(refused.json()).toMatchObject({ success: false, code: 'staff_forbidden' });
      }
      const admitted = await as(sessions.admin, route.method, route.url, 'payload' in route ? route.payload : undefined);
      expect([200, 201, 404], `admin ${route.method} ${route.url}`).toContain(admitted.statusCode);
      expect(admitted.headers['cache-control']).toBe('no-store');
    }
    for (const route of ANY_ROLE_ROUTES) {
      expect((await t.app.inject({ method: route.method, url: route.url, headers: csrfOnly.headers(), ...('payload' in route ? { payload: route.payload } : {}) })).statusCode).toBe(401);
      for (const role of STAFF_ROLES) expect((await as(sessions[role], route.method, route.url, 'payload' in route ? route.payload : undefined)).statusCode).toBe(200);
    }
  });
});

describe('the team', () => {
  it('an admin invites (201, e-mailed, audited), a duplicate is 409, and the list shows members by address', async () => {
    const admin = await signIn('admin', 'boss@reef.example.org');
    const invited = await as(admin, 'POST', STAFF_API.team, { email: 'newcomer@reef.example.org', role: 'finance' });
    expect(invited.statusCode).toBe(201);
    const member = invited.json().member;
    expect(member).toMatchObject({ email: 'newcomer@reef.example.org', role: 'finance', passkeyCount: 0, lastSignInAt: null });
    const [mail] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, 'newcomer@reef.example.org'));
    expect(mail?.kind).toBe('staff_invitation');
    expect((await as(admin, 'POST', STAFF_API.team, { email: 'NEWCOMER@reef.example.org', role: 'viewer' })).statusCode).toBe(409);
    const [entry] = await t.db.select().from(adminAuditLog).where(eq(adminAuditLog.subjectId, member.id));
    expect(entry).toMatchObject({ actorType: 'staff', actorStaffId: admin.staffMember.id, actorEmail: 'boss@reef.example.org', action: 'staff.invite', details: { email: 'newcomer@reef.example.org', role: 'finance' } });
    const list = (await as(admin, 'GET', STAFF_API.team)).json().members as Array<{ email: string; lastSignInAt: string | null }>;
    expect(list.map((row) => row.email)).toEqual([...list.map((row) => row.email)].sort());
    expect(list.find((row) => row.email === 'boss@reef.example.org')?.lastSignInAt).toBe(clock.now().toISOString());
  });

  it('a role change ends all that member\'s sessions at once and is audited with the old and new role', async () => {
    const admin = await signIn('admin');
    const member = await signIn('finance');
    const secondBrowser = await signInStaffForTest(t.app, t.db, { role: 'viewer', now: clock.now() });
    expect((await as(member, 'GET', STAFF_API.session)).statusCode).toBe(200);
    const changed = await as(admin, 'PATCH', staffApiPath(STAFF_API.teamMember, member.staffMember.id), { role: 'viewer' });
    expect(changed.statusCode).toBe(200);
    expect(changed.json().member.role).toBe('viewer');
    expect((await as(member, 'GET', STAFF_API.session)).statusCode).toBe(401);
    expect((await as(secondBrowser, 'GET', STAFF_API.session)).statusCode).toBe(200);
    const [entry] = await t.db.select().from(adminAuditLog).where(eq(adminAuditLog.subjectId, member.staffMember.id));
    expect(entry).toMatchObject({ action: 'staff.role_change', details: { from: 'finance', to: 'viewer' } });
    expect((await as(admin, 'PATCH', staffApiPath(STAFF_API.teamMember, UNKNOWN_ID), { role: 'viewer' })).statusCode).toBe(404);
    expect((await as(admin, 'PATCH', staffApiPath(STAFF_API.teamMember, member.staffMember.id), { role: 'owner' })).statusCode).toBe(400);
  });

  it('removal ends the member\'s sessions at once; the address may be invited again', async () => {
    const admin = await signIn('admin');
    const member = await signIn('viewer', 'gone@reef.example.org');
    const removed = await as(admin, 'DELETE', staffApiPath(STAFF_API.teamMember, member.staffMember.id));
    expect(removed.statusCode).toBe(204);
    expect((await as(member, 'GET', STAFF_API.session)).statusCode).toBe(401);
    expect((await as(admin, 'DELETE', staffApiPath(STAFF_API.teamMember, member.staffMember.id))).statusCode).toBe(404);
    const [row] = await t.db.select().from(staffMembers).where(eq(staffMembers.id, member.staffMember.id));
    expect(row?.removedAt).toEqual(clock.now());
    expect((await as(admin, 'POST', STAFF_API.team, { email: 'gone@reef.example.org', role: 'viewer' })).statusCode).toBe(201);
  });

  it('the last admin cannot demote or remove themselves (409); with a second admin they can', async () => {
    // Only admins of this test: the others step down first.
    const me = await signIn('admin');
    const others = await t.db.select().from(staffMembers).where(eq(staffMembers.role, 'admin'));
    for (const other of others.filter((row) => row.id !== me.staffMember.id && row.removedAt === null)) {
      expect((await as(me, 'DELETE', staffApiPath(STAFF_API.teamMember, other.id))).statusCode).toBe(204);
    }
    const demote = await as(me, 'PATCH', staffApiPath(STAFF_API.teamMember, me.staffMember.id), { role: 'finance' });
    expect(demote.statusCode).toBe(409);
    expect(demote.json()).toEqual({ success: false, error: 'You are the last admin. Make someone else an admin first.', code: 'staff_last_admin' });
    expect((await as(me, 'DELETE', staffApiPath(STAFF_API.teamMember, me.staffMember.id))).statusCode).toBe(409);
    // Staying admin is no change.
    expect((await as(me, 'PATCH', staffApiPath(STAFF_API.teamMember, me.staffMember.id), { role: 'admin' })).statusCode).toBe(200);

    const colleague = await signIn('viewer');
    expect((await as(me, 'PATCH', staffApiPath(STAFF_API.teamMember, colleague.staffMember.id), { role: 'admin' })).statusCode).toBe(200);
    const stepDown = await as(me, 'PATCH', staffApiPath(STAFF_API.teamMember, me.staffMember.id), { role: 'finance' });
    expect(stepDown.statusCode).toBe(200);
    // Their own session ended with the change.
    expect((await as(me, 'GET', STAFF_API.session)).statusCode).toBe(401);
  });
});

describe('passkeys of the signed-in member', () => {
  it('lists, adds a second one with a real registration, removes one, and refuses to remove the last', async () => {
    const session = await signIn('viewer');
    const browser = await StaffBrowser.open(t.app, PUBLIC_URL);
    browser.sessionId = session.sessionId;
    for (let added = 1; added <= 2; added += 1) {
      const { options } = (await browser.request('POST', STAFF_API.passkeyOptions, {})).json();
      const verified = await browser.request('POST', STAFF_API.passkeyVerify, { response: browser.authenticator.register(options) });
      expect(verified.statusCode).toBe(201);
      expect(verified.json().passkey).toMatchObject({ deviceType: 'singleDevice', backedUp: false, lastUsedAt: null });
    }
    const { passkeys } = (await browser.request('GET', STAFF_API.passkeys)).json() as { passkeys: Array<{ id: string }> };
    expect(passkeys).toHaveLength(2);
    // A challenge of another member or purpose proves nothing here: a sign-in challenge is refused.
    const { options: signInOptions } = (await browser.request('POST', STAFF_API.signInOptions, {})).json();
    const wrong = await browser.request('POST', STAFF_API.passkeyVerify, { response: browser.authenticator.register({ ...signInOptions, rp: { id: 'localhost' }, user: { id: 'eA' } }) });
    expect(wrong.statusCode).toBe(400);

    expect((await browser.request('DELETE', staffApiPath(STAFF_API.passkey, passkeys[0]?.id ?? ''))).statusCode).toBe(204);
    const last = await browser.request('DELETE', staffApiPath(STAFF_API.passkey, passkeys[1]?.id ?? ''));
    expect(last.statusCode).toBe(409);
    expect(last.json().code).toBe('staff_last_passkey');
    const actions = (await t.db.select().from(adminAuditLog).where(eq(adminAuditLog.actorStaffId, session.staffMember.id))).map((row) => row.action);
    expect(actions.sort()).toEqual(['staff.passkey_add', 'staff.passkey_add', 'staff.passkey_remove']);
  });
});

describe('GET /api/staff/audit', () => {
  it('lists staff and operator entries newest first, with filters by actor, action, subject and dates, and pages', async () => {
    const admin = await signIn('admin', 'auditor@reef.example.org');
    await t.app.inject({ method: 'POST', url: ADMIN_STAFF_PATH, headers: { authorization: `Bearer ${ADMIN_TOKEN}` }, payload: { email: 'by-operator@reef.example.org', role: 'viewer' } });
    const invited = (await as(admin, 'POST', STAFF_API.team, { email: 'by-admin@reef.example.org', role: 'viewer' })).json().member;
    const page = async (query: string) => (await as(admin, 'GET', `${STAFF_API.audit}?${query}`)).json();

    const mine = await page('actor=AUDITOR@reef.example.org');
    expect(mine.rows).toEqual([expect.objectContaining({ actorType: 'staff', actorEmail: 'auditor@reef.example.org', action: 'staff.invite', subjectId: invited.id, statusCode: null })]);
    const operator = await page(`actor=operator&action=${encodeURIComponent(`POST ${ADMIN_STAFF_PATH}`)}`);
    expect(operator.rows[0]).toMatchObject({ actorType: 'operator', actorEmail: null, statusCode: 201, target: 'email=by-operator%40reef.example.org&role=viewer' });
    expect((await page(`subjectId=${invited.id}`)).total).toBe(1);
    const today = clock.now().toISOString().slice(0, 10);
    const all = await page(`from=${today}&to=${today}&pageSize=2`);
    expect(all.rows).toHaveLength(2);
    expect(all.total).toBeGreaterThan(2);
    expect(all).toMatchObject({ page: 1, pageSize: 2 });
    const times = all.rows.map((row: { at: string }) => row.at);
    expect(times).toEqual([...times].sort().reverse());
    expect((await page('from=2000-01-01&to=2000-01-02')).total).toBe(0);
    expect((await as(admin, 'GET', `${STAFF_API.audit}?from=yesterday`)).statusCode).toBe(400);
    expect((await as(admin, 'GET', `${STAFF_API.audit}?pageSize=1000`)).statusCode).toBe(400);
  });
});
