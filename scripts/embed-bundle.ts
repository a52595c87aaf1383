import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

/**
 * The embed script's bundle (issue #35; decision 0104): src/web/embed/script/reef-donate.ts and the shared message format
 * it imports, alone, minified, as one classic script (an IIFE: a host page loads it with a plain `<script src>`), for
 * browsers of the last few years (ES2020: custom elements, `<dialog>`). The build writes it (scripts/build-embed.ts);
 * the size test builds it in memory.
 */

/** Most bytes embed.js may weigh gzipped (issue #35: "at most 3 kB gzip"; 1 kB = 1000 bytes, as Lighthouse counts). */
export const EMBED_BUDGET_GZIP_BYTES = 3_000;

/** The embed script's entry. */
export const EMBED_ENTRY = fileURLToPath(new URL('../src/web/embed/script/reef-donate.ts', import.meta.url));

/** Builds embed.js in memory: its code and its gzip size in bytes. Rejects with esbuild's message when it does not compile. */
export async function buildEmbedScript(): Promise<{ code: string; gzipBytes: number }> {
  const result = await build({
    entryPoints: [EMBED_ENTRY],
    bundle: true,
    minify: true,
    format: 'iife',
    // NOTE: ES2022 keeps class fields as they are (es2020 wrapped each in a defineProperty helper: 100 bytes gzip);
    // every browser of the site's own build target (Baseline widely available) has them.
    target: 'es2022',
    write: false,
    legalComments: 'none',
  });
  const code = result.outputFiles[0]?.text ?? '';
  return { code, gzipBytes: gzipSync(code, { level: 9 }).length };
}
