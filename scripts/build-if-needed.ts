/**
 * `npm start` builds what is missing (issue #2): runs `npm run build` (`vite build`, then the
 * pre-render of /donate, issue #5) when a built page is absent (dist/web/index.html, or a pre-rendered
 * page of PRERENDERED_PAGES such as dist/web/donate.html) or older than any source file the site is
 * built from (src/web, src/shared, vite.config.ts, the pre-render script, package-lock.json).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { PRERENDERED_PAGES } from '../src/shared/prerendered-pages';

const root = new URL('..', import.meta.url).pathname;
const builtPages = ['index.html', ...PRERENDERED_PAGES.map((page) => page.file)].map((file) => join(root, 'dist/web', file));

/** Newest modification time (ms) of a file or of any file below a folder. */
function newestMtimeMs(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((newest, name) => Math.max(newest, newestMtimeMs(join(path, name))), 0);
}

const sources = ['src/web', 'src/shared', 'src/locales', 'vite.config.ts', 'scripts/vite-catalogues.ts', 'scripts/prerender.ts', 'package-lock.json'].map((p) => join(root, p));
const stale =
  !builtPages.every((page) => existsSync(page)) ||
  sources.some((source) => existsSync(source) && newestMtimeMs(source) > Math.min(...builtPages.map((page) => statSync(page).mtimeMs)));

if (stale) {
  console.log('Building the site (vite build, then the pre-render of /donate)...');
  // NOTE: NODE_ENV=production whatever the server's (the e2e server runs with NODE_ENV=test): Vite keeps a NODE_ENV it
  // finds, and any other value than production builds React's development bundle, slower and noisier than what ships.
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
}
