import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { buildServerBundle } from '../../../scripts/server-bundle';
import { MAIN_MODULE, SERVER_BUNDLE_ENV } from './server-process';

/** Where the bundles go: the repository's scratch folder (ignored by git). */
const BUNDLE_DIR = path.join(path.dirname(MAIN_MODULE), '..', '..', '.tmp', 'server-bundle');
/** Bundles of earlier runs older than this are deleted. */
const KEEP_OLD_BUNDLES_MS = 24 * 60 * 60 * 1000;

/**
 * Vitest's and Playwright's global setup (vitest.config.ts, playwright.config.ts): builds the server into one module
 * before any worker starts, with the code `npm run build` builds dist/server/main.mjs with (scripts/server-bundle.ts),
 * and names it in TEST_SERVER_BUNDLE, which the workers inherit, so every server process a test spawns starts from it
 * (issue #19, decision 0066), fresh from the sources of the run. Deletes the bundles of runs older than a day.
 */
export default async function setup(): Promise<void> {
  const bundle = await buildServerBundle(MAIN_MODULE, BUNDLE_DIR);
  process.env[SERVER_BUNDLE_ENV] = bundle;
  for (const name of await readdir(BUNDLE_DIR)) {
    const file = path.join(BUNDLE_DIR, name);
    if (file !== bundle && Date.now() - (await stat(file)).mtimeMs > KEEP_OLD_BUNDLES_MS) await rm(file, { force: true });
  }
}
