import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { API_PATHS } from '../../shared/api';
import { CampaignFiguresQuerySchema, CampaignFiguresSchema, CampaignSlugParamsSchema } from '../../shared/campaign-api';
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
export const campaignRoutes: FastifyPluginAsyncZod<{ figures: CampaignFiguresCache }> = async (app, { figures }) => {
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
      const found = await figures.publicCampaign(request.params.slug.toLowerCase(), request.query.locale);
      if (!found) return reply.code(404).send(apiError(NOT_FOUND_MESSAGE));
      const maxAgeSeconds = Math.max(0, Math.floor((figures.maxAgeMs - found.ageMs) / 1000));
      return reply.code(200).header('cache-control', `public, max-age=${maxAgeSeconds}`).send(found.figures);
    },
  );
};
