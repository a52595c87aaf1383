import { StaffApiError } from '../api/staff-fetch';

/**
 * A failure of a staff action in words for the page: the API's own message, or for the browser's WebAuthn errors (the
 * person closed the passkey prompt, no passkey on this device) a sentence that says what to do.
 */
export function describeError(error: unknown): string {
  if (error instanceof StaffApiError) return error.message;
  if (error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError')) {
    return 'The passkey prompt was closed or timed out. Try again, or ask for a sign-in link by e-mail.';
  }
  if (error instanceof Error && error.name === 'InvalidStateError') return 'This device already holds a passkey for your account.';
  return error instanceof Error ? error.message : String(error);
}
