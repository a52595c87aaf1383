import { createHmac, randomUUID } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import { STAFF_PAGES } from '../../../shared/staff/paths';
import type { Database } from '../../db/client';
import { staffLinks, type StaffLinkPurpose } from '../../db/schema';
import { deriveKey } from '../../platform/derived-key';
import { secretHash } from './secret-hash';

/**
 * E-mailed staff links (issue #21): an invitation's enrollment link (72 hours) and a sign-in link (15 minutes), each
 * single use and consumed only by the POST its page makes (a mail scanner's GET or HEAD of the page consumes
 * nothing: the page is the web app's, and this API is never called by a GET). The token is an HMAC of the link's id
 * under a key derived from COOKIE_SECRET, so the mail relay can rebuild it when it sends the message while the
 * database keeps only the token's SHA-256 (decision 0082).
 */

/** How long an invitation's enrollment link is valid (issue #21: 72 hours). */
export const ENROLL_LINK_TTL_MS = 72 * 60 * 60 * 1000;
/** How long an e-mailed sign-in link is valid (issue #21: 15 minutes). */
export const SIGN_IN_LINK_TTL_MS = 15 * 60 * 1000;

const TTL_MS: Record<StaffLinkPurpose, number> = { enroll: ENROLL_LINK_TTL_MS, sign_in: SIGN_IN_LINK_TTL_MS };

/** Label of the key the link tokens are derived with (see deriveKey). */
const LINK_KEY_LABEL = 'staff-links/v1';

/** Makes and checks staff links with one key. */
export interface StaffLinks {
  /** Writes a link of `purpose` for `staffId`, valid from `now`, in `db` (the transaction that queues its e-mail). Returns its id. */
  create(db: Database, { staffId, purpose, now }: { staffId: string; purpose: StaffLinkPurpose; now: Date }): Promise<string>;
  /** The token of the link `linkId`: base64url HMAC-SHA256 of its id (43 characters). */
  tokenOf(linkId: string): string;
  /** The page address of a link: `<PUBLIC_URL>/staff/enroll/<token>` or `<PUBLIC_URL>/staff/sign-in/<token>`. */
  urlOf(publicUrl: string, purpose: StaffLinkPurpose, linkId: string): string;
}

/** The links of `cookieSecret` (COOKIE_SECRET). */
export function createStaffLinks(cookieSecret: string): StaffLinks {
  const key = deriveKey(cookieSecret, LINK_KEY_LABEL);
  const tokenOf = (linkId: string) => createHmac('sha256', key).update(linkId).digest('base64url');
  return {
    async create(db, { staffId, purpose, now }) {
      // NOTE: the id is chosen here, so the token (derived from it) is known before the row is written.
      const id = randomUUID();
      await db.insert(staffLinks).values({
        id,
        staffId,
        purpose,
        createdAt: now,
        expiresAt: new Date(now.getTime() + TTL_MS[purpose]),
        tokenHash: secretHash(tokenOf(id)),
      });
      return id;
    },
    tokenOf,
    urlOf(publicUrl, purpose, linkId) {
      const prefix = purpose === 'enroll' ? STAFF_PAGES.enrollPrefix : STAFF_PAGES.signInLinkPrefix;
      return new URL(`${prefix}${tokenOf(linkId)}`, publicUrl).toString();
    },
  };
}

/** A link that may still be used: its id and member. */
export interface UsableLink {
  id: string;
  staffId: string;
}

/** The conditions of a usable link of `purpose` whose token is `token` at `now`: not consumed, not expired. */
const usable = (token: string, purpose: StaffLinkPurpose, now: Date) =>
  and(eq(staffLinks.tokenHash, secretHash(token)), eq(staffLinks.purpose, purpose), isNull(staffLinks.consumedAt), gt(staffLinks.expiresAt, now));

/** The usable link of `purpose` whose token is `token` at `now`, without consuming it (the enrollment page's options), or undefined. */
export async function findUsableLink(db: Database, token: string, purpose: StaffLinkPurpose, now: Date): Promise<UsableLink | undefined> {
  const [row] = await db.select({ id: staffLinks.id, staffId: staffLinks.staffId }).from(staffLinks).where(usable(token, purpose, now));
  return row;
}

/**
 * Consumes the usable link of `purpose` whose token is `token` at `now`, in one statement (two POSTs at once: one
 * wins), in `db` (the sign-in's transaction). Returns it, or undefined when it is unknown, used, expired or of the other purpose.
 */
export async function consumeLink(db: Database, token: string, purpose: StaffLinkPurpose, now: Date): Promise<UsableLink | undefined> {
  const [row] = await db
    .update(staffLinks)
    .set({ consumedAt: now })
    .where(usable(token, purpose, now))
    .returning({ id: staffLinks.id, staffId: staffLinks.staffId });
  return row;
}
