import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import type { FastifyBaseLogger } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  EmptyBodySchema,
  IDENTITY_AUDIT_ACTIONS,
  SignInEmailAcceptedSchema,
  SignInEmailRequestSchema,
  SignInLinkRequestSchema,
  SignInLinkSchema,
  SignInOptionsSchema,
  SignInVerifyRequestSchema,
  STAFF_LINK_INVALID_MESSAGE,
  StaffSignedInSchema,
} from '../../../shared/staff/identity-api';
import { STAFF_API } from '../../../shared/staff/paths';
import { errorAnswers, PAGE_WRITE_ERRORS } from '../../http/error-answers';
import { enqueueMail } from '../../mail/outbox';
import { recordStaffAction, recordSystemAction } from './audit-record';
import { staffError, staffErrorAnswers } from './errors';
import { consumeLink } from './links';
import { findMemberByEmail, findMemberById } from './member-store';
import type { StaffRouteOptions } from './options';
import { countPasskeys, findPasskeyOfMember, recordPasskeyUse } from './passkey-store';
import { clearSessionCookie, setSessionCookie } from './session-cookie';
import { confirmSession, endSession } from './sessions';
import { recordSignInFailure, signInWithin, staffMemberOf } from './sign-in';

/** 401 of a passkey that did not prove anything: unknown, of a removed member, or its assertion failed. */
export const PASSKEY_SIGN_IN_FAILED_MESSAGE = 'That passkey did not sign you in. Try again, or ask for a sign-in link by e-mail.';

/**
 * Signing in and out (issue #21, "Passkeys", "Fallback", "Sessions"): a discoverable passkey sign-in (also the
 * re-confirmation of a signed-in member before a refund), an e-mailed sign-in link asked for and used, and sign-out.
 */
export const signInRoutes: FastifyPluginAsyncZod<StaffRouteOptions> = async (app, { db, clock, cookie, links, relyingParty, limits }) => {
  /**
   * POST /api/staff/sign-in/options `{}`: 200 `{options}`, request options for a discoverable credential with user
   * verification required; the challenge is kept server-side for 5 minutes, single use. 429 too many attempts from
   * this IP; the page-write errors (400, 403 CSRF, 413, 415, 500).
   */
  app.post(
    STAFF_API.signInOptions,
    {
      schema: {
        summary: 'Start a passkey sign-in',
        body: EmptyBodySchema,
        response: { 200: SignInOptionsSchema, ...errorAnswers(...PAGE_WRITE_ERRORS), ...staffErrorAnswers(429) },
      },
    },
    async (request, reply) => {
      const limited = await limits.attempt(request, reply);
      if (limited) return limited;
      return { options: await relyingParty.authenticationOptions(db, clock.now()) };
    },
  );

  /**
   * POST /api/staff/sign-in/verify `{response}`: verifies the assertion against a challenge of sign-in/options (used
   * once) and the stored passkey (origin, RP ID, user verification, signature, counter), then in one transaction
   * records the passkey's use and either re-confirms the member's current session (strongAuthAt = now; same member)
   * or starts a new session (cookie set), audited. 200 `{staffMember}`; 401 `staff_passkey_failed` (audited); 429;
   * the page-write errors.
   */
  app.post(
    STAFF_API.signInVerify,
    {
      schema: {
        summary: 'Finish a passkey sign-in (or re-confirm the signed-in member)',
        body: SignInVerifyRequestSchema,
        response: { 200: StaffSignedInSchema, ...errorAnswers(...PAGE_WRITE_ERRORS), ...staffErrorAnswers(401, 429) },
      },
    },
    async (request, reply) => {
      const limited = await limits.attempt(request, reply);
      if (limited) return limited;
      const now = clock.now();
      const response = request.body.response as AuthenticationResponseJSON;
      const found = await findPasskeyOfMember(db, response.id);
      const refuse = async (reason: string) => {
        await recordSignInFailure(db, request, { member: found?.member, method: 'passkey', reason });
        return reply.code(401).send(staffError(PASSKEY_SIGN_IN_FAILED_MESSAGE, 'staff_passkey_failed'));
      };
      if (!found) return refuse('unknown passkey');
      let failure = 'assertion not verified';
      const assertion = await relyingParty.verifyAuthentication(db, { credential: found.passkey, response, now }, (reason) => {
        failure = reason;
      });
      if (!assertion) return refuse(failure);
      const { member, passkey } = found;
      const current = request.staffMember;
      const sessionId = await db.transaction(async (tx) => {
        await recordPasskeyUse(tx, passkey.id, assertion, now);
        if (current?.id === member.id && request.staffSessionId !== null) {
          await confirmSession(tx, request.staffSessionId, now);
          await recordStaffAction(tx, { staffMember: member, action: IDENTITY_AUDIT_ACTIONS.reconfirm, subjectType: 'passkey', subjectId: passkey.id, requestId: request.id });
          return undefined;
        }
        return signInWithin(tx, request, { member, method: 'passkey', action: IDENTITY_AUDIT_ACTIONS.signIn, now, details: { passkeyId: passkey.id } });
      });
      if (sessionId !== undefined) setSessionCookie(reply, cookie, sessionId);
      return { staffMember: staffMemberOf(member) };
    },
  );

  /**
   * E-mails a sign-in link to `email` when it is a member's (findMemberByEmail): in one transaction a link valid 15
   * minutes made at `now`, its e-mail queued, the audit entry; logs `staff.sign_in_link_requested` either way.
   */
  const sendSignInLink = async (log: FastifyBaseLogger, requestId: string, email: string, now: Date) => {
    const member = await findMemberByEmail(db, email);
    if (member) {
      await db.transaction(async (tx) => {
        const linkId = await links.create(tx, { staffId: member.id, purpose: 'sign_in', now });
        await enqueueMail(tx, { kind: 'staff_sign_in_link', dedupeKey: `staff_sign_in_link:${linkId}`, recipient: member.email, staffLinkId: linkId });
        await recordSystemAction(tx, { action: IDENTITY_AUDIT_ACTIONS.signInLinkSent, subjectType: 'staff_member', subjectId: member.id, requestId });
      });
    }
    log.info({ event: 'staff.sign_in_link_requested', staff: member !== undefined }, 'Staff sign-in link requested');
  };

  /**
   * POST /api/staff/sign-in/email `{email}`: 202 `{success: true}` whatever the address (no answer says who is staff,
   * OWASP Authentication Cheat Sheet, "Authentication and Error Messages"), answered before the address is even looked
   * up, so that its timing does not tell a member's address from a stranger's either (issue #32, part 6; decision
   * 0097c): once the answer has left (onResponse), sendSignInLink runs as work after the reply (platform/after-reply.ts:
   * a failure logged as `staff.sign_in_link_failed`, waited for by the app's close). 429 too many requests from this IP
   * or for this address (checked before answering, the same for every address); the page-write errors.
   */
  app.post(
    STAFF_API.signInEmail,
    {
      schema: {
        summary: 'E-mail a sign-in link',
        body: SignInEmailRequestSchema,
        response: { 202: SignInEmailAcceptedSchema, ...errorAnswers(...PAGE_WRITE_ERRORS), ...staffErrorAnswers(429) },
      },
      onResponse: async (request, reply) => {
        if (reply.statusCode !== 202) return;
        const now = clock.now();
        app.afterReply.run(request.log, 'staff.sign_in_link_failed', () => sendSignInLink(request.log, request.id, request.body.email, now));
      },
    },
    async (request, reply) => {
      const limited = await limits.linkRequest(request, reply, request.body.email);
      if (limited) return limited;
      return reply.code(202).send({ success: true });
    },
  );

  /**
   * POST /api/staff/sign-in/link `{token}`: consumes the e-mailed sign-in link (single use, 15 minutes; a GET or HEAD
   * of its page consumed nothing) and signs its member in, in one transaction, audited. 200 `{staffMember,
   * needsPasskey}` (true when they hold no passkey: the page then offers to add one) with the session cookie; 410
   * `staff_link_invalid` for a used, expired or unknown link (audited); 429; the page-write errors.
   */
  app.post(
    STAFF_API.signInLink,
    {
      schema: {
        summary: 'Sign in with an e-mailed link',
        body: SignInLinkRequestSchema,
        response: { 200: SignInLinkSchema, ...errorAnswers(...PAGE_WRITE_ERRORS), ...staffErrorAnswers(410, 429) },
      },
    },
    async (request, reply) => {
      const limited = await limits.attempt(request, reply);
      if (limited) return limited;
      const now = clock.now();
      const signedIn = await db.transaction(async (tx) => {
        const link = await consumeLink(tx, request.body.token, 'sign_in', now);
        const member = link && (await findMemberById(tx, link.staffId));
        if (!member) return undefined;
        const sessionId = await signInWithin(tx, request, { member, method: 'link', action: IDENTITY_AUDIT_ACTIONS.signIn, now });
        return { member, sessionId, passkeyCount: await countPasskeys(tx, member.id) };
      });
      if (!signedIn) {
        await recordSignInFailure(db, request, { method: 'link', reason: 'link used, expired or unknown' });
        return reply.code(410).send(staffError(STAFF_LINK_INVALID_MESSAGE, 'staff_link_invalid'));
      }
      setSessionCookie(reply, cookie, signedIn.sessionId);
      return { staffMember: staffMemberOf(signedIn.member), needsPasskey: signedIn.passkeyCount === 0 };
    },
  );

  /**
   * POST /api/staff/sign-out `{}`: ends the request's session (audited) and clears the cookie; 204 whether or not it had
   * one, so signing out twice is harmless. The page-write errors.
   */
  app.post(
    STAFF_API.signOut,
    {
      schema: {
        summary: 'Sign out',
        body: EmptyBodySchema,
        response: { 204: z.null().describe('Signed out; the session cookie is cleared.'), ...errorAnswers(...PAGE_WRITE_ERRORS) },
      },
    },
    async (request, reply) => {
      const member = request.staffMember;
      const sessionId = request.staffSessionId;
      if (member !== null && sessionId !== null) {
        await db.transaction(async (tx) => {
          await endSession(tx, sessionId, clock.now());
          await recordStaffAction(tx, { staffMember: member, action: IDENTITY_AUDIT_ACTIONS.signOut, requestId: request.id });
        });
      }
      clearSessionCookie(reply, cookie);
      return reply.code(204).send(null);
    },
  );
};
