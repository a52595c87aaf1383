import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { API_PATHS, CSRF_COOKIE_NAME, CSRF_HEADER_NAME } from '../../shared/api';
import { CSRF_SECRET_COOKIE_NAME } from '../http/csrf';
import { TEST_INDEX_HTML } from './test-app';

/**
 * The production server (src/server/main.ts) as a child process on a free port, for tests that need a real
 * process (the SIGKILL test of issue #3) and for `npm run bench`. It runs as ONE process, so that a SIGKILL reaches
 * the server itself and not a wrapper: `node --enable-source-maps <bundle>` in a test run whose global setup built
 * main.ts into one module (server-bundle-setup.ts, issue #19) with the code `npm run build` uses, the way `npm start`
 * runs dist/server/main.mjs (issue #33), otherwise `node --import tsx main.ts`. Or, for the tests of `npm start`
 * itself, `npm start` in a process group of its own ({@link NPM_START}).
 */

const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));
/** The server's entry module. */
export const MAIN_MODULE = path.join(REPO_ROOT, 'src', 'server', 'main.ts');
/** Names the environment variable holding the path of the run's server bundle (see server-bundle-setup.ts). */
export const SERVER_BUNDLE_ENV = 'TEST_SERVER_BUNDLE';
const READY_LINE = /Donation site running at http:\/\/localhost:(\d+)/;

/** A running server process. */
export interface ServerProcess {
  /** `http://127.0.0.1:<port>`. */
  baseUrl: string;
  child: ChildProcess;
  /** Every line the server wrote to stdout so far (its pino JSON log and the ready line). */
  readonly lines: readonly string[];
  /** Every line the server wrote to stderr so far (start-up failures, crashes, anything printed with console.error). */
  readonly stderrLines: readonly string[];
  /** Resolves with the first stdout line (past or future) that `matches`; rejects after `timeoutMs` or if the process exits. */
  waitForLine(matches: (line: string) => boolean, timeoutMs: number): Promise<string>;
  /** Sends SIGKILL and resolves once the process is gone. */
  kill(): Promise<void>;
  /** Sends SIGTERM (graceful shutdown) and resolves with the exit code once the process is gone. */
  stop(): Promise<number | null>;
}

/** Resolves once `child` has exited (at once if it already has), with its exit code. */
function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/** Calls `onLine` with each line `stream` writes (UTF-8), the last one too when the stream ends without a newline. */
function onEachLine(stream: Readable | null, onLine: (line: string) => void): void {
  let partial = '';
  stream
    ?.setEncoding('utf8')
    .on('data', (chunk: string) => {
      const parts = (partial + chunk).split('\n');
      partial = parts.pop() ?? '';
      for (const line of parts) onLine(line);
    })
    .on('end', () => {
      if (partial) onLine(partial);
      partial = '';
    });
}

/** A server process that may not be listening yet: what {@link spawnServerProcess} returns. */
export type StartingServerProcess = Omit<ServerProcess, 'baseUrl' | 'stop'>;

/** How a server process is started: a program and its arguments, run from the repository. */
export interface ServerLaunch {
  command: string;
  args: readonly string[];
  /** True: in a process group of its own (the child's pid is the group's id), killed as a group. */
  detached?: boolean;
  /** The folder it runs in; by default this repository (`npm run bench:start` also starts another checkout). */
  cwd?: string;
}

/**
 * `npm start` as an operator runs it, in a process group of its own, as a terminal or a supervisor starts it: npm,
 * then `node --enable-source-maps dist/server/main.mjs` (built first when stale, scripts/build.mjs; issue #33).
 */
export const NPM_START: ServerLaunch = { command: 'npm', args: ['start'], detached: true };

/** The run's server bundle when its global setup built one, otherwise main.ts under tsx (outside a test run). */
function defaultLaunch(): ServerLaunch {
  const bundle = process.env[SERVER_BUNDLE_ENV];
  // NOTE: the bundle's inline source map puts our .ts files and lines in the stack traces a failing server prints.
  return { command: process.execPath, args: bundle ? ['--enable-source-maps', bundle] : ['--import', 'tsx', MAIN_MODULE] };
}

/**
 * Spawns main.ts with `env` (plus PATH and HOME; nothing else of this process's environment, so a developer's
 * DATABASE_URL never leaks in) and HOST=127.0.0.1, PORT=0, without waiting for it to listen: for a test that kills
 * a server during its start-up (issue #25). `launch` says how ({@link NPM_START}); by default as one node process.
 */
export function spawnServerProcess(env: Record<string, string>, launch: ServerLaunch = defaultLaunch()): StartingServerProcess {
  const child = spawn(launch.command, launch.args, {
    cwd: launch.cwd ?? REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', HOST: '127.0.0.1', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: launch.detached ?? false,
  });
  const lines: string[] = [];
  const stderrLines: string[] = [];
  const waiters = new Set<{ matches: (line: string) => boolean; resolve: (line: string) => void }>();
  onEachLine(child.stdout, (line) => {
    lines.push(line);
    for (const waiter of waiters) if (waiter.matches(line)) waiter.resolve(line);
  });
  onEachLine(child.stderr, (line) => stderrLines.push(line));

  const waitForLine = (matches: (line: string) => boolean, timeoutMs: number) =>
    new Promise<string>((resolve, reject) => {
      const found = lines.find(matches);
      if (found !== undefined) return resolve(found);
      const waiter = { matches, resolve: (line: string) => settle(() => resolve(line)) };
      const timer = setTimeout(() => settle(() => reject(new Error(`No matching server log line within ${timeoutMs} ms`))), timeoutMs);
      const onExit = () => settle(() => reject(new Error(`The server exited (code ${child.exitCode}): ${stderrLines.join('\n').trim()}`)));
      function settle(action: () => void) {
        clearTimeout(timer);
        waiters.delete(waiter);
        child.off('exit', onExit);
        action();
      }
      waiters.add(waiter);
      child.once('exit', onExit);
    });

  const kill = async () => {
    if (launch.detached && child.pid !== undefined) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // NOTE: ESRCH: every process of the group is gone already.
      }
    } else child.kill('SIGKILL');
    await exited(child);
  };
  return { child, lines, stderrLines, waitForLine, kill };
}

/**
 * Starts main.ts as {@link spawnServerProcess} does (`launch` too) and resolves once it prints its URL; rejects (and
 * kills it) when it exits first (with its stderr in the message) or takes longer than `startTimeoutMs`.
 */
export async function startServerProcess(env: Record<string, string>, startTimeoutMs = 60_000, launch?: ServerLaunch): Promise<ServerProcess> {
  const starting = spawnServerProcess(env, launch);
  let port: string | undefined;
  try {
    port = READY_LINE.exec(await starting.waitForLine((line) => READY_LINE.test(line), startTimeoutMs))?.[1];
  } catch (error) {
    await starting.kill();
    throw error;
  }
  return {
    ...starting,
    baseUrl: `http://127.0.0.1:${port}`,
    async stop() {
      starting.child.kill('SIGTERM');
      return exited(starting.child);
    },
  };
}

/** A temporary WEB_ROOT holding a one-line index.html, so the page route sets the CSRF cookies without a site build. */
export async function createMinimalWebRoot(): Promise<{ webRoot: string; remove: () => Promise<void> }> {
  const webRoot = await mkdtemp(path.join(tmpdir(), 'donation-web-'));
  await writeFile(path.join(webRoot, 'index.html'), TEST_INDEX_HTML);
  return { webRoot, remove: () => rm(webRoot, { recursive: true, force: true }) };
}

/** The headers a browser sends with an API POST after loading the page: the CSRF cookie pair and the echoed token. */
export async function csrfHeaders(baseUrl: string): Promise<Record<string, string>> {
  const page = await fetch(`${baseUrl}/`);
  const cookies = new Map(
    page.headers.getSetCookie().map((line) => {
      const pair = line.split(';')[0] ?? '';
      const eq = pair.indexOf('=');
      return [pair.slice(0, eq), pair.slice(eq + 1)] as const;
    }),
  );
  const secret = cookies.get(CSRF_SECRET_COOKIE_NAME);
  const token = cookies.get(CSRF_COOKIE_NAME);
  if (!secret || !token) throw new Error(`GET / did not set the CSRF cookies (status ${page.status})`);
  return {
    cookie: `${CSRF_SECRET_COOKIE_NAME}=${secret}; ${CSRF_COOKIE_NAME}=${token}`,
    [CSRF_HEADER_NAME]: token,
  };
}

/** Reads GET /api/donations/stats of a running server: the number of succeeded donations. */
export async function succeededDonationCount(baseUrl: string): Promise<number> {
  const response = await fetch(`${baseUrl}${API_PATHS.donationStats}`);
  const stats = (await response.json()) as { donationCount: number };
  return stats.donationCount;
}
