/**
 * `npm run build`'s second step, after `vite build` (issue #5, decision 0021): pre-renders the landing
 * screen in every language (issue #24: /donate, /es/donate) so its first paint needs no JavaScript. Builds src/web/entry-prerender.tsx with Vite as an
 * SSR entry (same config and plugins as the browser build, e.g. the `?react` SVGs) into
 * .tmp/prerender, runs it, and writes each page of PRERENDERED_PAGES (src/shared/prerendered-pages.ts)
 * as dist/web/<file>: the built index.html with the markup in #root and the critical CSS in <head>, in the page's
 * language (`<html lang>`, title, description, `hreflang` alternates: src/shared/i18n/page-head.ts), and its
 * language's landing catalogue chunk among the modules preloaded once the page has painted (no request waterfall:
 * the site stage finds it loaded). dist/web/index.html stays the plain shell for
 * every other route.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'vite';
import { serverI18n } from '../src/server/i18n/catalogues';
import { localizePageHead } from '../src/shared/i18n/page-head';
import type { Locale } from '../src/shared/i18n/locales';
import { PRERENDERED_PAGES } from '../src/shared/prerendered-pages';
import type { LandingScreen } from '../src/web/entry-prerender';
import { fillPageTemplate } from '../src/web/prerender-page';

const root = join(import.meta.dirname, '..');
const webRoot = join(root, 'dist', 'web');
const ssrOutDir = join(root, '.tmp', 'prerender');

/** What the SSR build of src/web/entry-prerender.tsx exports. */
interface PrerenderEntry {
  renderLandingScreen: (locale: Locale) => Promise<LandingScreen>;
}

/** The root-relative URL of the built chunk of `locale`'s landing catalogue (Vite's manifest key `../locales/<locale>.json?part=landing`). */
function landingCatalogueChunk(locale: Locale): string {
  const manifest = JSON.parse(readFileSync(join(webRoot, '.vite', 'manifest.json'), 'utf8')) as Record<string, { file: string }>;
  const chunk = Object.entries(manifest).find(([key]) => key.endsWith(`locales/${locale}.json?part=landing`))?.[1];
  if (!chunk) throw new Error(`The build manifest has no landing catalogue chunk for ${locale}`);
  return `/${chunk.file}`;
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
    const { content, title } = await entry.renderLandingScreen(page.locale);
    // The description and noscript note are server-only texts (`head.`: never shipped to the browser).
    const i18n = serverI18n(page.locale);
    const head = { title, description: i18n._('head.description'), noscript: i18n._('head.noscript') };
    if (content.path !== page.path) throw new Error(`The pre-render entry rendered ${content.path}, not ${page.path}`);
    const preloads = [landingCatalogueChunk(page.locale)];
    const html = localizePageHead(fillPageTemplate(template, { ...content, preloads }), { locale: page.locale, ...head, alternatesOf: page.path });
    mkdirSync(dirname(join(webRoot, page.file)), { recursive: true });
    writeFileSync(join(webRoot, page.file), html);
    console.log(`Pre-rendered ${page.path} into dist/web/${page.file} (${(html.length / 1000).toFixed(1)} kB)`);
  }
  rmSync(ssrOutDir, { recursive: true, force: true });
}

await main();
