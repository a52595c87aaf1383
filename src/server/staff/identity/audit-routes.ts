import { and, count, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AuditPageSchema, AuditQuerySchema, type AuditQuery, type AuditRow } from '../../../shared/staff/identity-api';
import { STAFF_API } from '../../../shared/staff/paths';
import type { Database } from '../../db/client';
import { adminAuditLog } from '../../db/schema';
import { errorAnswers } from '../../http/error-answers';
import { auditRowOf } from './audit-record';
import { staffErrorAnswers } from './errors';
import { requireStaff } from './guard';
import type { StaffRouteOptions } from './options';

const DAY_MS = 24 * 60 * 60 * 1000;

/** `text` as a LIKE pattern matching itself anywhere (`%`, `_` and backslash taken literally), lower-cased. */
function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`;
}

/**
 * The conditions of `query`'s filters (issue #36, part 2): actor (`operator`, or any part of a staff address, any
 * case: `margaret@` finds `margaret@reef.example`), action (any part of its name, any case: `refund` finds every refund
 * action), subject (exact), UTC days from/to inclusive.
 */
function auditFilters(query: AuditQuery): SQL | undefined {
  const conditions: SQL[] = [];
  if (query.actor) {
    conditions.push(
      query.actor.toLowerCase() === 'operator' ? eq(adminAuditLog.actorType, 'operator') : sql`lower(${adminAuditLog.actorEmail}) LIKE ${containsPattern(query.actor)}`,
    );
  }
  if (query.action) conditions.push(sql`lower(${adminAuditLog.action}) LIKE ${containsPattern(query.action)}`);
  if (query.subjectId) conditions.push(eq(adminAuditLog.subjectId, query.subjectId));
  if (query.from) conditions.push(gte(adminAuditLog.createdAt, new Date(`${query.from}T00:00:00Z`)));
  if (query.to) conditions.push(lt(adminAuditLog.createdAt, new Date(new Date(`${query.to}T00:00:00Z`).getTime() + DAY_MS)));
  return conditions.length === 0 ? undefined : and(...conditions);
}

/** One page of the audit log matching `query`, newest first, and how many entries match in all. */
export async function auditPage(db: Database, query: AuditQuery): Promise<{ rows: AuditRow[]; total: number }> {
  const where = auditFilters(query);
  const [rows, [totals]] = await Promise.all([
    db
      .select()
      .from(adminAuditLog)
      .where(where)
      .orderBy(desc(adminAuditLog.createdAt), desc(adminAuditLog.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize),
    db.select({ total: count() }).from(adminAuditLog).where(where),
  ]);
  return { rows: rows.map(auditRowOf), total: totals?.total ?? 0 };
}

/** The audit log for admins (issue #21, "Audit": every staff and operator action with who, when, what and on which record). */
export const auditRoutes: FastifyPluginAsyncZod<StaffRouteOptions> = async (app, { db }) => {
  /**
   * GET /api/staff/audit?actor=&action=&subjectId=&from=&to=&page=&pageSize=: 200 `{rows, total, page, pageSize}`,
   * newest first (right `audit`). 400 a bad filter; 401; 403 not an admin; 500.
   */
  app.get(
    STAFF_API.audit,
    {
      preHandler: requireStaff('audit'),
      schema: {
        summary: 'The audit log',
        querystring: AuditQuerySchema,
        response: { 200: AuditPageSchema, ...errorAnswers(400, 500), ...staffErrorAnswers(401, 403) },
      },
    },
    async (request) => ({ ...(await auditPage(db, request.query)), page: request.query.page, pageSize: request.query.pageSize }),
  );
};
