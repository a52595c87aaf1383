/**
 * Bundle budget (issues #5 and #20): the JavaScript that /donate loads, gzipped, must stay within
 * BUDGET_GZIP_BYTES, summed over every chunk it loads. "Loaded by /donate" is the entry chunk of index.html, every
 * chunk it imports statically, and the stages of the app's start that the entry itself imports dynamically
 * (src/web/main.tsx, decision 0070) with every chunk they import statically: what the browser fetches before the
 * screen is live. Read from Vite's build manifest; the lazily loaded screens (the form, thank-you, receipts and manage
 * screens, which the stages import dynamically) are not counted. Run after `vite build`: `npm run check:bundle`
 * builds first, prints each chunk and the total, and exits 1 when over.
 * Each language's landing screen is held to the same budget (issue #24): /donate and /es/donate load the same start
 * closure plus their language's landing catalogue chunk (which the pre-rendered page preloads), and no catalogue of
 * another language.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { localizedPath } from '../src/shared/i18n/locale-paths';
import { LOCALES } from '../src/shared/i18n/locales';

/** The budget: 150 kB (1 kB = 1000 bytes, as size-limit and Lighthouse count) of gzip. */
export const BUDGET_GZIP_BYTES = 150_000;

/**
 * Code that must never load with /donate (issue #20): Stripe's (its packages and our Stripe screens, which load with
 * the form only when the deployment takes payments through Stripe) and staff code (the server's, admin tools, the
 * staff back office's pages and API schemas: issue #21).
 */
const FORBIDDEN_ON_DONATE = /@stripe[\\/]|[\\/]stripe[\\/]|stripe-[^/]*$|^src[\\/]server[\\/]|admin|^src[\\/](?:web|shared)[\\/]staff|@simplewebauthn[\\/]/;

/** One chunk of Vite's manifest (only the fields the budget needs). */
interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}

const webRoot = join(import.meta.dirname, '..', 'dist', 'web');

/**
 * The output files the page of `entryKey` loads at start: the entry's chunk, the chunks the entry imports
 * dynamically itself (the stages of the start), and every chunk any of those imports statically, transitively.
 * Dynamic imports of the other chunks (lazily loaded screens) are not followed.
 */
export function startClosure(manifest: Record<string, ManifestChunk>, entryKey: string): string[] {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const imported of manifest[key]?.imports ?? []) visit(imported);
  };
  visit(entryKey);
  for (const stage of manifest[entryKey]?.dynamicImports ?? []) visit(stage);
  return [...seen].map((key) => manifest[key]?.file).filter((file): file is string => file !== undefined);
}

/** A catalogue module of the build (`src/locales/es.json?part=landing`): its language and part. */
const CATALOGUE_MODULE = /locales[\\/]([\w-]+)\.json\?part=(\w+)$/;

/** The output file of `locale`'s landing catalogue chunk, or undefined when the build has none. */
function landingCatalogueFile(manifest: Record<string, ManifestChunk>, locale: string): string | undefined {
  const key = Object.keys(manifest).find((candidate) => candidate.endsWith(`locales/${locale}.json?part=landing`));
  return key === undefined ? undefined : manifest[key]?.file;
}

/**
 * Prints the files `files` (the JavaScript that the landing page at `path` loads at start), their gzip sizes and total,
 * and returns the problems: over budget, Stripe or staff code, or a catalogue other than `allowedCatalogues`
 * (`en/landing`...).
 */
function checkPage(path: string, files: string[], modulesOfChunk: Record<string, string[]>, allowedCatalogues: readonly string[]): string[] {
  let total = 0;
  const problems: string[] = [];
  for (const file of files) {
    for (const id of modulesOfChunk[file] ?? []) {
      if (FORBIDDEN_ON_DONATE.test(id)) problems.push(`Stripe or staff code loaded by ${path}: ${file}: ${id}`);
      const catalogue = CATALOGUE_MODULE.exec(id);
      if (catalogue && !allowedCatalogues.includes(`${catalogue[1]}/${catalogue[2]}`)) {
        problems.push(`Catalogue ${catalogue[1]}/${catalogue[2]} loaded by ${path}: ${file}`);
      }
    }
    const bytes = readFileSync(join(webRoot, file));
    const gzipped = gzipSync(bytes, { level: 9 }).length;
    total += gzipped;
    console.log(`${(gzipped / 1000).toFixed(1).padStart(7)} kB gzip  ${(bytes.length / 1000).toFixed(1).padStart(7)} kB  ${file}`);
  }
  const verdict = total <= BUDGET_GZIP_BYTES ? 'within' : 'OVER';
  console.log(`JavaScript loaded by ${path}: ${(total / 1000).toFixed(2)} kB gzip, ${verdict} the ${BUDGET_GZIP_BYTES / 1000} kB budget`);
  if (total > BUDGET_GZIP_BYTES) problems.push(`${path} is over budget`);
  return problems;
}

function main(): void {
  const manifest = JSON.parse(readFileSync(join(webRoot, '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  if (!entryKey) throw new Error('The build manifest has no entry chunk: run `vite build` first.');

  // Written by vite.config.ts's chunkModules plugin: the modules with code in each chunk.
  const modulesOfChunk = JSON.parse(readFileSync(join(webRoot, '.vite', 'chunk-modules.json'), 'utf8')) as Record<string, string[]>;
  const closure = startClosure(manifest, entryKey);
  const problems: string[] = [];
  for (const locale of LOCALES) {
    const path = localizedPath(locale, '/donate');
    const catalogue = landingCatalogueFile(manifest, locale);
    if (catalogue === undefined) problems.push(`The build has no landing catalogue chunk for ${locale}`);
    problems.push(...checkPage(path, catalogue === undefined ? closure : [...closure, catalogue], modulesOfChunk, [`${locale}/landing`]));
  }
  if (problems.length > 0) {
    console.log(problems.join('\n'));
    process.exitCode = 1;
  } else {
    console.log('No Stripe, no staff code and no other language\'s catalogue loaded by any landing page');
  }
}

main();
