/**
 * Bundle budget (issue #5): the JavaScript that /donate loads, gzipped, must stay within
 * BUDGET_GZIP_BYTES. "Loaded by /donate" is the entry chunk of index.html and every chunk it imports
 * statically (what the browser fetches before the screen can run), read from Vite's build manifest;
 * the lazily loaded form and thank-you chunks are not counted. Run after `vite build`:
 * `npm run check:bundle` builds first, prints each chunk and the total, and exits 1 when over.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** The budget: 150 kB (1 kB = 1000 bytes, as size-limit and Lighthouse count) of gzip. */
export const BUDGET_GZIP_BYTES = 150_000;

/** One chunk of Vite's manifest (only the fields the budget needs). */
interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
}

const webRoot = join(import.meta.dirname, '..', 'dist', 'web');

/** The output files of `entryKey` and of every chunk it imports statically, transitively. */
export function staticClosure(manifest: Record<string, ManifestChunk>, entryKey: string): string[] {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const imported of manifest[key]?.imports ?? []) visit(imported);
  };
  visit(entryKey);
  return [...seen].map((key) => manifest[key]?.file).filter((file): file is string => file !== undefined);
}

function main(): void {
  const manifest = JSON.parse(readFileSync(join(webRoot, '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  if (!entryKey) throw new Error('The build manifest has no entry chunk: run `vite build` first.');

  let total = 0;
  for (const file of staticClosure(manifest, entryKey)) {
    const bytes = readFileSync(join(webRoot, file));
    const gzipped = gzipSync(bytes, { level: 9 }).length;
    total += gzipped;
    console.log(`${(gzipped / 1000).toFixed(1).padStart(7)} kB gzip  ${(bytes.length / 1000).toFixed(1).padStart(7)} kB  ${file}`);
  }
  const verdict = total <= BUDGET_GZIP_BYTES ? 'within' : 'OVER';
  console.log(`JavaScript loaded by /donate: ${(total / 1000).toFixed(1)} kB gzip, ${verdict} the ${BUDGET_GZIP_BYTES / 1000} kB budget`);
  if (total > BUDGET_GZIP_BYTES) process.exitCode = 1;
}

main();
