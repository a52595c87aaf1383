import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client';
import { campaigns, donations, oneTimeUpgrades } from '../db/schema';

/**
 * The upgrade from the CAMPAIGNS setting to campaigns in the database (issue #34; decision 0101), run at every start
 * and effective once per database.
 */

/** The name of this upgrade in `one_time_upgrades`. */
export const CAMPAIGNS_SETTING_UPGRADE = 'campaigns-setting-to-table';

/** The staff page where campaigns are run now, which the warning about a set CAMPAIGNS names. */
export const STAFF_CAMPAIGNS_PAGE = '/staff/campaigns';

/**
 * On the first start after issue #34 (no `one_time_upgrades` row of {@link CAMPAIGNS_SETTING_UPGRADE}), in one
 * transaction: each slug of `slugs` (CAMPAIGNS, lower-case) becomes a published campaign without dates (live), titled
 * with its slug in English; and each other slug that donations recorded becomes a published campaign that ended now,
 * so every campaign a gift names has a page and its gifts keep their campaign. A slug already a campaign is left as it
 * is. Later starts change nothing. Then, at every start, a set CAMPAIGNS logs a warning naming the staff page.
 * Resolves with the slugs made campaigns (empty after the first start). Rejects when the database fails (nothing done).
 */
export async function upgradeCampaignsSetting(db: Database, slugs: readonly string[], log: FastifyBaseLogger): Promise<string[]> {
  const created = await db.transaction(async (tx) => {
    // NOTE: the marker row first: a second process starting at the same time waits on it, then finds it and does nothing.
    const claimed = await tx.insert(oneTimeUpgrades).values({ name: CAMPAIGNS_SETTING_UPGRADE }).onConflictDoNothing().returning();
    if (claimed.length === 0) return [];
    const live = slugs.length === 0
      ? []
      : await tx
          .insert(campaigns)
          .values(slugs.map((slug) => ({ slug, texts: { en: { title: slug, description: '' } }, published: true })))
          .onConflictDoNothing()
          .returning({ slug: campaigns.slug });
    const ended = await tx.execute(sql`INSERT INTO ${campaigns} (slug, texts, published, ends_at)
      SELECT DISTINCT ${donations.campaign}, jsonb_build_object('en', jsonb_build_object('title', ${donations.campaign}, 'description', '')), true, now()
      FROM ${donations} WHERE ${donations.campaign} IS NOT NULL
      ON CONFLICT (slug) DO NOTHING RETURNING slug`);
    return [...live.map((row) => row.slug), ...((ended as unknown as { rows: Array<{ slug: string }> }).rows).map((row) => row.slug)];
  });
  if (created.length > 0) log.info({ campaigns: created }, 'CAMPAIGNS upgraded: each listed campaign is now a live campaign in the database');
  if (slugs.length > 0) {
    log.warn(`CAMPAIGNS is set but no longer read: campaigns are run on the staff page ${STAFF_CAMPAIGNS_PAGE}; remove the variable`);
  }
  return created;
}
