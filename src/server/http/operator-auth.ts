import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { apiError, NOT_FOUND_MESSAGE } from './errors';

/**
 * Authentication of operator actions (DESIGN.md, "Operator actions"): `Authorization: Bearer <ADMIN_TOKEN>`,
 * compared in constant time; with ADMIN_TOKEN unset every admin route answers 404, as if it did not exist.
 */

/** 401 of an admin route called without the right bearer token. */
export const ADMIN_UNAUTHORIZED_MESSAGE = 'A valid admin token is required (Authorization: Bearer <ADMIN_TOKEN>).';

/** SHA-256 of a token: both sides of the comparison get the same length whatever was sent. */
const digest = (token: string) => createHash('sha256').update(token, 'utf8').digest();

/**
 * True when `given` equals `expected`. NOTE: constant time in both tokens' contents and lengths: it compares their
 * SHA-256 digests with crypto.timingSafeEqual (which needs equal lengths), so the time taken tells an attacker
 * neither how many leading characters were right nor how long the token is.
 */
export function adminTokenMatches(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}

/** The token of an `Authorization: Bearer <token>` header (scheme case-insensitive, RFC 6750), or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer +([\x21-\x7e]+) *$/i.exec(header ?? '');
  return match?.[1];
}

/**
 * The `onRequest` hook of every admin route, for the admin plugin (and any later admin route) to add: with
 * `adminToken` undefined (ADMIN_TOKEN unset) answers 404 NOT_FOUND_MESSAGE, the same as an unknown path; without
 * a bearer token or with a wrong one answers 401 with `WWW-Authenticate: Bearer` (RFC 6750) and logs
 * `admin.unauthorized` (never the token); otherwise lets the request through. Runs before the body is read.
 */
export function requireAdminToken(adminToken: string | undefined): onRequestAsyncHookHandler {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (adminToken === undefined) return reply.code(404).send(apiError(NOT_FOUND_MESSAGE));
    const given = bearerToken(request.headers.authorization);
    if (given === undefined || !adminTokenMatches(given, adminToken)) {
      request.log.warn({ event: 'admin.unauthorized', tokenSent: given !== undefined }, 'Admin request refused: no valid token');
      return reply.code(401).header('www-authenticate', 'Bearer realm="admin"').send(apiError(ADMIN_UNAUTHORIZED_MESSAGE));
    }
    return undefined;
  };
}
