import { fileURLToPath } from 'node:url';
import { buildServerBundle } from './server-bundle';

/**
 * The server's part of `npm run build` (issue #33, decision 0099; run by scripts/build.mjs): src/server/main.ts and
 * every module of ours it imports into dist/server/main.mjs, one plain ES module that `npm start` runs with
 * `node --enable-source-maps`. Exits 1 with esbuild's message when the sources do not compile.
 */
const entry = fileURLToPath(new URL('../src/server/main.ts', import.meta.url));
const outDir = fileURLToPath(new URL('../dist/server', import.meta.url));
const file = await buildServerBundle(entry, outDir, 'main.mjs');
console.log(`Built the server into ${file}`);
