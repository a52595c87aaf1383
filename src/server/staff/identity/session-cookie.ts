import type { CookieSerializeOptions } from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HOST_COOKIE_PREFIX } from '../../../shared/api';

/**
 * The staff session cookie (issue #21, "Sessions"; OWASP Session Management Cheat Sheet, "Cookies"): `staff_session`
 * over plain HTTP (`http://localhost`), `__Host-staff_session` with Secure when PUBLIC_URL is https (the prefix makes
 * browsers refuse one planted by a sibling subdomain or over HTTP); always HttpOnly, SameSite=Strict, Path=/, no
 * Domain, no Max-Age (a browser-session cookie: the server's idle and absolute timeouts decide how long it counts).
 */

/** The cookie's name over plain HTTP. */
export const STAFF_SESSION_COOKIE = 'staff_session';
/** The cookie's name when the site is served over HTTPS. */
export const STAFF_SESSION_HTTPS_COOKIE = `${HOST_COOKIE_PREFIX}${STAFF_SESSION_COOKIE}`;

/** Where the cookie's name and flags come from: whether PUBLIC_URL is https. */
export interface SessionCookieSettings {
  secure: boolean;
}

/** The settings for `publicUrl` (PUBLIC_URL): secure when its scheme is https. */
export function sessionCookieSettings(publicUrl: string): SessionCookieSettings {
  return { secure: new URL(publicUrl).protocol === 'https:' };
}

/** The cookie's name under `settings`. */
export function sessionCookieName({ secure }: SessionCookieSettings): string {
  return secure ? STAFF_SESSION_HTTPS_COOKIE : STAFF_SESSION_COOKIE;
}

const optionsOf = ({ secure }: SessionCookieSettings): CookieSerializeOptions => ({ path: '/', httpOnly: true, sameSite: 'strict', secure });

/** The session id the request's cookie holds, or undefined. */
export function readSessionCookie(request: FastifyRequest, settings: SessionCookieSettings): string | undefined {
  return request.cookies[sessionCookieName(settings)];
}

/** Sets the cookie to `sessionId` on `reply`. */
export function setSessionCookie(reply: FastifyReply, settings: SessionCookieSettings, sessionId: string): void {
  reply.setCookie(sessionCookieName(settings), sessionId, optionsOf(settings));
}

/** Clears the cookie on `reply` (sign-out, or a session found ended). */
export function clearSessionCookie(reply: FastifyReply, settings: SessionCookieSettings): void {
  reply.clearCookie(sessionCookieName(settings), optionsOf(settings));
}
