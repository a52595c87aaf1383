import { startAuthentication, startRegistration } from '@simplewebauthn/browser';
import type { SignInLinkSchema, StaffMember, StaffSession } from '../../../../shared/staff/identity-api';
import type { z } from 'zod';
import { STAFF_API } from '../../../../shared/staff/paths';
import { staffFetch } from '../../api/staff-fetch';

/**
 * The identity calls of the staff pages (issue #21): the session, passkey sign-in and enrollment with the browser's own
 * WebAuthn (@simplewebauthn/browser over navigator.credentials), e-mailed links, sign-out.
 */

/** GET /api/staff/session: the signed-in member and how many passkeys they hold; rejects with 401 when signed out. */
export function fetchStaffSession(): Promise<StaffSession> {
  return staffFetch(STAFF_API.session);
}

/**
 * "Sign in with a passkey": asks the server for a challenge (discoverable credential, so no e-mail is typed), lets the
 * browser's authenticator sign it, and has the server verify it, which sets the session cookie. Also re-confirms a
 * signed-in member before a refund (the server then renews their strong authentication). Rejects with the browser's
 * error (the person cancelled) or a StaffApiError.
 */
export async function signInWithPasskey(): Promise<StaffMember> {
  const { options } = await staffFetch<{ options: Parameters<typeof startAuthentication>[0]['optionsJSON'] }>(STAFF_API.signInOptions, {
    method: 'POST',
    json: {},
  });
  const response = await startAuthentication({ optionsJSON: options });
  const { staffMember } = await staffFetch<{ staffMember: StaffMember }>(STAFF_API.signInVerify, { method: 'POST', json: { response } });
  return staffMember;
}

/** "Email me a sign-in link": POST of the address; resolves for every address alike (the server answers 202). */
export async function requestSignInLink(email: string): Promise<void> {
  await staffFetch(STAFF_API.signInEmail, { method: 'POST', json: { email } });
}

/** Signs in with an e-mailed link's token (consumes it); `needsPasskey` when the member should add a passkey now. */
export function signInWithLink(token: string): Promise<z.infer<typeof SignInLinkSchema>> {
  return staffFetch(STAFF_API.signInLink, { method: 'POST', json: { token } });
}

/** The invitation of `token`: the address it was sent to (checks the token, consumes nothing); 410 when unusable. */
export async function fetchEnrollmentEmail(token: string): Promise<{ email: string; options: Parameters<typeof startRegistration>[0]['optionsJSON'] }> {
  return staffFetch(STAFF_API.enrollOptions, { method: 'POST', json: { token } });
}

/**
 * "Create a passkey" from an invitation: the browser's authenticator creates a discoverable credential for the options
 * the server gave; the server verifies it, consumes the token and signs the new member in.
 */
export async function enrollWithPasskey(token: string, options: Parameters<typeof startRegistration>[0]['optionsJSON']): Promise<StaffMember> {
  const response = await startRegistration({ optionsJSON: options });
  const { staffMember } = await staffFetch<{ staffMember: StaffMember }>(STAFF_API.enrollVerify, { method: 'POST', json: { token, response } });
  return staffMember;
}

/** Adds a passkey to the signed-in member's account (options, the authenticator, verify). */
export async function addPasskey(): Promise<void> {
  const { options } = await staffFetch<{ options: Parameters<typeof startRegistration>[0]['optionsJSON'] }>(STAFF_API.passkeyOptions, {
    method: 'POST',
    json: {},
  });
  const response = await startRegistration({ optionsJSON: options });
  await staffFetch(STAFF_API.passkeyVerify, { method: 'POST', json: { response } });
}

/** Ends the session (204); the server clears the cookie. */
export async function signOut(): Promise<void> {
  await staffFetch(STAFF_API.signOut, { method: 'POST' });
}
