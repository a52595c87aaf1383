import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { STAFF_MAIL_KINDS, staffLinks, staffMembers, type MailKind, type MailOutboxRow, type StaffMailKind } from '../../db/schema';
import { PermanentComposeError, type ComposedMail, type ComposeMail } from '../../mail/relay';
import { renderEmailParts } from '../../mail/render-email';
import { StaffInvitationEmail, StaffSignInLinkEmail } from './emails';
import type { StaffLinks } from './links';

/** True for a kind of {@link STAFF_MAIL_KINDS} (the staff plugin composes it). */
export function isStaffMailKind(kind: MailKind): kind is StaffMailKind {
  return (STAFF_MAIL_KINDS as readonly MailKind[]).includes(kind);
}

/** What the staff mail composer needs. */
export interface StaffComposerDeps {
  db: Database;
  links: StaffLinks;
  /** PUBLIC_URL, the links' origin. */
  publicUrl: string;
  /** ORG_LEGAL_NAME. */
  organizationName: string;
}

/**
 * The composer of `staff_invitation` and `staff_sign_in_link` messages (issue #21; the relay's `compose` for those
 * kinds, app.ts): reads the row's link and its member when the message is sent, rebuilds the link's token from its id
 * (links.ts) and renders the message. Rejects with PermanentComposeError for another kind or a row whose link is gone
 * (not retried), and with the database's error when a query fails (retried).
 */
export function createStaffComposer({ db, links, publicUrl, organizationName }: StaffComposerDeps): ComposeMail {
  return async (row: MailOutboxRow): Promise<ComposedMail> => {
    if (!isStaffMailKind(row.kind) || row.staffLinkId === null) throw new PermanentComposeError(`Outbox message ${row.id} (${row.kind}) is not a staff message`);
    const [link] = await db
      .select({ id: staffLinks.id, purpose: staffLinks.purpose, role: staffMembers.role })
      .from(staffLinks)
      .innerJoin(staffMembers, eq(staffMembers.id, staffLinks.staffId))
      .where(eq(staffLinks.id, row.staffLinkId));
    if (!link) throw new PermanentComposeError(`The link of outbox message ${row.id} is gone`);
    const url = links.urlOf(publicUrl, link.purpose, link.id);
    if (row.kind === 'staff_invitation') {
      return {
        to: row.recipient,
        subject: `You are invited to the ${organizationName} donations back office`,
        ...(await renderEmailParts(<StaffInvitationEmail organizationName={organizationName} role={link.role} enrollUrl={url} />)),
      };
    }
    return {
      to: row.recipient,
      subject: `Your sign-in link to the ${organizationName} back office`,
      ...(await renderEmailParts(<StaffSignInLinkEmail organizationName={organizationName} signInUrl={url} />)),
    };
  };
}
