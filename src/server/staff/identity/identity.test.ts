import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_STAFF_PATH, STAFF_API, staffApiPath } from '../../../shared/staff/paths';
import { adminAuditLog, mailOutbox, staffCredentials, staffSessions } from '../../db/schema';
import { manualClock } from '../../platform/clock';
import { createTestApp, setCookies, type TestApp } from '../../testing/test-app';
import { startSmtpTestServer, type SmtpTestServer } from '../../testing/smtp-test-server';
import { ENROLL_LINK_TTL_MS, SIGN_IN_LINK_TTL_MS } from './links';
import { CHALLENGE_TTL_MS } from './relying-party';
import { secretHash } from './secret-hash';
import { StaffBrowser } from './testing/staff-browser';
import { signInStaffForTest } from './testing/staff-session';

/**
 * Staff identity end to end through the real app, database, mail outbox, relay and SMTP server (issue #21, "Sign-in
 * and sessions"): the operator's invitation, enrollment of a real passkey (software authenticator answering with real
 * attestations and assertions, verified by @simplewebauthn/server), passkey sign-in, e-mailed sign-in links that a
 * GET or HEAD does not consume, sessions and sign-out, the audit entries of each. Time moves by the injected clock.
 */

const PUBLIC_URL = 'http://localhost:3000';
const ADMIN_TOKEN = 'staff-identity-test-admin-token-0123456789';
// NOTE: starts a minute after the machine's now: the outbox's messages are due from the database's now.
const clock = manualClock(new Date(Date.now() + 60_000));
let smtp: SmtpTestServer;
let t: TestApp;

beforeAll(async () => {
  smtp = await startSmtpTestServer();
  t = await createTestApp({ clock, env: { PUBLIC_URL, ADMIN_TOKEN, SMTP_URL: smtp.url } });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});
beforeEach(() => {
  smtp.received.length = 0;
});

const operatorInvite = (payload: object, token = ADMIN_TOKEN) =>
  t.app.inject({ method: 'POST', url: ADMIN_STAFF_PATH, headers: { authorization: `Bearer ${token}` }, payload });

/** Sends the mail due and returns the token of the link of `kind` in the text part of the message to `email`. */
async function mailedToken(email: string, kind: 'enroll' | 'sign-in'): Promise<string> {
  // A sign-in link is made after the answer (issue #32, part 6).
  await t.app.afterReply.settled();
  await t.app.mail.relayDue();
  const link = new RegExp(`^${PUBLIC_URL}/staff/${kind}/([A-Za-z0-9_-]+)$`, 'm');
  // NOTE: the newest message to `email` with a link of `kind`: an invitation (enroll link) may have been sent before.
  const tokens = smtp.received
    .filter((mail) => mail.to && !Array.isArray(mail.to) && mail.to.text.toLowerCase() === email.toLowerCase())
    .map((mail) => link.exec(mail.text ?? '')?.[1])
    .filter((token) => token !== undefined);
  const token = tokens.at(-1);
  if (!token) throw new Error(`No ${kind} link mailed to ${email}`);
  return token;
}

/** Invites `email` as `role` through the operator API and enrolls a passkey from the e-mailed link in a new browser. */
async function enrolledMember(email: string, role: 'viewer' | 'finance' | 'admin'): Promise<StaffBrowser> {
  expect((await operatorInvite({ email, role })).statusCode).toBe(201);
  const token = await mailedToken(email, 'enroll');
  const browser = await StaffBrowser.open(t.app, PUBLIC_URL);
  const { options } = (await browser.request('POST', STAFF_API.enrollOptions, { token })).json();
  const verified = await browser.request('POST', STAFF_API.enrollVerify, { token, response: browser.authenticator.register(options) });
  expect(verified.statusCode).toBe(200);
  return browser;
}

/** Signs `browser` in with its newest passkey; returns the verify answer. */
async function passkeySignIn(browser: StaffBrowser) {
  const { options } = (await browser.request('POST', STAFF_API.signInOptions, {})).json();
  return browser.request('POST', STAFF_API.signInVerify, { response: browser.authenticator.authenticate(options) });
}

const auditActions = async (subjectOrActor: string) =>
  (await t.db.select().from(adminAuditLog).where(eq(adminAuditLog.actorStaffId, subjectOrActor))).map((row) => row.action);

describe('the operator invites a staff member', () => {
  it('answers 201 {id, email, role} and e-mails a single-use enrollment link, readable as text, through the outbox', async () => {
    const response = await operatorInvite({ email: 'Marisol@Reef.example.org', role: 'admin' });
    expect(response.statusCode).toBe(201);
    const member = response.json();
    expect(member).toEqual({ id: expect.any(String), email: 'Marisol@Reef.example.org', role: 'admin' });
    const [row] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'staff_invitation'));
    expect(row).toMatchObject({ recipient: 'Marisol@Reef.example.org', status: 'pending' });

    const token = await mailedToken('Marisol@Reef.example.org', 'enroll');
    const mail = smtp.received[0];
    expect(mail?.subject).toMatch(/invited to the .* donations back office/);
    expect(mail?.text).toContain('Your role is admin: you can do all that finance does, manage the team, read the audit log and connect other systems by webhooks.');
    expect(mail?.text).toContain('The link works once, for 72 hours.');
    // Only the token's hash is stored.
    expect(JSON.stringify(await t.db.select().from(mailOutbox))).not.toContain(token);
    expect(token.length).toBeGreaterThanOrEqual(43);
    expect(secretHash(token)).toHaveLength(64);
  });

  it('refuses a second invitation of the same address in any case (409), a bad role (400), and no or a wrong token (401)', async () => {
    expect((await operatorInvite({ email: 'dup@reef.example.org', role: 'viewer' })).statusCode).toBe(201);
    const again = await operatorInvite({ email: 'DUP@reef.example.org', role: 'finance' });
    expect(again.statusCode).toBe(409);
    expect((await operatorInvite({ email: 'x@reef.example.org', role: 'owner' })).statusCode).toBe(400);
    expect((await operatorInvite({ email: 'not-an-address', role: 'viewer' })).statusCode).toBe(400);
    expect((await operatorInvite({ email: 'y@reef.example.org', role: 'viewer' }, 'wrong-token-wrong-token-wrong-token-00')).statusCode).toBe(401);
    // The operator's requests are in the audit log with their target.
    const rows = await t.db.select().from(adminAuditLog).where(and(eq(adminAuditLog.actorType, 'operator'), eq(adminAuditLog.action, `POST ${ADMIN_STAFF_PATH}`)));
    expect(rows.map((row) => row.statusCode)).toEqual(expect.arrayContaining([201, 409, 400, 401]));
    expect(rows.find((row) => row.statusCode === 409)?.target).toBe('email=DUP%40reef.example.org&role=finance');
  });
});

describe('enrollment from the e-mailed link', () => {
  it('a GET or HEAD of the link page consumes nothing; the POST with a real passkey signs in once, a second use is refused 410', async () => {
    expect((await operatorInvite({ email: 'enroll@reef.example.org', role: 'finance' })).statusCode).toBe(201);
    const token = await mailedToken('enroll@reef.example.org', 'enroll');
    // A mail scanner opens the link.
    for (const method of ['GET', 'HEAD'] as const) {
      const page = await t.app.inject({ method, url: `/staff/enroll/${token}` });
      expect(page.statusCode).toBe(200);
    }
    const browser = await StaffBrowser.open(t.app, PUBLIC_URL);
    const optionsAnswer = await browser.request('POST', STAFF_API.enrollOptions, { token });
    expect(optionsAnswer.statusCode).toBe(200);
    const { options, email } = optionsAnswer.json();
    expect(email).toBe('enroll@reef.example.org');
    expect(options).toMatchObject({
      rp: { id: 'localhost' },
      user: { name: 'enroll@reef.example.org' },
      attestation: 'none',
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    });

    const verified = await browser.request('POST', STAFF_API.enrollVerify, { token, response: browser.authenticator.register(options, { backedUp: true }) });
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toEqual({ staffMember: { id: expect.any(String), email: 'enroll@reef.example.org', role: 'finance' } });
    expect(browser.sessionId).toBeDefined();
    const session = await browser.request('GET', STAFF_API.session);
    expect(session.json()).toMatchObject({ staffMember: { role: 'finance' }, passkeyCount: 1, strongAuthAt: clock.now().toISOString() });
    const [passkey] = await t.db.select().from(staffCredentials).where(eq(staffCredentials.staffId, verified.json().staffMember.id));
    expect(passkey).toMatchObject({ counter: 0, deviceType: 'multiDevice', backedUp: true, transports: ['internal'] });
    expect(await auditActions(verified.json().staffMember.id)).toEqual(['staff.enroll']);

    // Used once: the options and a second enrollment are refused with a clear message.
    const second = await browser.request('POST', STAFF_API.enrollOptions, { token });
    expect(second.statusCode).toBe(410);
    expect(second.json()).toEqual({ success: false, error: 'This link has expired or has already been used. Ask for a new one.', code: 'staff_link_invalid' });
    const again = await browser.request('POST', STAFF_API.enrollVerify, { token, response: browser.authenticator.register(options) });
    expect(again.statusCode).toBe(410);
  });

  it('refuses a passkey made at another origin or without user verification (400, audited), leaving the link usable', async () => {
    expect((await operatorInvite({ email: 'careful@reef.example.org', role: 'viewer' })).statusCode).toBe(201);
    const token = await mailedToken('careful@reef.example.org', 'enroll');
    const browser = await StaffBrowser.open(t.app, PUBLIC_URL);
    for (const ceremony of [{ origin: 'https://evil.example.com' }, { withoutUserVerification: true }]) {
      const { options } = (await browser.request('POST', STAFF_API.enrollOptions, { token })).json();
      const refused = await browser.request('POST', STAFF_API.enrollVerify, { token, response: browser.authenticator.register(options, ceremony) });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().code).toBe('staff_passkey_failed');
    }
    // A challenge answers one ceremony: a response to a challenge already used is refused.
    const { options } = (await browser.request('POST', STAFF_API.enrollOptions, { token })).json();
    const response = browser.authenticator.register(options);
    expect((await browser.request('POST', STAFF_API.enrollVerify, { token, response })).statusCode).toBe(200);
    const failures = await t.db.select().from(adminAuditLog).where(eq(adminAuditLog.action, 'staff.sign_in_failed'));
    expect(failures.filter((row) => (row.details as { method?: string }).method === 'enrollment').length).toBeGreaterThanOrEqual(2);
  });

  it('refuses an invitation link after 72 hours (410)', async () => {
    expect((await operatorInvite({ email: 'late@reef.example.org', role: 'viewer' })).statusCode).toBe(201);
    const token = await mailedToken('late@reef.example.org', 'enroll');
    const browser = await StaffBrowser.open(t.app, PUBLIC_URL);
    clock.advance(ENROLL_LINK_TTL_MS);
    expect((await browser.request('POST', STAFF_API.enrollOptions, { token })).statusCode).toBe(410);
  });
});

describe('passkey sign-in', () => {
  it('signs in with a new session id each time, updates the counter, and refuses a replayed assertion and an unknown passkey', async () => {
    const browser = await enrolledMember('signer@reef.example.org', 'viewer');
    const enrolledSession = browser.sessionId;
    expect((await browser.request('POST', STAFF_API.signOut, {})).statusCode).toBe(204);
    const first = await passkeySignIn(browser);
    expect(first.statusCode).toBe(200);
    expect(first.json().staffMember.email).toBe('signer@reef.example.org');
    expect(browser.sessionId).toBeDefined();
    expect(browser.sessionId).not.toBe(enrolledSession);
    const [old] = await t.db.select().from(staffSessions).where(eq(staffSessions.idHash, secretHash(enrolledSession ?? '')));
    expect(old?.endedAt).not.toBeNull();
    // Signed in as someone else in this browser, a passkey sign-in ends that session and starts a new one.
    const other = await signInStaffForTest(t.app, t.db, { role: 'admin', now: clock.now() });
    const before = browser.sessionId;
    browser.sessionId = other.sessionId;
    expect((await passkeySignIn(browser)).statusCode).toBe(200);
    expect([before, other.sessionId]).not.toContain(browser.sessionId);
    const [replaced] = await t.db.select().from(staffSessions).where(eq(staffSessions.idHash, secretHash(other.sessionId)));
    expect(replaced?.endedAt).not.toBeNull();
    const [passkey] = await t.db.select().from(staffCredentials).where(eq(staffCredentials.credentialId, browser.authenticator.credentials[0]?.id ?? ''));
    expect(passkey).toMatchObject({ counter: 2, lastUsedAt: clock.now() });

    // A replay of an assertion (its challenge used) fails, as does a passkey the server does not know.
    const { options } = (await browser.request('POST', STAFF_API.signInOptions, {})).json();
    const assertion = browser.authenticator.authenticate(options);
    expect((await browser.request('POST', STAFF_API.signInVerify, { response: assertion })).statusCode).toBe(200);
    const replay = await browser.request('POST', STAFF_API.signInVerify, { response: assertion });
    expect(replay.statusCode).toBe(401);
    expect(replay.json().code).toBe('staff_passkey_failed');
    const stranger = await StaffBrowser.open(t.app, PUBLIC_URL);
    stranger.authenticator.register({ challenge: 'AAAA', rp: { id: 'localhost' }, user: { id: 'c3RyYW5nZXI' } });
    const unknown = await passkeySignIn(stranger);
    expect(unknown.statusCode).toBe(401);
    const systemFailures = await t.db.select().from(adminAuditLog).where(and(eq(adminAuditLog.actorType, 'system'), eq(adminAuditLog.action, 'staff.sign_in_failed')));
    expect(systemFailures.some((row) => (row.details as { reason?: string }).reason === 'unknown passkey')).toBe(true);
  });

  it('refuses an answer to a challenge older than 5 minutes, and the passkey of a removed member', async () => {
    const browser = await enrolledMember('slow@reef.example.org', 'viewer');
    await browser.request('POST', STAFF_API.signOut, {});
    const { options } = (await browser.request('POST', STAFF_API.signInOptions, {})).json();
    clock.advance(CHALLENGE_TTL_MS);
    expect((await browser.request('POST', STAFF_API.signInVerify, { response: browser.authenticator.authenticate(options) })).statusCode).toBe(401);
    expect((await passkeySignIn(browser)).statusCode).toBe(200);

    const admin = await signInStaffForTest(t.app, t.db, { role: 'admin', now: clock.now() });
    const memberId = (await browser.request('GET', STAFF_API.session)).json().staffMember.id;
    const removed = await t.app.inject({ method: 'DELETE', url: staffApiPath(STAFF_API.teamMember, memberId), headers: admin.headers });
    expect(removed.statusCode).toBe(204);
    expect((await browser.request('GET', STAFF_API.session)).statusCode).toBe(401);
    expect((await passkeySignIn(browser)).statusCode).toBe(401);
  });

  it('refuses a cloned passkey whose counter does not grow', async () => {
    const browser = await enrolledMember('cloned@reef.example.org', 'viewer');
    expect((await passkeySignIn(browser)).statusCode).toBe(200);
    const credential = browser.authenticator.credentials[0];
    if (credential) credential.counter = 0;
    expect((await passkeySignIn(browser)).statusCode).toBe(401);
  });

  it('signed in, the same ceremony re-confirms the member: strongAuthAt moves to now, the session stays', async () => {
    const browser = await enrolledMember('reconfirm@reef.example.org', 'finance');
    const sessionId = browser.sessionId;
    clock.advance(20 * 60_000);
    const confirmed = await passkeySignIn(browser);
    expect(confirmed.statusCode).toBe(200);
    expect(browser.sessionId).toBe(sessionId);
    expect((await browser.request('GET', STAFF_API.session)).json().strongAuthAt).toBe(clock.now().toISOString());
    expect(await auditActions(confirmed.json().staffMember.id)).toEqual(['staff.enroll', 'staff.reconfirm']);
  });
});

describe('e-mailed sign-in links', () => {
  it('answers the same 202 for staff and strangers; only staff get a link, which a GET or HEAD does not consume, and which works once', async () => {
    await enrolledMember('linker@reef.example.org', 'viewer');
    smtp.received.length = 0;
    const browser = await StaffBrowser.open(t.app, PUBLIC_URL);
    const forStaff = await browser.request('POST', STAFF_API.signInEmail, { email: 'LINKER@reef.example.org' });
    const forStranger = await browser.request('POST', STAFF_API.signInEmail, { email: 'stranger@example.org' });
    expect([forStaff.statusCode, forStranger.statusCode]).toEqual([202, 202]);
    expect(forStaff.body).toBe(forStranger.body);
    const token = await mailedToken('linker@reef.example.org', 'sign-in');
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]?.text).toContain('The link works once, for 15 minutes.');

    for (const method of ['GET', 'HEAD'] as const) expect((await t.app.inject({ method, url: `/staff/sign-in/${token}` })).statusCode).toBe(200);
    const signedIn = await browser.request('POST', STAFF_API.signInLink, { token });
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json()).toEqual({ staffMember: { id: expect.any(String), email: 'linker@reef.example.org', role: 'viewer' }, needsPasskey: false });
    expect((await browser.request('GET', STAFF_API.session)).statusCode).toBe(200);

    const second = await (await StaffBrowser.open(t.app, PUBLIC_URL)).request('POST', STAFF_API.signInLink, { token });
    expect(second.statusCode).toBe(410);
    expect(second.json().error).toBe('This link has expired or has already been used. Ask for a new one.');
    expect(await auditActions(signedIn.json().staffMember.id)).toEqual(['staff.enroll', 'staff.sign_in']);
  });

  it('answers before it looks the address up: 202 while the staff table is locked, the link queued once it is free (issue #32, part 6)', async () => {
    await enrolledMember('busy@reef.example.org', 'viewer');
    smtp.received.length = 0;
    const browser = await StaffBrowser.open(t.app, PUBLIC_URL);
    // NOTE: without the fix the lookup waits for the lock, the lock for the answer: the test never ends.
    await t.db.transaction(async (tx) => {
      await tx.execute(sql`LOCK TABLE staff_members IN ACCESS EXCLUSIVE MODE`);
      for (const email of ['busy@reef.example.org', 'stranger@example.org']) {
        const answer = await browser.request('POST', STAFF_API.signInEmail, { email });
        expect(answer.statusCode).toBe(202);
        expect(answer.json()).toEqual({ success: true });
      }
    });
    const token = await mailedToken('busy@reef.example.org', 'sign-in');
    expect(smtp.received).toHaveLength(1);
    expect((await browser.request('POST', STAFF_API.signInLink, { token })).statusCode).toBe(200);
  });

  it('refuses a link 15 minutes after it was sent (410), and says a member without a passkey needs one', async () => {
    expect((await operatorInvite({ email: 'nopasskey@reef.example.org', role: 'viewer' })).statusCode).toBe(201);
    const browser = await StaffBrowser.open(t.app, PUBLIC_URL);
    await browser.request('POST', STAFF_API.signInEmail, { email: 'nopasskey@reef.example.org' });
    const late = await mailedToken('nopasskey@reef.example.org', 'sign-in');
    clock.advance(SIGN_IN_LINK_TTL_MS);
    expect((await browser.request('POST', STAFF_API.signInLink, { token: late })).statusCode).toBe(410);

    smtp.received.length = 0;
    await browser.request('POST', STAFF_API.signInEmail, { email: 'nopasskey@reef.example.org' });
    const fresh = await mailedToken('nopasskey@reef.example.org', 'sign-in');
    clock.advance(SIGN_IN_LINK_TTL_MS - 1000);
    const signedIn = await browser.request('POST', STAFF_API.signInLink, { token: fresh });
    expect(signedIn.json()).toMatchObject({ needsPasskey: true });
  });
});

describe('sessions', () => {
  it('sign-out ends the session and clears the cookie; the cookie used again from another browser is refused', async () => {
    const browser = await enrolledMember('leaver@reef.example.org', 'admin');
    const sessionId = browser.sessionId;
    const signedOut = await browser.request('POST', STAFF_API.signOut, {});
    expect(signedOut.statusCode).toBe(204);
    expect(setCookies(signedOut).get('staff_session')).toBe('');
    expect(browser.sessionId).toBeUndefined();
    // Someone copied the cookie before the sign-out and sends it from another browser.
    const other = await StaffBrowser.open(t.app, PUBLIC_URL);
    other.sessionId = sessionId;
    expect((await other.request('GET', STAFF_API.session)).statusCode).toBe(401);
    expect((await other.request('GET', STAFF_API.team)).statusCode).toBe(401);
    // Signing out twice is harmless, with or without a body.
    expect((await browser.request('POST', STAFF_API.signOut)).statusCode).toBe(204);
  });

  it('sets the cookie HttpOnly, SameSite=Strict, Path=/ and never stores the session id itself', async () => {
    const browser = await StaffBrowser.open(t.app, PUBLIC_URL);
    expect((await operatorInvite({ email: 'flags@reef.example.org', role: 'viewer' })).statusCode).toBe(201);
    const token = await mailedToken('flags@reef.example.org', 'enroll');
    const { options } = (await browser.request('POST', STAFF_API.enrollOptions, { token })).json();
    const verified = await browser.request('POST', STAFF_API.enrollVerify, { token, response: browser.authenticator.register(options) });
    const header = [verified.headers['set-cookie']].flat().find((line) => line?.startsWith('staff_session='));
    expect(header).toMatch(/; Path=\/; HttpOnly; SameSite=Strict$/);
    expect(header).not.toMatch(/Secure|Max-Age|Expires|Domain/i);
    const stored = await t.db.select().from(staffSessions);
    expect(stored.some((row) => row.idHash === browser.sessionId)).toBe(false);
    expect(stored.some((row) => row.idHash === secretHash(browser.sessionId ?? ''))).toBe(true);
  });

  it('needs the CSRF token on every write, as the donor side does', async () => {
    const browser = await StaffBrowser.open(t.app, PUBLIC_URL);
    const { cookie } = browser.headers();
    for (const url of [STAFF_API.signInOptions, STAFF_API.signInEmail, STAFF_API.signOut]) {
      const response = await t.app.inject({ method: 'POST', url, headers: { cookie }, payload: { email: 'a@b.org' } });
      expect(response.statusCode).toBe(403);
    }
  });
});

describe('over HTTPS', () => {
  it('names the cookie __Host-staff_session and makes it Secure, and the relying party is PUBLIC_URL\'s host', async () => {
    const https = await createTestApp({ clock, env: { PUBLIC_URL: 'https://give.example.org', ADMIN_TOKEN } });
    try {
      expect(https.app.staffSessionCookieName).toBe('__Host-staff_session');
      const invited = await https.app.inject({
        method: 'POST',
        url: ADMIN_STAFF_PATH,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        payload: { email: 'secure@reef.example.org', role: 'viewer' },
      });
      expect(invited.statusCode).toBe(201);
      const browser = await StaffBrowser.open(https.app, 'https://give.example.org');
      const { options } = (await browser.request('POST', STAFF_API.signInOptions, {})).json();
      expect(options).toMatchObject({ rpId: 'give.example.org', userVerification: 'required' });
      const signOut = await browser.request('POST', STAFF_API.signOut, {});
      expect([signOut.headers['set-cookie']].flat().join('\n')).toMatch(/^__Host-staff_session=; .*Path=\/; .*HttpOnly; Secure; SameSite=Strict/m);
    } finally {
      await https.close();
    }
  });
});
