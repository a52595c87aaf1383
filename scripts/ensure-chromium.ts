/**
 * Makes sure Debian's Chromium is there for the browser tests (issue #2: "if it needs Chromium and
 * none is found it installs Debian's chromium when it can (root with apt) and otherwise stops with a
 * clear message"). Browser downloads (`npx playwright install`) do not work on this machine.
 * Exit code 0 when Chromium is ready, 1 with a message otherwise.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { CHROMIUM_PATH } from './chromium-path';

if (existsSync(CHROMIUM_PATH)) process.exit(0);

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const hasApt = existsSync('/usr/bin/apt-get');
if (!isRoot || !hasApt) {
  console.error(
    `Chromium was not found at ${CHROMIUM_PATH}, and it cannot be installed automatically ` +
      `(${isRoot ? 'no apt-get on this machine' : 'not running as root'}).\n` +
      'Install it with `sudo apt-get install -y chromium`, or set CHROMIUM_PATH to a Chromium binary, then run `npm test` again.',
  );
  process.exit(1);
}

console.log(`Chromium not found at ${CHROMIUM_PATH}: installing Debian's chromium package...`);
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit', env });
if (!existsSync(CHROMIUM_PATH)) {
  console.error(`apt-get finished but ${CHROMIUM_PATH} is still missing; set CHROMIUM_PATH to the Chromium binary.`);
  process.exit(1);
}
