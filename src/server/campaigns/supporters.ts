import { and, desc, eq, isNull } from 'drizzle-orm';
import type { SupporterChoice, SupporterChoiceInput } from '../../shared/campaign-supporters';
import type { Database } from '../db/client';
import { campaigns, campaignSupporters, donations } from '../db/schema';

/**
 * A campaign's supporters' list (issue #34, "Supporters' list"; decision 0103): the donor's choice, made on the
 * thank-you page of a gift that recorded a campaign, and the list the campaign page shows. The list holds a donor's
 * name as typed, when the gift was made, and its message if the donor chose to show it: never an amount, an e-mail
 * address or a place.
 */

/** One supporter as the public list shows it: the name as typed, when the gift was made, the message or null. */
export interface PublicSupporter {
  name: string;
  givenAt: Date;
  message: string | null;
}

/**
 * The gift of `transactionId` (the gateway's charge id a receipt token names) when its donor may choose to be listed:
 * it succeeded, is not anonymous (issue #34: "never offered for an anonymous gift"), recorded a campaign, and that
 * campaign shows its supporters' list; with the choice stored, if any. Undefined otherwise.
 */
export async function listableGift(db: Database, transactionId: string) {
  const [row] = await db
    .select({
      donationId: donations.id,
      campaign: donations.campaign,
      message: donations.message,
      showName: campaignSupporters.showName,
      showMessage: campaignSupporters.showMessage,
    })
    .from(donations)
    .innerJoin(campaigns, eq(campaigns.slug, donations.campaign))
    .leftJoin(campaignSupporters, eq(campaignSupporters.donationId, donations.id))
    .where(
      and(
        eq(donations.gatewayTransactionId, transactionId),
        eq(donations.status, 'succeeded'),
        eq(donations.isAnonymous, false),
        eq(campaigns.showSupporters, true),
      ),
    );
  if (!row || row.campaign === null) return undefined;
  return { ...row, campaign: row.campaign, hasMessage: (row.message ?? '').trim() !== '' };
}

/** A listable gift, as {@link listableGift} finds it. */
export type ListableGift = NonNullable<Awaited<ReturnType<typeof listableGift>>>;

/** The choice of `gift` as the thank-you page shows it (nothing stored: both unticked). */
export function choiceOf(gift: Pick<ListableGift, 'hasMessage' | 'showName' | 'showMessage'>): SupporterChoice {
  return { hasMessage: gift.hasMessage, showName: gift.showName ?? false, showMessage: (gift.showMessage ?? false) && gift.hasMessage };
}

/**
 * Stores the donor's `choice` for `gift` (an upsert: the same choice twice stores it once), the message shown only when
 * the gift has one. A row staff hid stays hidden whatever the donor chooses. Resolves with the choice as stored.
 */
export async function storeSupporterChoice(db: Database, gift: ListableGift, choice: SupporterChoiceInput, now: Date): Promise<SupporterChoice> {
  const values = { showName: choice.showName, showMessage: choice.showName && choice.showMessage && gift.hasMessage };
  await db
    .insert(campaignSupporters)
    .values({ donationId: gift.donationId, campaign: gift.campaign, ...values, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: campaignSupporters.donationId, set: { ...values, updatedAt: now } });
  return { hasMessage: gift.hasMessage, ...values };
}

/** The conditions of a supporter the public sees: chose to show the name, not hidden, the gift still succeeded. */
const shownPublicly = (slug: string) =>
  and(eq(campaignSupporters.campaign, slug), eq(campaignSupporters.showName, true), isNull(campaignSupporters.hiddenAt), eq(donations.status, 'succeeded'));

/** The latest `limit` supporters of the campaign `slug` (lower-case) the public sees, newest gift first. */
export async function latestSupporters(db: Database, slug: string, limit: number): Promise<PublicSupporter[]> {
  const rows = await db
    .select({ name: donations.donorName, givenAt: donations.createdAt, message: donations.message, showMessage: campaignSupporters.showMessage })
    .from(campaignSupporters)
    .innerJoin(donations, eq(donations.id, campaignSupporters.donationId))
    .where(shownPublicly(slug))
    .orderBy(desc(donations.createdAt), desc(donations.id))
    .limit(limit);
  return rows.map((row) => ({ name: row.name, givenAt: row.givenAt, message: row.showMessage && row.message ? row.message : null }));
}

/**
 * Every supporter of the campaign `slug` who chose to show the name (hidden ones too), newest first, for staff: the
 * donation's id (what "hide" names), the name, when, the message if shown, and when it was hidden.
 */
export async function staffSupporters(db: Database, slug: string) {
  return db
    .select({
      donationId: campaignSupporters.donationId,
      name: donations.donorName,
      givenAt: donations.createdAt,
      message: donations.message,
      showMessage: campaignSupporters.showMessage,
      hiddenAt: campaignSupporters.hiddenAt,
    })
    .from(campaignSupporters)
    .innerJoin(donations, eq(donations.id, campaignSupporters.donationId))
    .where(and(eq(campaignSupporters.campaign, slug), eq(campaignSupporters.showName, true)))
    .orderBy(desc(donations.createdAt), desc(donations.id));
}
