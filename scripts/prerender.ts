/**
 * `npm run build`'s second step, after `vite build` (issue #5, decision 0021): pre-renders the landing
 * screen so its first paint needs no JavaScript. Builds src/web/entry-prerender.tsx with Vite as an
 * SSR entry (same config and plugins as the browser build, e.g. the `?react` SVGs) into
 * .tmp/prerender, runs it, and writes each page of PRERENDERED_PAGES (src/shared/prerendered-pages.ts)
 * as dist/web/<file>: the built index.html with the markup in #root and the critical CSS in <head>.
 * dist/web/index.html stays the plain shell for every other route.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'vite';
import { PRERENDERED_PAGES } from '../src/shared/prerendered-pages';
import { fillPageTemplate, type PrerenderedContent } from '../src/web/prerender-page';

const root = join(import.meta.dirname, '..');
const webRoot = join(root, 'dist', 'web');
const ssrOutDir = join(root, '.tmp', 'prerender');

/** What the SSR build of src/web/entry-prerender.tsx exports. */
interface PrerenderEntry {
  renderLandingScreen: () => PrerenderedContent;
}

async function main(): Promise<void> {
  rmSync(ssrOutDir, { recursive: true, force: true });
  await build({
    configFile: join(root, 'vite.config.ts'),
    logLevel: 'warn',
    build: {
      ssr: join(root, 'src', 'web', 'entry-prerender.tsx'),
      outDir: ssrOutDir,
      emptyOutDir: true,
      manifest: false,
      copyPublicDir: false,
      // NOTE: minified, for the one function the page inlines as source: the early choices script (decision 0023).
      minify: true,
      rolldownOptions: { output: { entryFileNames: 'entry-prerender.js' } },
    },
  });
  const entry = (await import(pathToFileURL(join(ssrOutDir, 'entry-prerender.js')).href)) as PrerenderEntry;

  const template = readFileSync(join(webRoot, 'index.html'), 'utf8');
  for (const page of PRERENDERED_PAGES) {
    const content = entry.renderLandingScreen();
    if (content.path !== page.path) throw new Error(`The pre-render entry rendered ${content.path}, not ${page.path}`);
    const html = fillPageTemplate(template, content);
    writeFileSync(join(webRoot, page.file), html);
    console.log(`Pre-rendered ${page.path} into dist/web/${page.file} (${(html.length / 1000).toFixed(1)} kB)`);
  }
  rmSync(ssrOutDir, { recursive: true, force: true });
}

await main();
