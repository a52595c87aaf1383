// @ts-check
/**
 * `npm run build`, and the check before `npm start` (issues #2 and #33, decision 0099): the one place that knows what
 * the build makes, and from what. Plain JavaScript, so that a start runs no TypeScript compiler: `npm start` runs
 * `node scripts/build.mjs --if-stale`, then `node --enable-source-maps dist/server/main.mjs`.
 *
 * Two parts, each built by its steps and then stamped (a file in dist/build-stamps, written when its last step
 * succeeded and deleted before its first, so a failed or half-done build is never taken for a good one):
 * - the site: `vite build` into dist/web, then the pre-render of /donate (issue #5) and embed.js (issue #35), with NODE_ENV=production;
 * - the server: src/server/main.ts and every module of ours into dist/server/main.mjs (scripts/build-server.ts).
 *
 * `node scripts/build.mjs` builds both. With `--if-stale` it builds only a part whose stamp is missing or older than
 * any of its sources, saying which and why; the site only when the server serves dist/web (WEB_ROOT unset). Exits 1
 * when a step fails.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const STAMP_DIR = join(ROOT, 'dist', 'build-stamps');
/** A program installed by npm (node_modules/.bin). */
const bin = (/** @type {string} */ name) => join(ROOT, 'node_modules', '.bin', name);

/**
 * @typedef {object} Part
 * @property {string} name the stamp's name
 * @property {string} what what the part builds, for the messages
 * @property {string[]} sources files and folders (relative to the repository) the part is built from
 * @property {[string, string[]][]} steps programs and their arguments, run in order from the repository
 * @property {boolean} [onlyForDefaultWebRoot] `--if-stale` skips it when WEB_ROOT is set (the server serves another folder)
 */

/** @type {Part[]} */
const PARTS = [
  {
    name: 'site',
    what: 'the site (vite build, then the pre-render of /donate and embed.js)',
    sources: ['src/web', 'src/shared', 'src/locales', 'vite.config.ts', 'scripts/vite-catalogues.ts', 'scripts/prerender.ts', 'scripts/embed-bundle.ts', 'scripts/build-embed.ts', 'package-lock.json'],
    steps: [
      [bin('vite'), ['build']],
      [bin('tsx'), ['scripts/prerender.ts']],
      [bin('tsx'), ['scripts/build-embed.ts']],
    ],
    onlyForDefaultWebRoot: true,
  },
  {
    name: 'server',
    what: 'the server (src/server into dist/server/main.mjs)',
    sources: ['src/server', 'src/shared', 'scripts/server-bundle.ts', 'scripts/build-server.ts', 'package-lock.json', 'tsconfig.json'],
    steps: [[bin('tsx'), ['scripts/build-server.ts']]],
  },
];

/**
 * The newest file at or below `path` and its modification time (ms), or undefined for a missing path or an empty folder.
 * @param {string} path
 * @returns {{ file: string, mtimeMs: number } | undefined}
 */
function newestFile(path) {
  if (!existsSync(path)) return undefined;
  const stat = statSync(path);
  if (!stat.isDirectory()) return { file: path, mtimeMs: stat.mtimeMs };
  /** @type {{ file: string, mtimeMs: number } | undefined} */
  let newest;
  for (const name of readdirSync(path)) {
    const candidate = newestFile(join(path, name));
    if (candidate && (!newest || candidate.mtimeMs > newest.mtimeMs)) newest = candidate;
  }
  return newest;
}

/**
 * Why `part` must be built again, or undefined when its build is newer than every source.
 * @param {Part} part
 * @returns {string | undefined}
 */
function staleness(part) {
  const stamp = join(STAMP_DIR, part.name);
  if (!existsSync(stamp)) return 'it was never built';
  const builtAtMs = statSync(stamp).mtimeMs;
  for (const source of part.sources) {
    const newest = newestFile(join(ROOT, source));
    if (newest && newest.mtimeMs > builtAtMs) return `${relative(ROOT, newest.file)} changed since it was built`;
  }
  return undefined;
}

/**
 * Runs the steps of `part`, then stamps it; throws (and leaves no stamp) when a step fails.
 * @param {Part} part
 */
function build(part) {
  const stamp = join(STAMP_DIR, part.name);
  rmSync(stamp, { force: true });
  for (const [program, args] of part.steps) {
    // NOTE: NODE_ENV=production whatever the caller's (the e2e server runs with NODE_ENV=test): Vite keeps a NODE_ENV it
    // finds, and any other value than production builds React's development bundle, slower and noisier than what ships.
    execFileSync(program, args, { cwd: ROOT, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
  }
  mkdirSync(STAMP_DIR, { recursive: true });
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
}

const ifStale = process.argv.includes('--if-stale');
try {
  for (const part of PARTS) {
    if (!ifStale) {
      build(part);
      continue;
    }
    if (part.onlyForDefaultWebRoot && process.env.WEB_ROOT !== undefined) continue;
    const reason = staleness(part);
    if (reason === undefined) continue;
    console.log(`Building ${part.what}: ${reason} (npm run build builds everything)...`);
    build(part);
  }
} catch (error) {
  console.error(`The build failed: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
}
