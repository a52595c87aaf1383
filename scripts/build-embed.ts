import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildEmbedScript, EMBED_BUDGET_GZIP_BYTES } from './embed-bundle';

/**
 * The embed script's part of the site's build (issue #35; run by scripts/build.mjs after `vite build`): writes
 * dist/web/embed.js, served at `<PUBLIC_URL>/embed.js`, and fails (exit 1) when it weighs more than 3 kB gzipped.
 */
const file = fileURLToPath(new URL('../dist/web/embed.js', import.meta.url));
const { code, gzipBytes } = await buildEmbedScript();
if (gzipBytes > EMBED_BUDGET_GZIP_BYTES) {
  console.error(`embed.js is ${gzipBytes} bytes gzipped, over its budget of ${EMBED_BUDGET_GZIP_BYTES}`);
  process.exit(1);
}
writeFileSync(file, code);
console.log(`Built embed.js: ${code.length} bytes, ${gzipBytes} gzipped (budget ${EMBED_BUDGET_GZIP_BYTES})`);
