/**
 * Bundle budget (issues #5 and #20): the JavaScript that /donate loads, gzipped, must stay within
 * BUDGET_GZIP_BYTES, summed over every chunk it loads. "Loaded by /donate" is the entry chunk of index.html, every
 * chunk it imports statically, and the stages of the app's start that the entry itself imports dynamically
 * (src/web/main.tsx, decision 0070) with every chunk they import statically: what the browser fetches before the
 * screen is live. Read from Vite's build manifest; the lazily loaded screens (the form, thank-you, receipts and manage
 * screens, which the stages import dynamically) are not counted. Run after `vite build`: `npm run check:bundle`
 * builds first, prints each chunk and the total, and exits 1 when over.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

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

function main(): void {
  const manifest = JSON.parse(readFileSync(join(webRoot, '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  if (!entryKey) throw new Error('The build manifest has no entry chunk: run `vite build` first.');

  // Written by vite.config.ts's chunkModules plugin: the modules with code in each chunk.
  const modulesOfChunk = JSON.parse(readFileSync(join(webRoot, '.vite', 'chunk-modules.json'), 'utf8')) as Record<string, string[]>;
  let total = 0;
  const forbidden: string[] = [];
  for (const file of startClosure(manifest, entryKey)) {
    forbidden.push(...(modulesOfChunk[file] ?? []).filter((id) => FORBIDDEN_ON_DONATE.test(id)).map((id) => `${file}: ${id}`));
    const bytes = readFileSync(join(webRoot, file));
    const gzipped = gzipSync(bytes, { level: 9 }).length;
    total += gzipped;
    console.log(`${(gzipped / 1000).toFixed(1).padStart(7)} kB gzip  ${(bytes.length / 1000).toFixed(1).padStart(7)} kB  ${file}`);
  }
  const verdict = total <= BUDGET_GZIP_BYTES ? 'within' : 'OVER';
  console.log(`JavaScript loaded by /donate: ${(total / 1000).toFixed(1)} kB gzip, ${verdict} the ${BUDGET_GZIP_BYTES / 1000} kB budget`);
  if (total > BUDGET_GZIP_BYTES) process.exitCode = 1;
  if (forbidden.length > 0) {
    console.log(`Stripe or staff code loaded by /donate:\n  ${forbidden.join('\n  ')}`);
    process.exitCode = 1;
  } else {
    console.log('No Stripe and no staff code loaded by /donate');
  }
}

main();
