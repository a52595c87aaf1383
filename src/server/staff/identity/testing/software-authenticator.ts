import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';
import type { z } from 'zod';
import type { AuthenticationResponseJsonSchema, RegistrationResponseJsonSchema } from '../../../../shared/staff/identity-api';

/**
 * A software authenticator for the staff API's tests (issue #21): it answers WebAuthn ceremonies with REAL
 * attestations and assertions, as a browser with a platform authenticator would send them (W3C WebAuthn Level 3,
 * sections 6.1 "Authenticator Data", 6.5.4 "Generating an Attestation Object", 8.7 "None Attestation"): a P-256 key
 * pair per credential (COSE ES256), `none` attestation in CBOR, flags UP and UV (and BE/BS when told), a signature
 * counter, and ECDSA-SHA256 signatures over authenticatorData || SHA-256(clientDataJSON). It stands in for the
 * browser only; the server under test verifies everything with @simplewebauthn/server. The browser tests use
 * Chromium's own virtual authenticator instead.
 */

/** A registration as the API takes it. */
export type RegistrationResponse = z.input<typeof RegistrationResponseJsonSchema>;
/** An assertion as the API takes it. */
export type AuthenticationResponse = z.input<typeof AuthenticationResponseJsonSchema>;

/** Authenticator data flags (WebAuthn section 6.1). */
const FLAGS = { userPresent: 0x01, userVerified: 0x04, backupEligible: 0x08, backedUp: 0x10, attestedCredentialData: 0x40 } as const;

/** One credential the authenticator holds (discoverable: it keeps the user handle). */
export interface SoftwareCredential {
  /** Credential id, base64url. */
  id: string;
  rpId: string;
  /** The user handle the relying party gave (base64url of its user id). */
  userHandle: string;
  privateKey: KeyObject;
  /** COSE_Key of the public key. */
  cosePublicKey: Uint8Array;
  counter: number;
}

/** What the ceremonies can be told to do wrong or differently. */
export interface CeremonyOptions {
  /** The origin the "browser" puts in clientDataJSON (default the authenticator's origin). */
  origin?: string;
  /** Leave out the UV flag (the user was not verified). */
  withoutUserVerification?: boolean;
  /** Report the credential as backed up (multi-device passkey). */
  backedUp?: boolean;
}

const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();
const b64url = (data: Uint8Array) => Buffer.from(data).toString('base64url');

/** 4-byte big-endian counter. */
function counterBytes(counter: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(counter);
  return bytes;
}

/** The COSE_Key (RFC 9053, EC2, ES256, P-256) of a P-256 public key. */
function coseKeyOf(publicKey: KeyObject): Uint8Array {
  const jwk = publicKey.export({ format: 'jwk' });
  return isoCBOR.encode(
    new Map<number, number | Uint8Array>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, new Uint8Array(Buffer.from(jwk.x ?? '', 'base64url'))],
      [-3, new Uint8Array(Buffer.from(jwk.y ?? '', 'base64url'))],
    ]),
  );
}

/** A software authenticator whose "browser" runs at `origin` (say PUBLIC_URL's origin). */
export class SoftwareAuthenticator {
  readonly credentials: SoftwareCredential[] = [];

  constructor(readonly origin: string) {}

  /**
   * Answers creation options (PublicKeyCredentialCreationOptionsJSON from the API) with a new credential: `none`
   * attestation, flags UP|UV|AT (and BE|BS when `backedUp`), counter 0. The credential is kept for later sign-ins.
   */
  register(options: { challenge: string; rp: { id?: string }; user: { id: string } }, ceremony: CeremonyOptions = {}): RegistrationResponse {
    const rpId = options.rp.id ?? new URL(this.origin).hostname;
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    const credentialId = randomBytes(32);
    const cosePublicKey = coseKeyOf(publicKey);
    const credential: SoftwareCredential = { id: b64url(credentialId), rpId, userHandle: options.user.id, privateKey, cosePublicKey, counter: 0 };
    const lengthBytes = Buffer.alloc(2);
    lengthBytes.writeUInt16BE(credentialId.length);
    const authenticatorData = Buffer.concat([
      sha256(rpId),
      Buffer.from([this.flags(ceremony) | FLAGS.attestedCredentialData]),
      counterBytes(credential.counter),
      Buffer.alloc(16),
      lengthBytes,
      credentialId,
      Buffer.from(cosePublicKey),
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Map<string, string> | Uint8Array>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, string>()],
        ['authData', new Uint8Array(authenticatorData)],
      ]),
    );
    this.credentials.push(credential);
    return {
      id: credential.id,
      rawId: credential.id,
      type: 'public-key',
      response: {
        clientDataJSON: this.clientData('webauthn.create', options.challenge, ceremony),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
    };
  }

  /**
   * Answers request options (PublicKeyCredentialRequestOptionsJSON from the API) with `credential` (default the
   * newest held): its counter goes up by one; the signature covers authenticatorData || SHA-256(clientDataJSON).
   */
  authenticate(options: { challenge: string; rpId?: string }, credential = this.credentials.at(-1), ceremony: CeremonyOptions = {}): AuthenticationResponse {
    if (!credential) throw new Error('The authenticator holds no credential');
    credential.counter += 1;
    const authenticatorData = Buffer.concat([sha256(options.rpId ?? credential.rpId), Buffer.from([this.flags(ceremony)]), counterBytes(credential.counter)]);
    const clientDataJSON = this.clientData('webauthn.get', options.challenge, ceremony);
    const signature = sign('sha256', Buffer.concat([authenticatorData, sha256(Buffer.from(clientDataJSON, 'base64url'))]), credential.privateKey);
    return {
      id: credential.id,
      rawId: credential.id,
      type: 'public-key',
      response: { clientDataJSON, authenticatorData: b64url(authenticatorData), signature: b64url(signature), userHandle: credential.userHandle },
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
    };
  }

  private flags({ withoutUserVerification, backedUp }: CeremonyOptions): number {
    return FLAGS.userPresent | (withoutUserVerification ? 0 : FLAGS.userVerified) | (backedUp ? FLAGS.backupEligible | FLAGS.backedUp : 0);
  }

  /** clientDataJSON (WebAuthn section 5.8.1), base64url. */
  private clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string, { origin }: CeremonyOptions): string {
    return Buffer.from(JSON.stringify({ type, challenge, origin: origin ?? this.origin, crossOrigin: false })).toString('base64url');
  }
}
