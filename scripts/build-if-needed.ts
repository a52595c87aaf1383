/**
 * `npm start` builds what is missing (issue #2): runs `vite build` when dist/web/index.html is absent
 * or older than any source file the site is built from (src/web, src/shared, vite.config.ts).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const builtPage = join(root, 'dist/web/index.html');

/** Newest modification time (ms) of a file or of any file below a folder. */
function newestMtimeMs(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((newest, name) => Math.max(newest, newestMtimeMs(join(path, name))), 0);
}

const sources = ['src/web', 'src/shared', 'vite.config.ts', 'package-lock.json'].map((p) => join(root, p));
const stale =
  !existsSync(builtPage) ||
  sources.some((source) => existsSync(source) && newestMtimeMs(source) > statSync(builtPage).mtimeMs);

if (stale) {
  console.log('Building the site (vite build)...');
  execFileSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
}
