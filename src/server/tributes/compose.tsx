import { eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { donations, TRIBUTE_MAIL_KINDS, type MailKind, type MailOutboxRow } from '../db/schema';
import { PermanentComposeError, type ComposedMail, type ComposeMail } from '../mail/relay';
import { renderEmailParts } from '../mail/render-email';
import type { OrganizationProfile } from '../platform/config';
import type { Locale } from '../../shared/i18n/locales';
import { serverI18n } from '../i18n/catalogues';
import { tributeCardHeadline, TributeCardEmail, type TributeCard } from './card-email';

/**
 * What the card's wording calls the donor of an anonymous gift (issue #23: "unless the gift is anonymous, then
 * 'someone'"), in `locale` (issue #24): `Someone`, `Alguien`.
 */
export function anonymousGiver(locale: Locale): string {
  const i18n = serverI18n(locale);
  return i18n._('email.tribute.someone');
}

/** True for a kind of {@link TRIBUTE_MAIL_KINDS} (the tribute composer renders it; app.ts routes it here). */
export function isTributeMailKind(kind: MailKind): kind is (typeof TRIBUTE_MAIL_KINDS)[number] {
  return (TRIBUTE_MAIL_KINDS as readonly MailKind[]).includes(kind);
}

/** What the card composer needs: the database and the organisation (ORG_LEGAL_NAME, ORG_ADDRESS). */
export interface TributeComposerDeps {
  db: Database;
  organization: OrganizationProfile;
}

/**
 * The composer of `tribute_card` messages (issue #23, section 3; decision 0090): reads the donation when the card is
 * sent and renders the card to the row's recipient. Rejects with PermanentComposeError (not retried) for a row naming
 * no dedicated donation, and for a donation that is not `succeeded` any more when the relay gets to it (a refund or
 * dispute that raced the relay: a refund in full normally cancels the card first, ledger/tribute-entries.ts), so a
 * card never goes out for a gift the charity did not keep; rejects with the database's error when a query fails (retried).
 * The card is in the gift's language (`donations.locale`, issue #24).
 */
export function createTributeComposer({ db, organization }: TributeComposerDeps): ComposeMail {
  return async (row: MailOutboxRow): Promise<ComposedMail> => {
    if (!isTributeMailKind(row.kind) || !row.donationId) throw new PermanentComposeError(`Outbox message ${row.id} (${row.kind}) is not a tribute card`);
    const [donation] = await db.select().from(donations).where(eq(donations.id, row.donationId));
    if (!donation?.tributeType || !donation.tributeHonoreeName || !donation.tributeNotifyName) {
      throw new PermanentComposeError(`Outbox message ${row.id} names no dedicated gift`);
    }
    if (donation.status !== 'succeeded') throw new PermanentComposeError(`The gift of tribute card ${row.id} is ${donation.status}; the card is not sent`);
    const card: TributeCard = {
      giver: donation.isAnonymous ? anonymousGiver(donation.locale) : donation.donorName,
      type: donation.tributeType,
      honoreeName: donation.tributeHonoreeName,
      cause: donation.cause,
      recipientName: donation.tributeNotifyName,
      message: donation.tributeNotifyMessage,
    };
    return {
      to: row.recipient,
      subject: tributeCardHeadline(card, donation.locale),
      ...(await renderEmailParts(<TributeCardEmail card={card} organization={organization} locale={donation.locale} />)),
    };
  };
}
