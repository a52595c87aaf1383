import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { API_PATHS } from '../../shared/api';
import { CampaignFiguresQuerySchema, CampaignFiguresSchema, CampaignGoalBarSchema, CampaignSlugParamsSchema, type CampaignGoalBar } from '../../shared/campaign-api';
import type { CampaignFigures } from '../../shared/campaign-api';
import type { Locale } from '../../shared/i18n/locales';
import { allowEmbedOrigin } from '../http/embed-frame';
import { errorAnswers } from '../http/error-answers';
import { apiError, NOT_FOUND_MESSAGE } from '../http/errors';
import type { CampaignFiguresCache } from './figures-cache';

/**
 * GET /api/campaigns/<slug>?locale=en|es (issue #34, "Donors see it"): a campaign's public figures (CampaignFiguresSchema:
 * slug, title and description in `locale` or English, goalCents, raisedCents, donorCount, startsAt, endsAt, status), what
 * a goal bar on another site reads. Counted as decision 0101 says, at most a minute old, and cacheable for what is left
 * of that minute (`Cache-Control: public, max-age=...`). 404 for an unknown or draft campaign; 400 (fieldErrors) a
 * malformed slug or an unknown parameter; nothing is written.
 */
export const campaignRoutes: FastifyPluginAsyncZod<{
  figures: CampaignFiguresCache;
  embedOrigins: readonly string[];
  goalBarOf: (figures: CampaignFigures, locale: Locale) => CampaignGoalBar;
}> = async (app, { figures, embedOrigins, goalBarOf }) => {
  /** The public figures of `slug` (any case) in `locale` and their Cache-Control (what is left of their minute), or undefined (404). */
  const cachedFigures = async (slug: string, locale: Locale) => {
    const found = await figures.publicCampaign(slug.toLowerCase(), locale);
    if (!found) return undefined;
    const maxAgeSeconds = Math.max(0, Math.floor((figures.maxAgeMs - found.ageMs) / 1000));
    return { figures: found.figures, cacheControl: `public, max-age=${maxAgeSeconds}` };
  };

  app.get(
    API_PATHS.campaign,
    {
      schema: {
        summary: "A campaign's public figures: title, goal, raised, donors, dates, status",
        params: CampaignSlugParamsSchema,
        querystring: CampaignFiguresQuerySchema,
        response: { 200: CampaignFiguresSchema, ...errorAnswers(400, 404, 500) },
      },
    },
    async (request, reply) => {
      // An EMBED_ORIGINS page may read it (issue #35: a goal bar of its own).
      allowEmbedOrigin(request.headers.origin, reply, embedOrigins);
      const found = await cachedFigures(request.params.slug, request.query.locale);
      if (!found) return reply.code(404).send(apiError(NOT_FOUND_MESSAGE));
      return reply.code(200).header('cache-control', found.cacheControl).send(found.figures);
    },
  );

  /**
   * GET /api/campaigns/<slug>/goal-bar?locale=en|es (issue #35, `<reef-donate mode="goal">`): the same figures in words
   * (CampaignGoalBarSchema), as the campaign hero writes them, readable by EMBED_ORIGINS pages (CORS). Cached like the
   * figures. 404 unknown or draft; 400 malformed slug or unknown parameter; nothing is written.
   */
  app.get(
    API_PATHS.campaignGoalBar,
    {
      schema: {
        summary: "A campaign's goal bar in words: title, progress, raised, donors, time left",
        params: CampaignSlugParamsSchema,
        querystring: CampaignFiguresQuerySchema,
        response: { 200: CampaignGoalBarSchema, ...errorAnswers(400, 404, 500) },
      },
    },
    async (request, reply) => {
      allowEmbedOrigin(request.headers.origin, reply, embedOrigins);
      const found = await cachedFigures(request.params.slug, request.query.locale);
      if (!found) return reply.code(404).send(apiError(NOT_FOUND_MESSAGE));
      return reply.code(200).header('cache-control', found.cacheControl).send(goalBarOf(found.figures, request.query.locale));
    },
  );
};
