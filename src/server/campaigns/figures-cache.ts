import { eq } from 'drizzle-orm';
import { campaignStatus, campaignTextIn, type CampaignFigures } from '../../shared/campaign-api';
import type { Locale } from '../../shared/i18n/locales';
import type { Database } from '../db/client';
import { campaigns, type CampaignRow } from '../db/schema';
import type { Clock } from '../platform/clock';
import { SUPPORTERS_SHOWN } from '../../shared/campaign-supporters';
import { countCampaign, type CampaignCount } from '../ledger/campaign-count';
import { latestSupporters, type PublicSupporter } from './supporters';

/**
 * A campaign's public figures, kept per process for at most `maxAgeMs` (issue #34: "figures at most 60 seconds old",
 * "summarised or cached, not a scan per request"; decision 0101): the campaign's row and its count are read together
 * at most about once per `maxAgeMs` per slug, however many requests ask: in the background shortly before the kept ones
 * are too old, or, for a slug not asked for within a minute, by the first request (the others wait for that one read).
 */

/** Most slugs kept at once; the oldest read is dropped first, so made-up slugs cannot fill the memory. */
const MAX_ENTRIES = 1000;
/** How long before figures are too old a request reads them again in the background, at most (ms). */
const REFRESH_AHEAD_MS = 10_000;

/**
 * What one read found: the campaign's row, its count and its latest supporters (none while its list is off), or
 * undefined for no campaign of that slug.
 */
type Found = { campaign: CampaignRow; count: CampaignCount; supporters: PublicSupporter[] } | undefined;

/** One slug's figures: the last read (with the instant it started), and the read under way, if any. */
interface Entry {
  kept?: { readAtMs: number; found: Found };
  reading?: Promise<{ readAtMs: number; found: Found }>;
}

/** A campaign as the public sees it: its figures in one language, and how old they are (ms). */
export interface PublicCampaign {
  figures: CampaignFigures;
  ageMs: number;
  /** The campaign's texts in every language, its preselection and the supporters' flag, for the donate page. */
  campaign: CampaignRow;
  /** The latest supporters who chose to be shown (decision 0103), newest first; empty while the list is off. */
  supporters: PublicSupporter[];
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
  const refreshAheadMs = Math.min(REFRESH_AHEAD_MS, Math.floor(maxAgeMs / 6));

  async function read(slug: string): Promise<Found> {
    const [campaign] = await db.select().from(campaigns).where(eq(campaigns.slug, slug));
    if (!campaign) return undefined;
    const [count, supporters] = await Promise.all([
      countCampaign(db, slug),
      campaign.showSupporters ? latestSupporters(db, slug, SUPPORTERS_SHOWN) : Promise.resolve([]),
    ]);
    return { campaign, count, supporters };
  }

  /** Starts a read of `slug` into `entry` (one at a time), dated `nowMs`. */
  function startRead(slug: string, entry: Entry, nowMs: number) {
    entry.reading ??= read(slug).then(
      (found) => {
        entry.kept = { readAtMs: nowMs, found };
        entry.reading = undefined;
        return entry.kept;
      },
      (error: unknown) => {
        entry.reading = undefined;
        throw error;
      },
    );
    return entry.reading;
  }

  /**
   * The figures of `slug` at most `maxAgeMs` old at `nowMs`: those kept while young enough (read again in the background
   * in their last {@link REFRESH_AHEAD_MS}, so a campaign asked for often never makes a request wait on its count), else
   * a new read (or the one under way). Rejects when that read fails.
   */
  async function figuresOf(slug: string, nowMs: number) {
    let entry = entries.get(slug);
    if (!entry) {
      if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
      entry = {};
      entries.set(slug, entry);
    }
    const kept = entry.kept;
    // NOTE: a clock set back (tests, or the machine's) makes what was kept stale, not fresh for ever.
    const ageMs = kept && nowMs >= kept.readAtMs ? nowMs - kept.readAtMs : Number.POSITIVE_INFINITY;
    if (kept && ageMs < maxAgeMs) {
      // A failed background read is not kept: the next request past the minute reads again and answers its error.
      if (ageMs >= maxAgeMs - refreshAheadMs) startRead(slug, entry, nowMs).catch(() => undefined);
      return kept;
    }
    return startRead(slug, entry, nowMs);
  }

  return {
    maxAgeMs,
    async publicCampaign(slug, locale) {
      const now = clock.now();
      const { readAtMs, found } = await figuresOf(slug, now.getTime());
      if (!found) return undefined;
      const { campaign, count, supporters } = found;
      const status = campaignStatus(campaign, now);
      if (status === 'draft') return undefined;
      const text = campaignTextIn(campaign.texts, locale);
      return {
        campaign,
        supporters,
        ageMs: Math.max(0, now.getTime() - readAtMs),
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
