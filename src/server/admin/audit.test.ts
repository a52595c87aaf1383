import { randomUUID } from 'node:crypto';
import { desc, eq, inArray, sql } from 'drizzle-orm';
import Fastify, { type InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '../../shared/api';
import { adminAuditLog } from '../db/schema';
import { ADMIN_BILLING_RUN_PATH } from '../recurring/plugin';
import { faultyDatabase, type FaultyDatabase } from '../testing/faulty-database';
import { memoryLog } from '../testing/payment-attempts';
import { createTestApp, type TestApp } from '../testing/test-app';
import { registerAdminAudit } from './audit';
import { ADMIN_STATEMENTS_RUN_PATH, adminDonationRefundPath } from './paths';

/**
 * The audit trail of operator actions (issue #14; decision 0059): every request to an /api/admin/* route, whichever
 * plugin registered it, and to a route marked `audit: true`, is recorded in admin_audit_log (action, target, request
 * id, status, time) and logged (`admin.audit`), refusals included; a database failure while recording is logged and
 * the answer goes out; the table refuses UPDATE and DELETE (without ADMIN_TOKEN nothing is recorded: admin.test.ts).
 * Runs on the embedded PostgreSQL test server, and on DATABASE_URL's when it is set.
 */

const ADMIN_TOKEN = 'correct-horse-battery-staple-0123456789';
const LAST_YEAR = new Date().getUTCFullYear() - 1;
const bearer = { authorization: `Bearer ${ADMIN_TOKEN}` };

/** The audit row of request `requestId` in `db`'s log. */
const auditRowOf = async (t: { db: TestApp['db'] }, requestId: string) =>
  (await t.db.select().from(adminAuditLog).where(eq(adminAuditLog.requestId, requestId)).orderBy(desc(adminAuditLog.createdAt)))[0];

describe('with ADMIN_TOKEN', () => {
  const log = memoryLog();
  let t: TestApp;
  let faulty: FaultyDatabase;
  beforeAll(async () => {
    t = await createTestApp({ env: { ADMIN_TOKEN }, logger: log.logger, database: (handle) => (faulty = faultyDatabase(handle)).db });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Sends `request`; resolves with its answer and the request id of its log lines. */
  async function send(request: InjectOptions) {
    const before = log.lines.length;
    const answer = await t.app.inject(request);
    const requestIds = log.lines.slice(before).map((line) => (JSON.parse(line) as { reqId?: string }).reqId).filter(Boolean);
    return { answer, requestId: requestIds[0] ?? '' };
  }

  it('records and logs the admin routes of every plugin (statements, billing, refunds) with their action, target, request id and status', async () => {
    const startedAt = new Date(Date.now() - 1000);
    const statements = await send({ method: 'POST', url: ADMIN_STATEMENTS_RUN_PATH, headers: bearer, payload: { year: LAST_YEAR } });
    expect(statements.answer.statusCode).toBe(200);
    const row = await auditRowOf(t, statements.requestId);
    expect(row).toMatchObject({ action: `POST ${ADMIN_STATEMENTS_RUN_PATH}`, target: null, statusCode: 200 });
    expect(row?.createdAt.getTime()).toBeGreaterThan(startedAt.getTime());

    const billing = await send({ method: 'POST', url: ADMIN_BILLING_RUN_PATH, headers: bearer, payload: {} });
    expect(await auditRowOf(t, billing.requestId)).toMatchObject({ action: `POST ${ADMIN_BILLING_RUN_PATH}`, statusCode: 200 });

    const donationId = randomUUID();
    const refund = await send({ method: 'POST', url: adminDonationRefundPath(donationId), headers: { ...bearer, 'idempotency-key': 'k1' }, payload: { amount: 12.5 } });
    expect(refund.answer.statusCode).toBe(404);
    expect(await auditRowOf(t, refund.requestId)).toMatchObject({
      action: 'POST /api/admin/donations/:id/refund',
      target: `id=${donationId}&amount=12.5`,
      statusCode: 404,
    });
    expect(log.events('admin.audit')).toContainEqual(
      expect.objectContaining({ reqId: refund.requestId, action: 'POST /api/admin/donations/:id/refund', target: `id=${donationId}&amount=12.5`, statusCode: 404 }),
    );
  });

  it('records refused requests (401, never the token), unknown admin paths with their query, and no request outside /api/admin', async () => {
    const refused = await send({ method: 'POST', url: ADMIN_STATEMENTS_RUN_PATH, headers: { authorization: 'Bearer wrong-token-0123456789' }, payload: { year: LAST_YEAR } });
    expect(refused.answer.statusCode).toBe(401);
    expect(await auditRowOf(t, refused.requestId)).toMatchObject({ action: `POST ${ADMIN_STATEMENTS_RUN_PATH}`, target: null, statusCode: 401 });

    const unknown = await send({ method: 'GET', url: `/api/admin/donations.xls?from=2026-01-01&note=${'x'.repeat(600)}`, headers: bearer });
    expect(unknown.answer.statusCode).toBe(404);
    const unknownRow = await auditRowOf(t, unknown.requestId);
    expect(unknownRow).toMatchObject({ action: 'GET /api/admin/donations.xls', statusCode: 404 });
    expect(unknownRow?.target).toMatch(/^from=2026-01-01&note=x+$/);
    expect(unknownRow?.target).toHaveLength(500);
    // A long unknown path, without a token: its action is cut too.
    const long = await send({ method: 'GET', url: `/api/admin/${'y'.repeat(20_000)}` });
    expect(long.answer.statusCode).toBe(404);
    expect((await auditRowOf(t, long.requestId))?.action).toBe(`GET /api/admin/${'y'.repeat(200 - 'GET /api/admin/'.length)}`);

    const donor = await send({ method: 'GET', url: API_PATHS.donationStats });
    expect(donor.answer.statusCode).toBe(200);
    expect(await auditRowOf(t, donor.requestId)).toBeUndefined();
    expect(log.lines.join('\n')).not.toContain('wrong-token-0123456789');
  });

  it('logs a database failure while recording (admin.audit_failed) and still answers', async () => {
    faulty.down = true;
    try {
      const refused = await send({ method: 'POST', url: ADMIN_STATEMENTS_RUN_PATH, payload: { year: LAST_YEAR } });
      expect(refused.answer.statusCode).toBe(401);
      expect(log.events('admin.audit_failed')).toContainEqual(expect.objectContaining({ reqId: refused.requestId, statusCode: 401, level: 50 }));
    } finally {
      faulty.down = false;
    }
  });

  it('records a route marked audit: true outside /api/admin (say GET /metrics behind the token), registered in any plugin; not one without the mark', async () => {
    const other = Fastify({ logger: false });
    registerAdminAudit(other, { db: t.db, adminToken: ADMIN_TOKEN });
    await other.register(async (child) => {
      child.get('/metrics', { config: { audit: true } }, async () => 'ok');
      child.get('/other', async () => 'ok');
    });
    try {
      expect((await other.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(200);
      expect((await other.inject({ method: 'GET', url: '/other' })).statusCode).toBe(200);
      const rows = await t.db.select().from(adminAuditLog).where(inArray(adminAuditLog.action, ['GET /metrics', 'GET /other']));
      expect(rows).toEqual([expect.objectContaining({ action: 'GET /metrics', target: null, statusCode: 200 })]);
    } finally {
      await other.close();
    }
  });

  it('is append-only: the database refuses to UPDATE or DELETE a recorded request', async () => {
    await send({ method: 'POST', url: ADMIN_STATEMENTS_RUN_PATH, payload: { year: LAST_YEAR } });
    const count = async () => (await t.db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(adminAuditLog))[0]?.n;
    const before = await count();
    expect(before).toBeGreaterThan(0);
    await expect(t.db.update(adminAuditLog).set({ statusCode: 200 })).rejects.toThrow();
    await expect(t.db.delete(adminAuditLog)).rejects.toThrow();
    await expect(t.db.execute(sql`DELETE FROM admin_audit_log WHERE status_code = 401`)).rejects.toThrow();
    expect(await count()).toBe(before);
  });
});
