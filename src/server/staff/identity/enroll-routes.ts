import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  EnrollOptionsRequestSchema,
  EnrollOptionsSchema,
  EnrollVerifyRequestSchema,
  IDENTITY_AUDIT_ACTIONS,
  STAFF_LINK_INVALID_MESSAGE,
  StaffSignedInSchema,
} from '../../../shared/staff/identity-api';
import { STAFF_API } from '../../../shared/staff/paths';
import { errorAnswers, PAGE_WRITE_ERRORS } from '../../http/error-answers';
import { staffError, staffErrorAnswers } from './errors';
import { consumeLink, findUsableLink } from './links';
import { findMemberById } from './member-store';
import type { StaffRouteOptions } from './options';
import { insertPasskey, listPasskeys } from './passkey-store';
import { setSessionCookie } from './session-cookie';
import { recordSignInFailure, signInWithin, staffMemberOf } from './sign-in';

/** 400 of a passkey registration that failed to verify (or came too late for its challenge). */
export const PASSKEY_NOT_CREATED_MESSAGE = 'The passkey could not be created. Please try again.';

/**
 * Enrollment by invitation (issue #21, "Passkeys"): the page of `<PUBLIC_URL>/staff/enroll/<token>` asks for creation
 * options with the token (checked, not consumed), has the browser create a discoverable passkey, and sends it back
 * with the token, which is then consumed; the member is signed in.
 */
export const enrollRoutes: FastifyPluginAsyncZod<StaffRouteOptions> = async (app, { db, clock, cookie, relyingParty, limits }) => {
  /**
   * POST /api/staff/enroll/options `{token}`: 200 `{options, email}`: creation options for the invited member (resident
   * key and user verification required, their passkeys excluded), the challenge kept server-side for 5 minutes. The
   * token is checked, not consumed. 410 `staff_link_invalid` used, expired or unknown; 429; the page-write errors.
   */
  app.post(
    STAFF_API.enrollOptions,
    {
      schema: {
        summary: 'Start enrolling a passkey from an invitation',
        body: EnrollOptionsRequestSchema,
        response: { 200: EnrollOptionsSchema, ...errorAnswers(...PAGE_WRITE_ERRORS), ...staffErrorAnswers(410, 429) },
      },
    },
    async (request, reply) => {
      const limited = await limits.attempt(request, reply);
      if (limited) return limited;
      const now = clock.now();
      const link = await findUsableLink(db, request.body.token, 'enroll', now);
      const member = link && (await findMemberById(db, link.staffId));
      if (!member) return reply.code(410).send(staffError(STAFF_LINK_INVALID_MESSAGE, 'staff_link_invalid'));
      const options = await relyingParty.registrationOptions(db, member, await listPasskeys(db, member.id), 'enroll', now);
      return { options, email: member.email };
    },
  );

  /**
   * POST /api/staff/enroll/verify `{token, response}`: verifies the registration against the member's enrollment
   * challenge (used once), then in one transaction consumes the invitation, stores the passkey, starts a session
   * (cookie set) and audits `staff.enroll`. 200 `{staffMember}`; 400 `staff_passkey_failed` (audited; the link stays
   * usable); 410 `staff_link_invalid`; 429; the page-write errors.
   */
  app.post(
    STAFF_API.enrollVerify,
    {
      schema: {
        summary: 'Finish enrolling a passkey from an invitation; signs the member in',
        body: EnrollVerifyRequestSchema,
        response: { 200: StaffSignedInSchema, ...errorAnswers(...PAGE_WRITE_ERRORS), ...staffErrorAnswers(400, 410, 429) },
      },
    },
    async (request, reply) => {
      const limited = await limits.attempt(request, reply);
      if (limited) return limited;
      const now = clock.now();
      const gone = () => reply.code(410).send(staffError(STAFF_LINK_INVALID_MESSAGE, 'staff_link_invalid'));
      const link = await findUsableLink(db, request.body.token, 'enroll', now);
      const member = link && (await findMemberById(db, link.staffId));
      if (!member) return gone();
      let failure = 'registration not verified';
      const passkey = await relyingParty.verifyRegistration(
        db,
        { staffId: member.id, purpose: 'enroll', response: request.body.response as RegistrationResponseJSON, now },
        (reason) => {
          failure = reason;
        },
      );
      if (!passkey) {
        await recordSignInFailure(db, request, { member, method: 'enrollment', reason: failure });
        return reply.code(400).send(staffError(PASSKEY_NOT_CREATED_MESSAGE, 'staff_passkey_failed'));
      }
      const sessionId = await db.transaction(async (tx) => {
        if (!(await consumeLink(tx, request.body.token, 'enroll', now))) return undefined;
        const stored = await insertPasskey(tx, member.id, passkey, now);
        if (!stored) return undefined;
        return signInWithin(tx, request, { member, method: 'enrollment', action: IDENTITY_AUDIT_ACTIONS.enroll, now, details: { passkeyId: stored.id } });
      });
      if (sessionId === undefined) return gone();
      setSessionCookie(reply, cookie, sessionId);
      return { staffMember: staffMemberOf(member) };
    },
  );
};
