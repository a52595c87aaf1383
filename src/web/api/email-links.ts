import { apiFetch } from './api-client';
import type { Locale } from '../../shared/i18n/locales';

/**
 * The "e-mail me my links" requests (issue #12: `POST /api/receipts/resend`; issue #13: `POST
 * /api/recurring/manage-links`): `{email}` to a path that answers 202 whatever the address, with the CSRF header as
 * every POST of the page (apiFetch).
 */

/** What the page shows after a request: the confirmation (the same for every address), a field error, or a failure. */
export type EmailLinksOutcome =
  | { kind: 'accepted' }
  | { kind: 'invalid'; message: string }
  | { kind: 'failed'; message: EmailLinksFailure };

/** Why a request failed, as a catalogue id of the page's message (issue #24). */
export type EmailLinksFailure = typeof EMAIL_LINKS_FAILED_MESSAGE | typeof EMAIL_LINKS_TOO_MANY_MESSAGE;

/** Catalogue id of the message when the request did not reach the server or the server failed: nothing was sent, so try again. */
export const EMAIL_LINKS_FAILED_MESSAGE = /*i18n*/ 'emailLinks.failed';

/** Catalogue id of the message on 429: the per-IP limits of the site's write requests (issue #4) stopped this one. */
export const EMAIL_LINKS_TOO_MANY_MESSAGE = /*i18n*/ 'emailLinks.tooMany';

/**
 * Asks `path` to e-mail `email` its links, in the page's language `locale` (issue #24: the e-mail's language).
 * Resolves with `accepted` for the 202 the server answers for every address (so the page cannot tell, nor show,
 * whether that address gave), `invalid` with the server's (English) message for a malformed address (400), and
 * `failed` with the catalogue id of the page's message for a limit (429) or anything else; never rejects.
 */
export async function requestEmailLinks(path: string, email: string, locale: Locale): Promise<EmailLinksOutcome> {
  try {
    const response = await apiFetch(path, { method: 'POST', json: { email, locale } });
    if (response.status === 202) return { kind: 'accepted' };
    const body = (await response.json().catch(() => undefined)) as { fieldErrors?: { email?: string } } | undefined;
    if (response.status === 400 && body?.fieldErrors?.email) return { kind: 'invalid', message: body.fieldErrors.email };
    if (response.status === 429) return { kind: 'failed', message: EMAIL_LINKS_TOO_MANY_MESSAGE };
    return { kind: 'failed', message: EMAIL_LINKS_FAILED_MESSAGE };
  } catch {
    return { kind: 'failed', message: EMAIL_LINKS_FAILED_MESSAGE };
  }
}
