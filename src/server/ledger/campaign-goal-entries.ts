import { and, asc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import { CURRENCY } from '../../shared/money';
import { centsToDollarString } from '../../shared/webhooks';
import type { Database } from '../db/client';
import { campaigns, donations } from '../db/schema';
import { recordWebhookEvent } from '../webhooks/record';
import { countCampaigns, countedCentsSql, crossesGoal } from './campaign-count';

/**
 * The ledger's side of a campaign's goal (issue #38's `campaign.goal_reached`; decision 0113): written in the
 * transaction of the move that makes a gift count (a success, a dispute won, an offline gift recorded), like a receipt,
 * so the event is sent exactly when that move commits, and once per campaign ever (`campaigns.goal_reached_at`).
 */

/**
 * Records `campaign.goal_reached` for each campaign whose counted raised amount (ledger/campaign-count.ts) the gifts
 * `donationIds`, just moved to `succeeded` in `tx` (the move's transaction), made reach its goal: below the goal without
 * them, at or above it with them ({@link crossesGoal}). Each such campaign gets `goal_reached_at` set and its event
 * recorded (for the endpoints subscribed to it: webhooks/record.ts); a campaign without a goal, or whose goal was reached
 * before, records nothing ever again (a refund below the goal and a gift above it again do not send a second event).
 *
 * The campaigns still waiting for their goal are locked (FOR UPDATE, in id order, so two batches never deadlock) before
 * they are counted: two gifts committing together are counted one after the other, the second seeing the first, so
 * neither both nor neither of them sends the event. Gifts of other statuses or without a campaign are ignored.
 * Rejects when the database fails, which rolls the move back with it.
 */
export async function recordCampaignGoalsReached(tx: Database, donationIds: readonly string[]): Promise<void> {
  if (donationIds.length === 0) return;
  const added = await tx
    .select({ slug: donations.campaign, addedCents: sql<string>`sum(${countedCentsSql})` })
    .from(donations)
    // NOTE: the ids in ONE array parameter: an offline import passes thousands.
    .where(and(sql`${donations.id} = ANY (${`{${donationIds.join(',')}}`}::uuid[])`, eq(donations.status, 'succeeded'), isNotNull(donations.campaign)))
    .groupBy(donations.campaign);
  const addedCentsBySlug = new Map(added.flatMap((row) => (row.slug === null ? [] : [[row.slug, Number(row.addedCents)] as const])));
  if (addedCentsBySlug.size === 0) return;
  const waiting = await tx
    .select({ id: campaigns.id, slug: campaigns.slug, texts: campaigns.texts, goalCents: campaigns.goalCents })
    .from(campaigns)
    .where(and(inArray(campaigns.slug, [...addedCentsBySlug.keys()]), isNotNull(campaigns.goalCents), isNull(campaigns.goalReachedAt)))
    .orderBy(asc(campaigns.id))
    .for('update');
  if (waiting.length === 0) return;
  // NOTE: read after the lock: in READ COMMITTED each statement sees what committed before it, so a gift of the same
  // campaign that held the lock is counted here.
  const counts = await countCampaigns(tx, waiting.map((campaign) => campaign.slug));
  for (const campaign of waiting) {
    const raisedCents = counts.get(campaign.slug)?.raisedCents ?? 0;
    const addedCents = addedCentsBySlug.get(campaign.slug) ?? 0;
    if (campaign.goalCents === null || !crossesGoal(raisedCents - addedCents, raisedCents, campaign.goalCents)) continue;
    await tx.update(campaigns).set({ goalReachedAt: sql`now()` }).where(eq(campaigns.id, campaign.id));
    await recordWebhookEvent(tx, {
      type: 'campaign.goal_reached',
      data: {
        campaign: {
          id: campaign.id,
          slug: campaign.slug,
          title: campaign.texts.en?.title ?? campaign.slug,
          goalCents: campaign.goalCents,
          goalDollars: centsToDollarString(campaign.goalCents),
          raisedCents,
          raisedDollars: centsToDollarString(raisedCents),
          currency: CURRENCY,
        },
      },
    });
  }
}
