import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../db/client';
import { adminAuditLog } from '../db/schema';
import { ADMIN_PATH_PREFIX } from './paths';

/**
 * The audit trail of operator actions (issue #14: "Every admin request is recorded in an audit table (action, target,
 * time, request id) and logged"; decision 0059). One root hook records every request to a route under /api/admin/
 * (whichever plugin registered it), and to any other route whose config says `audit: true`, whatever its answer:
 * refusals (401) and unknown admin paths (404) too. The table is append-only (migration 0008's trigger).
 */

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Record this route's requests in the audit log although it is not under /api/admin/ (say GET /metrics behind the token). */
    audit?: boolean;
    /**
     * Top-level body fields an audited route names in its audit target, besides its path parameters and query string
     * (say `['year']`). Only fields that say what the action is about: never a token, card data or a donor's details.
     */
    auditBodyFields?: readonly string[];
  }
}

/** Longest audit target kept, in characters: a query string is the client's, so it is cut. */
export const AUDIT_TARGET_MAX_LENGTH = 500;
/** Longest audit action kept, in characters: the path of a request no route matched is the client's, so it is cut. */
export const AUDIT_ACTION_MAX_LENGTH = 200;

/** What one audit row says (the database adds its time). */
export interface AuditEntry {
  /** The method and route pattern (`POST /api/admin/donations/:id/refund`); the path itself when no route matched. */
  action: string;
  /** What the action was about (`id=...&amount=12.5`), or null when nothing names it. */
  target: string | null;
  /** Fastify's request id, as in the request's log lines. */
  requestId: string;
  /** The status code answered. */
  statusCode: number;
}

/** True when `request` is an operator's: its route (or, with none, its path) is under /api/admin/, or its route says `audit: true`. */
export function isAuditedRequest(request: FastifyRequest): boolean {
  const path = request.routeOptions.url ?? request.url;
  return path.startsWith(ADMIN_PATH_PREFIX) || request.routeOptions.config.audit === true;
}

/** A scalar as text for a target; objects and arrays as JSON (a body field may be one). */
const asText = (value: unknown) => (typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value));

/**
 * The audit entry of `request` answered `reply.statusCode`: the action from the route pattern (Fastify's
 * `routeOptions.url`; the path without its query for a request no route matched), and the target from the path
 * parameters, the query string and the route's `auditBodyFields`, as a query string; each cut at its maximum length
 * (AUDIT_ACTION_MAX_LENGTH, AUDIT_TARGET_MAX_LENGTH).
 * NOTE: the body is read only when the route asks and the body was parsed (not on a 401, refused before).
 */
export function auditEntry(request: FastifyRequest, reply: FastifyReply): AuditEntry {
  const route = request.routeOptions.url;
  const pairs: [string, string][] = [];
  const add = (values: unknown) => {
    for (const [name, value] of Object.entries(typeof values === 'object' && values !== null ? values : {})) {
      if (value !== undefined) pairs.push([name, asText(value)]);
    }
  };
  if (route) add(request.params);
  add(request.query);
  const body = request.body;
  for (const field of request.routeOptions.config.auditBodyFields ?? []) {
    if (typeof body === 'object' && body !== null && field in body) add({ [field]: (body as Record<string, unknown>)[field] });
  }
  const target = new URLSearchParams(pairs).toString();
  return {
    action: `${request.method} ${route ?? request.url.split('?')[0]}`.slice(0, AUDIT_ACTION_MAX_LENGTH),
    target: target === '' ? null : target.slice(0, AUDIT_TARGET_MAX_LENGTH),
    requestId: request.id,
    statusCode: reply.statusCode,
  };
}

/**
 * Adds the root `onSend` hook that records every audited request (isAuditedRequest) in admin_audit_log and logs it
 * (`event: 'admin.audit'`, with the entry), before its answer leaves. A failure to write the row is logged
 * (`admin.audit_failed`, error level) and the answer goes out as it is. Nothing is added with `adminToken` undefined
 * (ADMIN_TOKEN unset: the admin routes do not exist). NOTE: call it on the root instance BEFORE any plugin with admin
 * routes is registered: Fastify copies a parent's hooks into a child plugin when the child is registered.
 */
export function registerAdminAudit(app: FastifyInstance, { db, adminToken }: { db: Database; adminToken: string | undefined }): void {
  if (adminToken === undefined) return;
  app.addHook('onSend', async (request, reply, payload) => {
    if (!isAuditedRequest(request)) return payload;
    const entry = auditEntry(request, reply);
    request.log.info({ event: 'admin.audit', ...entry }, 'Admin request recorded');
    try {
      await db.insert(adminAuditLog).values(entry);
    } catch (error) {
      request.log.error({ event: 'admin.audit_failed', err: error, ...entry }, 'Admin request NOT recorded in the audit log');
    }
    return payload;
  });
}
