import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { API_PATHS } from '../../shared/api';
import { EmbedStatusSchema } from '../../shared/campaign-api';
import { errorAnswers } from '../http/error-answers';
import { allowEmbedOrigin } from '../http/embed-frame';

/**
 * GET /api/embed/status (issue #35; decision 0104): `{ frameable }`, true when the request's `Origin` is one of
 * EMBED_ORIGINS, with CORS for exactly those origins. embed.js asks it before showing a frame: from any other origin the
 * browser withholds the answer, and the script shows its plain link to /donate instead, at once and without a timeout
 * (the browser refuses the frame itself anyway: frame-ancestors). Takes no input (an unknown parameter is 400).
 */
export const embedRoutes: FastifyPluginAsyncZod<{ embedOrigins: readonly string[] }> = async (app, { embedOrigins }) => {
  app.get(
    API_PATHS.embedStatus,
    {
      schema: {
        summary: 'Whether the asking page may frame the donation pages',
        response: { 200: EmbedStatusSchema, ...errorAnswers(400, 500) },
      },
    },
    async (request, reply) => {
      const frameable = allowEmbedOrigin(request.headers.origin, reply, embedOrigins);
      return reply.code(200).send({ frameable });
    },
  );
};
