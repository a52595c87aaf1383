import { eq } from 'drizzle-orm';
import { campaignStatus, campaignTextIn, type CampaignFigures } from '../../shared/campaign-api';
import type { Locale } from '../../shared/i18n/locales';
import type { Database } from '../db/client';
import { campaigns, type CampaignRow } from '../db/schema';
import type { Clock } from '../platform/clock';
import { countCampaign, type CampaignCount } from './counting';

/**
 * A campaign's public figures, kept per process for at most `maxAgeMs` (issue #34: "figures at most 60 seconds old",
 * "summarised or cached, not a scan per request"; decision 0101): the campaign's row and its count are read together
 * at most once per `maxAgeMs` per slug, however many requests ask, and requests that ask while they are read wait for
 * that one read.
 */

/** Most slugs kept at once; the oldest read is dropped first, so made-up slugs cannot fill the memory. */
const MAX_ENTRIES = 1000;

interface Entry {
  readAtMs: number;
  value: Promise<{ campaign: CampaignRow; count: CampaignCount } | undefined>;
}

/** A campaign as the public sees it: its figures in one language, and how old they are (ms). */
export interface PublicCampaign {
  figures: CampaignFigures;
  ageMs: number;
  /** The campaign's texts in every language, its preselection and the supporters' flag, for the donate page. */
  campaign: CampaignRow;
}

/** The cache {@link createCampaignFiguresCache} makes. */
export interface CampaignFiguresCache {
  /**
   * The public figures of the campaign `slug` (lower-case) in `locale` (its English text when it has none in that
   * language), or undefined for an unknown or draft campaign. Rejects when the database fails (nothing kept).
   */
  publicCampaign(slug: string, locale: Locale): Promise<PublicCampaign | undefined>;
  /** How long figures are kept, in ms. */
  maxAgeMs: number;
}

/** A {@link CampaignFiguresCache} reading `db`, with "now" from `clock`. */
export function createCampaignFiguresCache({ db, clock, maxAgeMs }: { db: Database; clock: Clock; maxAgeMs: number }): CampaignFiguresCache {
  const entries = new Map<string, Entry>();

  async function read(slug: string) {
    const [campaign] = await db.select().from(campaigns).where(eq(campaigns.slug, slug));
    if (!campaign) return undefined;
    return { campaign, count: await countCampaign(db, slug) };
  }

  function entryOf(slug: string, nowMs: number): Entry {
    const kept = entries.get(slug);
    // NOTE: a clock set back (tests, or the machine's) makes what was kept stale, not fresh for ever.
    if (kept && nowMs >= kept.readAtMs && nowMs - kept.readAtMs < maxAgeMs) return kept;
    entries.delete(slug);
    if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
    const entry: Entry = { readAtMs: nowMs, value: read(slug) };
    entries.set(slug, entry);
    // NOTE: a failed read is not kept: the next request tries again.
    entry.value.catch(() => entries.get(slug) === entry && entries.delete(slug));
    return entry;
  }

  return {
    maxAgeMs,
    async publicCampaign(slug, locale) {
      const now = clock.now();
      const entry = entryOf(slug, now.getTime());
      const found = await entry.value;
      if (!found) return undefined;
      const { campaign, count } = found;
      const status = campaignStatus(campaign, now);
      if (status === 'draft') return undefined;
      const text = campaignTextIn(campaign.texts, locale);
      return {
        campaign,
        ageMs: Math.max(0, now.getTime() - entry.readAtMs),
        figures: {
          slug: campaign.slug,
          title: text?.title ?? campaign.slug,
          description: text?.description ?? '',
          goalCents: campaign.goalCents,
          raisedCents: count.raisedCents,
          donorCount: count.donorCount,
          startsAt: campaign.startsAt?.toISOString() ?? null,
          endsAt: campaign.endsAt?.toISOString() ?? null,
          status,
        },
      };
    },
  };
}
