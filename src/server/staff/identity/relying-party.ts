import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { z } from 'zod';
import type { CreationOptionsJsonSchema, RequestOptionsJsonSchema } from '../../../shared/staff/identity-api';
import { and, eq, gt, lte } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { staffWebauthnChallenges, type StaffCredentialRow, type WebAuthnChallengePurpose } from '../../db/schema';

/**
 * The WebAuthn relying party of the staff back office (issue #21, "Passkeys"; W3C WebAuthn Level 3), on
 * @simplewebauthn/server: RP ID = PUBLIC_URL's host name, expected origin = PUBLIC_URL's origin, discoverable
 * credentials (resident key required) and user verification required, no attestation asked (decision 0083). Every
 * challenge is kept server-side with its purpose and member, expires after CHALLENGE_TTL_MS, and is deleted by the
 * verification that uses it (WebAuthn section 13.4.3), so it answers one ceremony.
 */

/** How long a ceremony's challenge may be answered: 5 minutes (the browser's own timeout is the options' `timeout`, 1 minute less). */
export const CHALLENGE_TTL_MS = 5 * 60 * 1000;
const CEREMONY_TIMEOUT_MS = CHALLENGE_TTL_MS - 60 * 1000;

/** PublicKeyCredentialCreationOptionsJSON as the API answers it. */
export type CreationOptionsJson = z.infer<typeof CreationOptionsJsonSchema>;
/** PublicKeyCredentialRequestOptionsJSON as the API answers it. */
export type RequestOptionsJson = z.infer<typeof RequestOptionsJsonSchema>;

/** A new passkey, as it is stored (staff_credentials). */
export interface NewPasskey {
  credentialId: string;
  /** The COSE public key, base64url. */
  publicKey: string;
  counter: number;
  transports: string[];
  deviceType: 'singleDevice' | 'multiDevice';
  backedUp: boolean;
}

/** What a verified assertion tells: the credential's new signature counter and backup state. */
export interface VerifiedAssertion {
  newCounter: number;
  deviceType: 'singleDevice' | 'multiDevice';
  backedUp: boolean;
}

/** The ceremonies, each against a challenge kept in the database. */
export interface RelyingParty {
  /** RP ID: PUBLIC_URL's host name. */
  readonly rpId: string;
  /** Expected origin: PUBLIC_URL's origin. */
  readonly origin: string;
  /**
   * Creation options for `member` (user handle = the member's id), excluding the credentials they hold, with a new
   * challenge of `purpose` (`enroll` or `add_passkey`) stored for them until now + CHALLENGE_TTL_MS.
   */
  registrationOptions(
    db: Database,
    member: { id: string; email: string },
    held: Pick<StaffCredentialRow, 'credentialId' | 'transports'>[],
    purpose: WebAuthnChallengePurpose,
    now: Date,
  ): Promise<CreationOptionsJson>;
  /**
   * Verifies a registration of `staffId` against a stored, unexpired challenge of `purpose` issued to them (deleting
   * it): origin, RP ID hash, user presence and verification, the public key. Returns the passkey, or undefined when
   * anything fails (the reason is logged by the caller from `onFailure`).
   */
  verifyRegistration(
    db: Database,
    { staffId, purpose, response, now }: { staffId: string; purpose: WebAuthnChallengePurpose; response: RegistrationResponseJSON; now: Date },
    onFailure: (reason: string) => void,
  ): Promise<NewPasskey | undefined>;
  /** Request options for a discoverable sign-in (no allow list), with a new `sign_in` challenge stored until now + CHALLENGE_TTL_MS. */
  authenticationOptions(db: Database, now: Date): Promise<RequestOptionsJson>;
  /**
   * Verifies an assertion by `credential` against a stored, unexpired `sign_in` challenge (deleting it): origin, RP ID
   * hash, user presence and verification, the signature, a counter that grew. Returns what it tells, or undefined.
   */
  verifyAuthentication(
    db: Database,
    { credential, response, now }: { credential: StaffCredentialRow; response: AuthenticationResponseJSON; now: Date },
    onFailure: (reason: string) => void,
  ): Promise<VerifiedAssertion | undefined>;
}

/** Deletes the unexpired challenge `challenge` of `purpose` (and of `staffId`, when given) at `now`; true when there was one. */
async function consumeChallenge(db: Database, challenge: string, purpose: WebAuthnChallengePurpose, staffId: string | null, now: Date): Promise<boolean> {
  const rows = await db
    .delete(staffWebauthnChallenges)
    .where(
      and(
        eq(staffWebauthnChallenges.challenge, challenge),
        eq(staffWebauthnChallenges.purpose, purpose),
        gt(staffWebauthnChallenges.expiresAt, now),
      ),
    )
    .returning({ staffId: staffWebauthnChallenges.staffId });
  return rows.length === 1 && (staffId === null || rows[0]?.staffId === staffId);
}

/** Deletes the challenges that expired before `now` (each options request does, so the table stays small). */
async function deleteExpiredChallenges(db: Database, now: Date): Promise<void> {
  await db.delete(staffWebauthnChallenges).where(lte(staffWebauthnChallenges.expiresAt, now));
}

/** The relying party of `publicUrl` (PUBLIC_URL), named `rpName` in the browser's passkey dialog. */
export function createRelyingParty({ publicUrl, rpName }: { publicUrl: string; rpName: string }): RelyingParty {
  const url = new URL(publicUrl);
  const rpId = url.hostname;
  const origin = url.origin;
  const store = async (db: Database, challenge: string, purpose: WebAuthnChallengePurpose, staffId: string | null, now: Date) => {
    await deleteExpiredChallenges(db, now);
    await db.insert(staffWebauthnChallenges).values({ challenge, purpose, staffId, expiresAt: new Date(now.getTime() + CHALLENGE_TTL_MS) });
  };
  return {
    rpId,
    origin,
    async registrationOptions(db, member, held, purpose, now) {
      const options = await generateRegistrationOptions({
        rpName,
        rpID: rpId,
        userName: member.email,
        userDisplayName: member.email,
        userID: new TextEncoder().encode(member.id),
        timeout: CEREMONY_TIMEOUT_MS,
        attestationType: 'none',
        excludeCredentials: held.map((credential) => ({ id: credential.credentialId, transports: credential.transports })),
        authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'required' },
      });
      await store(db, options.challenge, purpose, member.id, now);
      // NOTE: copied into plain objects, which TypeScript lets stand for the schema's open (loose) objects.
      return { ...options, rp: { ...options.rp }, user: { ...options.user } };
    },
    async verifyRegistration(db, { staffId, purpose, response, now }, onFailure) {
      try {
        const { verified, registrationInfo } = await verifyRegistrationResponse({
          response,
          expectedChallenge: (challenge) => consumeChallenge(db, challenge, purpose, staffId, now),
          expectedOrigin: origin,
          expectedRPID: rpId,
          requireUserVerification: true,
        });
        if (!verified) {
          onFailure('registration not verified');
          return undefined;
        }
        const { credential, credentialDeviceType, credentialBackedUp } = registrationInfo;
        return {
          credentialId: credential.id,
          publicKey: Buffer.from(credential.publicKey).toString('base64url'),
          counter: credential.counter,
          transports: credential.transports ?? response.response.transports ?? [],
          deviceType: credentialDeviceType,
          backedUp: credentialBackedUp,
        };
      } catch (error) {
        onFailure(error instanceof Error ? error.message : String(error));
        return undefined;
      }
    },
    async authenticationOptions(db, now) {
      const options = await generateAuthenticationOptions({ rpID: rpId, userVerification: 'required', timeout: CEREMONY_TIMEOUT_MS });
      await store(db, options.challenge, 'sign_in', null, now);
      return { ...options };
    },
    async verifyAuthentication(db, { credential, response, now }, onFailure) {
      try {
        const { verified, authenticationInfo } = await verifyAuthenticationResponse({
          response,
          expectedChallenge: (challenge) => consumeChallenge(db, challenge, 'sign_in', null, now),
          expectedOrigin: origin,
          expectedRPID: rpId,
          credential: {
            id: credential.credentialId,
            publicKey: new Uint8Array(Buffer.from(credential.publicKey, 'base64url')),
            counter: credential.counter,
            transports: credential.transports,
          },
          requireUserVerification: true,
        });
        if (!verified) {
          onFailure('assertion not verified');
          return undefined;
        }
        return { newCounter: authenticationInfo.newCounter, deviceType: authenticationInfo.credentialDeviceType, backedUp: authenticationInfo.credentialBackedUp };
      } catch (error) {
        onFailure(error instanceof Error ? error.message : String(error));
        return undefined;
      }
    },
  };
}
