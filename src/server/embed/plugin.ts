import type { FastifyInstance } from 'fastify';
import type { ServerConfig } from '../platform/config';
import { embedRoutes } from './routes';

/** The path of the embed script in WEB_ROOT and on the site (issue #35: `<PUBLIC_URL>/embed.js`). */
export const EMBED_SCRIPT_PATH = '/embed.js';

/**
 * Embedding on other sites (issue #35; decision 0104): `GET /api/embed/status`, and the embed script's answer headers:
 * `Cross-Origin-Resource-Policy: cross-origin` (helmet's `same-origin` would stop another site's `<script src>`; Fetch
 * standard, CORP). The framed pages themselves are served by the site (http/site.ts) and their token checked by the
 * CSRF hook (http/csrf.ts).
 */
export async function registerEmbed(app: FastifyInstance, config: Pick<ServerConfig, 'embedOrigins'>): Promise<void> {
  await app.register(embedRoutes, { embedOrigins: config.embedOrigins });
  app.addHook('onSend', async (request, reply) => {
    if (request.url.split('?', 1)[0] === EMBED_SCRIPT_PATH) reply.header('cross-origin-resource-policy', 'cross-origin');
  });
}
