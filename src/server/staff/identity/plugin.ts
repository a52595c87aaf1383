import type { FastifyInstance } from 'fastify';
import { STAFF_API_PREFIX } from '../../../shared/staff/paths';
import type { ComposeMail } from '../../mail/relay';
import { auditRoutes } from './audit-routes';
import { createStaffComposer } from './compose';
import { enrollRoutes } from './enroll-routes';
import { createStaffLimits } from './limits';
import { createStaffLinks } from './links';
import type { StaffOptions, StaffRouteOptions } from './options';
import { operatorStaffRoutes } from './operator-routes';
import { passkeyRoutes } from './passkey-routes';
import { createRelyingParty } from './relying-party';
import { readSessionCookie, sessionCookieName, sessionCookieSettings } from './session-cookie';
import { sessionRoutes } from './session-routes';
import { resumeSession } from './sessions';
import { signInRoutes } from './sign-in-routes';
import { teamRoutes } from './team-routes';

/**
 * The staff back office's identity (issue #21): the session of every /api/staff/ request (`request.staffMember`,
 * checked by requireStaff in guard.ts), and the identity routes: enrollment, sign-in and out, passkeys, team, audit,
 * and the operator's invitation. The donations part registers its own plugin, after this one.
 */

declare module 'fastify' {
  interface FastifyInstance {
    /** The staff session cookie's name for this app's PUBLIC_URL (`staff_session` or `__Host-staff_session`). */
    staffSessionCookieName: string;
  }
}

/** What registerStaff gives app.ts: the composer of the staff e-mails, for the mail relay. */
export interface StaffPlugin {
  compose: ComposeMail;
}

/**
 * Decorates the app with `staffSessionCookieName` and every request with `staffMember` and `staffSessionId` (null),
 * and adds the root `onRequest` hook that resumes the session of a /api/staff/ request from its cookie
 * (sessions.ts resumeSession: valid at the clock's now, last use moved to now); then registers the identity routes.
 * NOTE: call it on the root instance after the cookie plugin (http/csrf.ts) and the card-testing counter store, and
 * before any plugin with staff routes, which inherit the hook.
 */
export async function registerStaff(app: FastifyInstance, options: StaffOptions): Promise<StaffPlugin> {
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
  const links = createStaffLinks(config.cookieSecret);
  const routeOptions: StaffRouteOptions = {
    ...options,
    cookie,
    links,
    relyingParty: createRelyingParty({ publicUrl: config.site.publicUrl, rpName: config.organization.legalName }),
    limits: createStaffLimits(app, config.cardTesting, config.cookieSecret),
  };
  for (const routes of [sessionRoutes, enrollRoutes, signInRoutes, passkeyRoutes, teamRoutes, auditRoutes, operatorStaffRoutes]) {
    await app.register(routes, routeOptions);
  }
  return { compose: createStaffComposer({ db, links, publicUrl: config.site.publicUrl, organizationName: config.organization.legalName }) };
}
