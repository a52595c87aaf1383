import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/client';
import type { Clock } from '../platform/clock';
import type { ServerConfig } from '../platform/config';
import { createCampaignFiguresCache, type CampaignFiguresCache } from './figures-cache';
import type { ReceiptLinkSigner } from '../receipts/receipt-link';
import { campaignRoutes } from './routes';
import { supporterRoutes } from './supporter-routes';
import { upgradeCampaignsSetting } from './upgrade';
import { campaignFacts } from './hero';
import type { CampaignFigures, CampaignGoalBar } from '../../shared/campaign-api';
import type { Locale } from '../../shared/i18n/locales';

/**
 * Campaigns that staff run (issue #34; decision 0101), the public side: the upgrade from CAMPAIGNS (once per database,
 * before the app answers), `GET /api/campaigns/<slug>`, and the donor's supporters' list choice (`links`, the receipt
 * tokens, prove the gift is theirs; decision 0103). Resolves with the figures cache, which the donate page's
 * campaign hero reads too. Rejects when the upgrade fails (the app does not start).
 */
export async function registerCampaigns(
  app: FastifyInstance,
  { db, config, clock, links }: { db: Database; config: ServerConfig; clock: Clock; links: ReceiptLinkSigner },
): Promise<CampaignFiguresCache> {
  await upgradeCampaignsSetting(db, config.campaigns, app.log);
  const figures = createCampaignFiguresCache({ db, clock, maxAgeMs: config.campaignFiguresMaxAgeMs });
  const goalBarOf = (found: CampaignFigures, locale: Locale): CampaignGoalBar => {
    const words = campaignFacts({ figures: found, locale, now: clock.now(), timeZone: config.staffTimeZone });
    return { slug: found.slug, title: found.title, progress: words.progress, facts: words.facts, note: words.opens ?? words.ended };
  };
  await app.register(campaignRoutes, { figures, embedOrigins: config.embedOrigins, goalBarOf });
  await app.register(supporterRoutes, { db, clock, links });
  return figures;
}
