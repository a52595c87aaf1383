import { z } from 'zod';
import { LOCALES, SOURCE_LOCALE, type Locale } from './i18n/locales';

/**
 * Campaigns that staff run (issue #34; decision 0101): their status and their public figures, as
 * `GET /api/campaigns/<slug>` answers them and the donate page shows them. Money in integer cents, times ISO 8601.
 * Shared by the server (validation, OpenAPI) and the pages.
 */

/**
 * A campaign's status, derived from its `published` flag and its dates (decision 0101): `draft` until published (its
 * link behaves as an unknown one), `scheduled` while published before its start (its link says when it opens; gifts go
 * to the general work), `live` from its start (or at once) to its end (gifts record it), `ended` from its end.
 */
export const CAMPAIGN_STATUSES = ['draft', 'scheduled', 'live', 'ended'] as const;
/** One of {@link CAMPAIGN_STATUSES}. */
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/** What {@link campaignStatus} reads of a campaign. */
export interface CampaignSchedule {
  published: boolean;
  startsAt: Date | null;
  endsAt: Date | null;
}

/**
 * The status of `campaign` at `now` (see {@link CAMPAIGN_STATUSES}): the start is included, the end is not. The server's
 * SQL twin, for the gift being written, is campaigns/live.ts's liveCampaignSlugSql.
 */
export function campaignStatus(campaign: CampaignSchedule, now: Date): CampaignStatus {
  if (!campaign.published) return 'draft';
  if (campaign.startsAt !== null && now < campaign.startsAt) return 'scheduled';
  if (campaign.endsAt !== null && now >= campaign.endsAt) return 'ended';
  return 'live';
}

/** The title and description of `texts` in `locale`, or in English when it has none in that language (issue #34). */
export function campaignTextIn<T>(texts: Partial<Record<string, T>>, locale: Locale): T | undefined {
  return texts[locale] ?? texts[SOURCE_LOCALE];
}

/** Query of the public figures: `locale` of the title and description (English by default); nothing else (400). */
export const CampaignFiguresQuerySchema = z.strictObject({
  locale: z.enum(LOCALES, { error: `Choose one of ${LOCALES.join(', ')}` }).default(SOURCE_LOCALE),
});

/** A campaign's slug in a path: letters, digits and dashes, at most 64 (compared without case). */
export const CampaignSlugParamsSchema = z.strictObject({
  slug: z.string().regex(/^[A-Za-z0-9-]{1,64}$/, 'Use letters, digits and dashes, at most 64 characters'),
});

/**
 * A campaign's public figures (issue #34, "GET /api/campaigns/<slug>"): what a goal bar shows. `raisedCents` and
 * `donorCount` count as decision 0101 says (succeeded gifts net of refunds, without covered fees; distinct addresses),
 * at most a minute old; `goalCents` null without a goal; dates null when open-ended; `status` never `draft`.
 */
export const CampaignFiguresSchema = z.object({
  slug: z.string(),
  title: z.string(),
  description: z.string(),
  goalCents: z.number().int().positive().nullable(),
  raisedCents: z.number().int().nonnegative(),
  donorCount: z.number().int().nonnegative(),
  startsAt: z.iso.datetime().nullable(),
  endsAt: z.iso.datetime().nullable(),
  status: z.enum(CAMPAIGN_STATUSES),
});
/** One of {@link CampaignFiguresSchema}. */
export type CampaignFigures = z.infer<typeof CampaignFiguresSchema>;

/**
 * A campaign's goal bar (issue #35, `<reef-donate mode="goal">`): its title and its figures already in words of the asked
 * language, as the campaign hero writes them (issue #34), so embed.js holds no wording: `progress` (the bar's value, 0 to
 * 100, its label and aria-valuetext) when it has a goal and is live, `facts` (raised, percent, donors, time left) when
 * live, `note` when scheduled or ended.
 */
export const CampaignGoalBarSchema = z.object({
  slug: z.string(),
  title: z.string(),
  progress: z.object({ shownPercent: z.number().int().min(0).max(100), label: z.string(), valueText: z.string() }).nullable(),
  facts: z.array(z.string()),
  note: z.string().nullable(),
});
/** One of {@link CampaignGoalBarSchema}. */
export type CampaignGoalBar = z.infer<typeof CampaignGoalBarSchema>;

/** Whether the asking page may frame the donation pages (issue #35): `frameable` true only for an EMBED_ORIGINS origin. */
export const EmbedStatusSchema = z.object({ frameable: z.boolean() });
