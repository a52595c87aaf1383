import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CreationOptionsJsonSchema,
  EmptyBodySchema,
  IDENTITY_AUDIT_ACTIONS,
  PasskeyAddedSchema,
  PasskeyListSchema,
  PasskeyVerifyRequestSchema,
  type Passkey,
} from '../../../shared/staff/identity-api';
import { STAFF_API } from '../../../shared/staff/paths';
import type { StaffCredentialRow } from '../../db/schema';
import { errorAnswers, PAGE_WRITE_ERRORS } from '../../http/error-answers';
import { recordStaffAction } from './audit-record';
import { staffError, staffErrorAnswers } from './errors';
import { PASSKEY_NOT_CREATED_MESSAGE } from './enroll-routes';
import { requireStaff, signedInMember } from './guard';
import type { StaffRouteOptions } from './options';
import { countPasskeys, deletePasskey, insertPasskey, listPasskeys } from './passkey-store';

/** 409 when a member would remove their only passkey (decision 0083). */
export const LAST_PASSKEY_MESSAGE = 'This is your only passkey. Add another one before removing it.';
/** 404 of a passkey that is not the member's. */
export const PASSKEY_NOT_FOUND_MESSAGE = 'No such passkey.';

/** A passkey row as the API shows it (never its public key). */
function passkeyOf(row: StaffCredentialRow): Passkey {
  return {
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    deviceType: row.deviceType,
    backedUp: row.backedUp,
  };
}

/** The signed-in member's passkeys (issue #21: "A staff member may hold several passkeys and remove them"); any role. */
export const passkeyRoutes: FastifyPluginAsyncZod<StaffRouteOptions> = async (app, { db, clock, relyingParty }) => {
  const signedIn = requireStaff('read');

  /** GET /api/staff/passkeys: 200 `{passkeys}`, oldest first; 401; 500. */
  app.get(
    STAFF_API.passkeys,
    {
      preHandler: signedIn,
      schema: { summary: 'My passkeys', response: { 200: PasskeyListSchema, ...staffErrorAnswers(401, 403), ...errorAnswers(500) } },
    },
    async (request) => ({ passkeys: (await listPasskeys(db, signedInMember(request).id)).map(passkeyOf) }),
  );

  /**
   * POST /api/staff/passkeys/options `{}`: 200 `{options}`: creation options for another passkey of the signed-in
   * member (theirs excluded), the challenge kept for 5 minutes. 401; the page-write errors.
   */
  app.post(
    STAFF_API.passkeyOptions,
    {
      preHandler: signedIn,
      schema: {
        summary: 'Start adding a passkey',
        body: EmptyBodySchema,
        response: { 200: z.object({ options: CreationOptionsJsonSchema }), ...errorAnswers(...PAGE_WRITE_ERRORS), ...staffErrorAnswers(401, 403) },
      },
    },
    async (request) => {
      const member = signedInMember(request);
      return { options: await relyingParty.registrationOptions(db, member, await listPasskeys(db, member.id), 'add_passkey', clock.now()) };
    },
  );

  /**
   * POST /api/staff/passkeys/verify `{response}`: verifies the registration against the member's `add_passkey`
   * challenge (used once) and stores the passkey, audited `staff.passkey_add`, in one transaction. 201 `{passkey}`;
   * 400 `staff_passkey_failed`; 401; the page-write errors.
   */
  app.post(
    STAFF_API.passkeyVerify,
    {
      preHandler: signedIn,
      schema: {
        summary: 'Finish adding a passkey',
        body: PasskeyVerifyRequestSchema,
        response: { 201: PasskeyAddedSchema, ...errorAnswers(...PAGE_WRITE_ERRORS), ...staffErrorAnswers(400, 401, 403) },
      },
    },
    async (request, reply) => {
      const member = signedInMember(request);
      const now = clock.now();
      const passkey = await relyingParty.verifyRegistration(
        db,
        { staffId: member.id, purpose: 'add_passkey', response: request.body.response as RegistrationResponseJSON, now },
        (reason) => request.log.warn({ event: 'staff.passkey_add_failed', staffId: member.id, reason }, 'Passkey not added'),
      );
      const stored =
        passkey &&
        (await db.transaction(async (tx) => {
          const row = await insertPasskey(tx, member.id, passkey, now);
          if (row) await recordStaffAction(tx, { staffMember: member, action: IDENTITY_AUDIT_ACTIONS.passkeyAdd, subjectType: 'passkey', subjectId: row.id, requestId: request.id });
          return row;
        }));
      if (!stored) return reply.code(400).send(staffError(PASSKEY_NOT_CREATED_MESSAGE, 'staff_passkey_failed'));
      return reply.code(201).send({ passkey: passkeyOf(stored) });
    },
  );

  /**
   * DELETE /api/staff/passkeys/:id: removes one of the member's passkeys, audited `staff.passkey_remove`, in one
   * transaction. 204; 404 not theirs; 409 `staff_last_passkey` their only one (decision 0083); 401; the page-write errors.
   */
  app.delete(
    STAFF_API.passkey,
    {
      preHandler: signedIn,
      schema: {
        summary: 'Remove one of my passkeys',
        params: z.object({ id: z.uuid({ error: 'No such passkey' }) }),
        body: EmptyBodySchema,
        response: {
          204: z.null().describe('Removed.'),
          ...errorAnswers(...PAGE_WRITE_ERRORS),
          ...staffErrorAnswers(401, 403, 404, 409),
        },
      },
    },
    async (request, reply) => {
      const member = signedInMember(request);
      const outcome = await db.transaction(async (tx) => {
        // NOTE: counted and deleted in one transaction; two removals at once could still both see two, which leaves the
        // member with the e-mailed link as their way in: acceptable, and what the page never does.
        if ((await countPasskeys(tx, member.id)) <= 1) return 'last';
        if (!(await deletePasskey(tx, member.id, request.params.id))) return 'missing';
        await recordStaffAction(tx, { staffMember: member, action: IDENTITY_AUDIT_ACTIONS.passkeyRemove, subjectType: 'passkey', subjectId: request.params.id, requestId: request.id });
        return 'removed';
      });
      if (outcome === 'last') return reply.code(409).send(staffError(LAST_PASSKEY_MESSAGE, 'staff_last_passkey'));
      if (outcome === 'missing') return reply.code(404).send(staffError(PASSKEY_NOT_FOUND_MESSAGE, 'staff_not_found'));
      return reply.code(204).send(null);
    },
  );
};
