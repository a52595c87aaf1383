import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import { campaigns } from '../db/schema';

/**
 * The ledger's side of campaigns (issue #34; decision 0101): a gift records its link's campaign only while that
 * campaign is live. Counting them is campaign-count.ts's; running them campaigns/'s and staff/campaigns/'s work.
 */

/**
 * The value of a new donation's `campaign` column for the slug `slug` (lower-case, or null): the slug when a campaign
 * of that slug is published, started and not ended at the statement's time (`now()`, the transaction's start), else
 * NULL (issue #34: "before its start ... recorded without the campaign"; a draft is an unknown slug). Evaluated in the
 * INSERT itself, so a campaign that staff end is never recorded by a gift written after the end's commit. The same
 * rule as shared/campaign-api.ts's campaignStatus, in SQL. `slug` may be a prepared statement's placeholder (issue #39;
 * ledger/repository.ts): its value null then matches no campaign, so the column is NULL as for no slug.
 */
export function liveCampaignSlugSql(slug: string | Placeholder | null | undefined): SQL | null {
  if (slug === null || slug === undefined) return null;
  return sql`(SELECT ${campaigns.slug} FROM ${campaigns} WHERE ${campaigns.slug} = ${slug} AND ${campaigns.published}
    AND (${campaigns.startsAt} IS NULL OR ${campaigns.startsAt} <= now()) AND (${campaigns.endsAt} IS NULL OR ${campaigns.endsAt} > now()))`;
}
