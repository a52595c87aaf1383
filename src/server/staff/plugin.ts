import type { FastifyInstance } from 'fastify';
import { STAFF_API_PREFIX } from '../../shared/staff/paths';
import type { StaffOptions } from './options';
import { sessionRoutes } from './session-routes';
import { readSessionCookie, sessionCookieName, sessionCookieSettings } from './session-cookie';
import { resumeSession } from './sessions';

/**
 * The staff back office's identity (issue #21): the session of every /api/staff/ request (`request.staffMember`,
 * checked by requireStaff in guard.ts), and the identity routes. The donations part registers its own plugin.
 */

declare module 'fastify' {
  interface FastifyInstance {
    /** The staff session cookie's name for this app's PUBLIC_URL (`staff_session` or `__Host-staff_session`). */
    staffSessionCookieName: string;
  }
}

/**
 * Decorates the app with `staffSessionCookieName` and every request with `staffMember` and `staffSessionId` (null), and adds the root `onRequest` hook that
 * resumes the session of a /api/staff/ request from its cookie (sessions.ts resumeSession: valid at the clock's now,
 * last use moved to now); then registers the identity routes. NOTE: call it on the root instance after the cookie
 * plugin (http/csrf.ts) and before any plugin with staff routes, which inherit the hook.
 */
export async function registerStaff(app: FastifyInstance, options: StaffOptions): Promise<void> {
  const { db, config, clock } = options;
  const cookie = sessionCookieSettings(config.site.publicUrl);
  app.decorate('staffSessionCookieName', sessionCookieName(cookie));
  app.decorateRequest('staffMember', null);
  app.decorateRequest('staffSessionId', null);
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith(STAFF_API_PREFIX)) return;
    const sessionId = readSessionCookie(request, cookie);
    if (sessionId === undefined) return;
    const session = await resumeSession(db, sessionId, clock.now());
    if (!session) return;
    request.staffMember = session.staffMember;
    request.staffSessionId = session.sessionId;
  });
  await app.register(sessionRoutes, { ...options, cookie });
}
