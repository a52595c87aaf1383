import * as crypto from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { adminAuditLog, donations, mailOutbox, staffMembers } from '../db/schema';
import { NOT_FOUND_MESSAGE } from '../http/errors';
import { runAdminCommand as admin } from '../testing/admin-command';
import { memoryLog } from '../testing/payment-attempts';
import { createTestApp, validSubmission, type TestApp } from '../testing/test-app';
import { ADMIN_UNAUTHORIZED_MESSAGE, adminTokenMatches, bearerToken } from '../http/operator-auth';
import { ADMIN_STATEMENTS_RUN_PATH } from './paths';

// NOTE: timingSafeEqual as it is, watched, so a test can check that every comparison of tokens goes through it.
vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:crypto')>();
  return { ...actual, timingSafeEqual: vi.fn(actual.timingSafeEqual) };
});

/**
 * Authentication of /api/admin/* (DESIGN.md, "Operator actions"): 404 for every admin route without ADMIN_TOKEN,
 * 401 without or with a wrong bearer token, compared in constant time; no CSRF token needed; never cached; and
 * `npm run admin` (scripts/admin.ts) as a client of the running server.
 */

const ADMIN_TOKEN = 'correct-horse-battery-staple-0123456789';
const LAST_YEAR = new Date().getUTCFullYear() - 1;
const run = (app: TestApp, headers: Record<string, string> = {}, payload: unknown = { year: LAST_YEAR }) =>
  app.app.inject({ method: 'POST', url: ADMIN_STATEMENTS_RUN_PATH, headers, payload: payload as object });

describe('without ADMIN_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('every admin route answers 404, whatever the token, as an unknown path does', async () => {
    for (const headers of [{} as Record<string, string>, { authorization: `Bearer ${ADMIN_TOKEN}` }, { authorization: 'Bearer x' }]) {
      const answer = await run(t, headers);
      expect(answer.statusCode).toBe(404);
      expect(answer.json()).toEqual({ success: false, error: NOT_FOUND_MESSAGE, code: 'not_found' });
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/anything' })).statusCode).toBe(404);
    expect((await run(t, {}, { nonsense: true })).statusCode).toBe(404);
    // Nothing is audited either (issue #14): the admin routes do not exist.
    expect(await t.db.select().from(adminAuditLog)).toEqual([]);
  });
});

describe('with ADMIN_TOKEN', () => {
  const log = memoryLog();
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { ADMIN_TOKEN }, logger: log.logger });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 401 with WWW-Authenticate without a token, with a wrong one, or another scheme; never logs the token', async () => {
    const cases: Record<string, string>[] = [{}, { authorization: 'Bearer wrong-token' }, { authorization: `Bearer ${ADMIN_TOKEN}x` }, { authorization: `Basic ${ADMIN_TOKEN}` }, { authorization: ADMIN_TOKEN }];
    for (const headers of cases) {
      const answer = await run(t, headers);
      expect(answer.statusCode, JSON.stringify(headers)).toBe(401);
      expect(answer.json()).toEqual({ success: false, error: ADMIN_UNAUTHORIZED_MESSAGE });
      expect(answer.headers['www-authenticate']).toBe('Bearer realm="admin"');
      expect(answer.headers['cache-control']).toBe('no-store');
    }
    expect(log.lines.join('\n')).not.toContain(ADMIN_TOKEN);
    expect(log.lines.join('\n')).not.toContain('wrong-token');
  });

  it('lets the right token through with no CSRF cookie or header (a machine route), never cached', async () => {
    const answer = await run(t, { authorization: `bearer ${ADMIN_TOKEN}` });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ queued: 0 });
    expect(answer.headers['cache-control']).toBe('no-store');
    expect((await run(t, { authorization: `Bearer ${ADMIN_TOKEN}` }, { year: 'last' })).statusCode).toBe(400);
  });

  it('compares tokens in constant time: SHA-256 digests of both through crypto.timingSafeEqual, whatever their lengths', () => {
    const timingSafeEqual = vi.mocked(crypto.timingSafeEqual);
    timingSafeEqual.mockClear();
    expect(adminTokenMatches(ADMIN_TOKEN, ADMIN_TOKEN)).toBe(true);
    expect(adminTokenMatches('short', ADMIN_TOKEN)).toBe(false);
    expect(adminTokenMatches(`${ADMIN_TOKEN}-and-longer`, ADMIN_TOKEN)).toBe(false);
    expect(adminTokenMatches(`${ADMIN_TOKEN.slice(0, -1)}!`, ADMIN_TOKEN)).toBe(false);
    expect(timingSafeEqual).toHaveBeenCalledTimes(4);
    for (const [a, b] of timingSafeEqual.mock.calls) {
      expect([(a as Buffer).length, (b as Buffer).length]).toEqual([32, 32]);
    }
  });

  it('reads the bearer token of an Authorization header (RFC 6750), and nothing else', () => {
    expect(bearerToken(`Bearer ${ADMIN_TOKEN}`)).toBe(ADMIN_TOKEN);
    expect(bearerToken(`BEARER  ${ADMIN_TOKEN} `)).toBe(ADMIN_TOKEN);
    expect(bearerToken(undefined)).toBeUndefined();
    expect(bearerToken('Bearer')).toBeUndefined();
    expect(bearerToken('Bearer a b')).toBeUndefined();
    expect(bearerToken(`Basic ${ADMIN_TOKEN}`)).toBeUndefined();
  });
});

describe('npm run admin', () => {
  let t: TestApp;
  let url: string;
  beforeAll(async () => {
    t = await createTestApp({ env: { ADMIN_TOKEN } });
    url = await t.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('`statements --year` queues through the running server and says how many; a wrong token or a bad year exits non-zero', async () => {
    const ok = await admin(['statements', '--year', String(LAST_YEAR)], { ADMIN_TOKEN, ADMIN_URL: url });
    expect(ok).toMatchObject({ code: 0, stderr: '' });
    expect(ok.stdout).toContain(`Queued 0 year-end statements for ${LAST_YEAR}`);

    const wrong = await admin(['statements', '--year', String(LAST_YEAR)], { ADMIN_TOKEN: 'x'.repeat(40), ADMIN_URL: url });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('refused the token');

    const future = await admin(['statements', '--year', String(LAST_YEAR + 2)], { ADMIN_TOKEN, ADMIN_URL: url });
    expect(future.code).toBe(1);
    expect(future.stderr).toContain('only for a year that is over');

    const noYear = await admin(['statements'], { ADMIN_TOKEN, ADMIN_URL: url });
    expect(noYear.code).toBe(2);
  }, 60_000);

  it('`refund <id> [--amount]` refunds through the running server and says what; a repeat with the printed key refunds nothing more; refusals exit non-zero', async () => {
    const given = await t.postDonation(validSubmission({ amount: 25 }));
    const transactionId = given.json<{ data: { transactionId: string } }>().data.transactionId;
    const [donation] = await t.db.select({ id: donations.id }).from(donations).where(eq(donations.gatewayTransactionId, transactionId));
    const id = donation?.id ?? '';
    const env = { ADMIN_TOKEN, ADMIN_URL: url };

    const part = await admin(['refund', id, '--amount', '10.50'], env);
    expect(part).toMatchObject({ code: 0, stderr: '' });
    expect(part.stdout).toMatch(/Refunded \$10\.50 \(gateway refund re_test_\w+\): \$10\.50 of the donation's \$25\.00 refunded so far\./);
    const key = /Idempotency-Key (\S+)/.exec(part.stdout)?.[1] ?? '';
    const again = await admin(['refund', id, '--amount', '10.50', '--idempotency-key', key], env);
    expect(again.code).toBe(0);
    expect((await t.db.select().from(donations).where(eq(donations.id, id)))[0]?.refundedCents).toBe(1050);

    const rest = await admin(['refund', id], env);
    expect(rest.stdout).toContain('Refunded $14.50');
    expect(rest.stdout).toContain('the donation of $25.00 is refunded in full.');
    const refused = await admin(['refund', id], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('refunded in full already');
    expect((await admin(['refund', id, '--amount', '1.005'], env)).code).toBe(2);
    expect((await admin(['refund'], env)).code).toBe(2);
  }, 60_000);

  it('`staff invite <email> --role <role>` invites through the running server (issue #21), which queues the invitation; a bad role, a taken address or no address exit non-zero', async () => {
    const ok = await admin(['staff', 'invite', 'first-admin@reef.example.org', '--role', 'admin'], { ADMIN_TOKEN, ADMIN_URL: url });
    expect(ok).toMatchObject({ code: 0, stderr: '' });
    expect(ok.stdout).toContain('Invited first-admin@reef.example.org as admin');
    const [member] = await t.db.select().from(staffMembers).where(eq(staffMembers.email, 'first-admin@reef.example.org'));
    expect(member?.role).toBe('admin');
    const [mail] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, 'first-admin@reef.example.org'));
    expect(mail?.kind).toBe('staff_invitation');

    const taken = await admin(['staff', 'invite', 'FIRST-ADMIN@reef.example.org', '--role', 'viewer'], { ADMIN_TOKEN, ADMIN_URL: url });
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain('This address is already on the team.');
    expect((await admin(['staff', 'invite', 'x@reef.example.org', '--role', 'owner'], { ADMIN_TOKEN, ADMIN_URL: url })).code).toBe(2);
    expect((await admin(['staff', 'invite'], { ADMIN_TOKEN, ADMIN_URL: url })).code).toBe(2);
    const badAddress = await admin(['staff', 'invite', 'not-an-address', '--role', 'viewer'], { ADMIN_TOKEN, ADMIN_URL: url });
    expect(badAddress.code).toBe(1);
    expect(badAddress.stderr).toContain('Please enter a valid email address');
  });
});
