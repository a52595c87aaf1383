import { createServer, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openTestDatabase, type TestDatabase } from '../../src/server/testing/test-database';
import { startServerProcess, type ServerProcess } from '../../src/server/testing/server-process';
import { ownServerEnv } from './e2e-env';

/**
 * What the embedding stories (issue #35: embed.spec.ts in Chromium, embed-firefox.spec.ts in Firefox ESR) share: a
 * partner's page with the snippet, the partner's web server, and a donation site of its own that lets that partner
 * frame it (EMBED_ORIGINS).
 */

/** A partner's page as its web server answers it: the HTML, and its own Content-Security-Policy if any. */
export interface HostPage {
  html: string;
  csp?: string;
}

/**
 * A host page: `body` after a heading, embed.js from `site` right before it as the README's snippet has it, and every
 * `reef-donate:*` event recorded in `window.reefEvents`. `window.hostJump` records how the page moved before the frame's
 * first height arrived (the layout shift score so far, and the reserved and first heights in px; Chromium only).
 */
export function hostPage(site: string, body: string, csp?: string): HostPage {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Reef partner</title>
<script>
window.reefEvents = [];
window.markers = 0;
window.addEventListener('message', (event) => { if (event.data === 'marker') window.markers += 1; });
for (const name of ['ready', 'resize', 'completed', 'closed']) {
  document.addEventListener('reef-donate:' + name, (event) => window.reefEvents.push({ type: event.type, detail: event.detail }));
}
window.layoutShift = 0;
if (PerformanceObserver.supportedEntryTypes.includes('layout-shift')) {
  new PerformanceObserver((list) => { for (const entry of list.getEntries()) window.layoutShift += entry.value; }).observe({ type: 'layout-shift', buffered: true });
}
document.addEventListener('reef-donate:ready', (event) => { window.hostJump ??= { shift: window.layoutShift, reservedPx: parseFloat(event.target.style.minHeight) }; });
document.addEventListener('reef-donate:resize', (event) => { if (window.hostJump && !window.hostJump.firstPx) window.hostJump.firstPx = event.detail.heightPx; });
</script></head>
<body style="margin:0;font-family:sans-serif"><main style="padding:16px"><h1>Friends of the reef</h1><p>Our partner's page.</p><script src="${site}/embed.js"></script>${body}<p><a href="#after">After the snippet</a></p></main></body></html>`;
  return { html, csp };
}

/** Serves `pages` (path → page) on `localhost:port`, as a partner's web server would; close it with `server.close`. */
export async function startHost(port: number, pages: Map<string, HostPage>): Promise<Server> {
  const server = createServer((request, response) => {
    const page = pages.get((request.url ?? '/').split('?')[0] ?? '/');
    if (!page) {
      // NOTE: 204, not 404: the browser asks for /favicon.ico, and a 404 is logged as an error.
      response.writeHead(204).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...(page.csp ? { 'content-security-policy': page.csp } : {}) });
    response.end(page.html);
  });
  await new Promise<void>((resolve) => server.listen(port, 'localhost', resolve));
  return server;
}

/** A donation site of its own for an embedding story: its server, its database, and `close` to stop and remove both. */
export interface EmbedSite {
  server: ServerProcess;
  database: TestDatabase;
  close: () => Promise<void>;
}

/**
 * Starts a donation site that `hostOrigin` may frame (EMBED_ORIGINS), on a migrated copy of the run's template database
 * and a DATA_DIR of its own. `prepare` runs on the database before the server starts (campaigns); `env(dataDir, database)`
 * answers the server's environment (default {@link ownServerEnv}; Stripe mode passes its own).
 */
export async function startEmbedSite(
  hostOrigin: string,
  { prepare, env = (dataDir, database) => ownServerEnv(dataDir, database.url) }: { prepare?: (database: TestDatabase) => Promise<void>; env?: (dataDir: string, database: TestDatabase) => Record<string, string> } = {},
): Promise<EmbedSite> {
  const dataDir = await mkdtemp(join(tmpdir(), 'donation-embed-'));
  const database = await openTestDatabase();
  const removeAll = async () => {
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    await prepare?.(database);
    const server = await startServerProcess({ ...env(dataDir, database), EMBED_ORIGINS: hostOrigin });
    return {
      server,
      database,
      close: async () => {
        await server.stop();
        await removeAll();
      },
    };
  } catch (error) {
    await removeAll();
    throw error;
  }
}
