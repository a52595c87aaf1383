import { type Locale, SOURCE_LOCALE } from '../../shared/i18n/locales';
import { localizedPath } from '../../shared/i18n/locale-paths';
import { managePlanPagePath } from '../../shared/recurring';
import { createCapabilitySigner, type CapabilitySigner } from '../platform/capability-link';
import { deriveKey } from '../platform/derived-key';

/**
 * The donor's manage link of a recurring plan (issue #13): `<PUBLIC_URL>/donate/manage/<token>`, a signed capability
 * (capability-link.ts, the receipts' links' code) naming one plan id: unguessable (192 bits), scoped to that plan,
 * no account. Every e-mail of a plan signs a fresh one, so a donor's latest message always holds a valid link.
 */

/** How long a manage link is valid, in days: 10 years; each later e-mail of the plan carries a newer one. */
export const MANAGE_LINK_VALID_DAYS = 10 * 366;

/** The signer of manage links, under a key derived from COOKIE_SECRET with its own label (changing the secret voids the links). */
export function createManageLinkSigner(cookieSecret: string): CapabilitySigner {
  return createCapabilitySigner(deriveKey(cookieSecret, 'recurring-manage-links'), { purpose: 'recurring-plan', validDays: MANAGE_LINK_VALID_DAYS });
}

/**
 * The absolute manage link of `planId`, signed at `now`, on the site at `publicUrl` (PUBLIC_URL), to the page in
 * `locale` (issue #24: `/es/donate/manage/<token>`; English, the spec's path, by default).
 */
export function manageUrl(signer: CapabilitySigner, publicUrl: string, planId: string, now: Date, locale: Locale = SOURCE_LOCALE): string {
  return new URL(localizedPath(locale, managePlanPagePath(signer.sign(planId, now))), publicUrl).toString();
}
