/**
 * Makes sure Debian's Chromium is there for the browser tests (issue #2: "if it needs Chromium and
 * none is found it installs Debian's chromium when it can (root with apt) and otherwise stops with a
 * clear message"): the `chromium` package (Lighthouse, the stand-ins' test) and `chromium-headless-shell` (the
 * end-to-end tests; see chromium-path.ts; the embedding e2e also runs the `chromium` package's full binary), or the one binary CHROMIUM_PATH names,
 * and Debian's `firefox-esr` (the embedding's Firefox story, issue #35). Browser downloads
 * (`npx playwright install`) do not work on this machine.
 * Exit code 0 when Chromium is ready, 1 with a message otherwise.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { CHROMIUM_PACKAGES, CHROMIUM_PATH, E2E_CHROMIUM_PATH, FIREFOX_ESR_PATH, FULL_CHROMIUM_PATH } from './chromium-path';

const missing = [...new Set([CHROMIUM_PATH, E2E_CHROMIUM_PATH, FULL_CHROMIUM_PATH, FIREFOX_ESR_PATH])].filter((path) => !existsSync(path));
if (missing.length === 0) process.exit(0);

const packages = [...new Set(missing.map((path) => CHROMIUM_PACKAGES[path]))];
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const hasApt = existsSync('/usr/bin/apt-get');
if (packages.some((name) => name === undefined) || !isRoot || !hasApt) {
  console.error(
    `Chromium was not found at ${missing.join(' and ')}, and it cannot be installed automatically ` +
      `(${!isRoot ? 'not running as root' : !hasApt ? 'no apt-get on this machine' : 'CHROMIUM_PATH names no Debian package'}).\n` +
      'Install it with `sudo apt-get install -y chromium chromium-headless-shell firefox-esr`, or set CHROMIUM_PATH to a Chromium binary, then run `npm test` again.',
  );
  process.exit(1);
}

console.log(`Chromium not found at ${missing.join(' and ')}: installing Debian's ${packages.join(' and ')}...`);
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
execFileSync('apt-get', ['install', '-y', '-qq', ...(packages as string[])], { stdio: 'inherit', env });
const stillMissing = missing.filter((path) => !existsSync(path));
if (stillMissing.length > 0) {
  console.error(`apt-get finished but ${stillMissing.join(' and ')} is still missing; set CHROMIUM_PATH to the Chromium binary.`);
  process.exit(1);
}
