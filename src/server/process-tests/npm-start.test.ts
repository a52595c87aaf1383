import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CLUSTER_DIR_NAME, runningServerOf, stopEmbeddedPostgres } from '../db/embedded-postgres';
import { HEALTH_PATHS } from '../health/health-routes';
import { createMinimalWebRoot, NPM_START, startServerProcess, type ServerProcess } from '../testing/server-process';

/**
 * Issue #33: `npm start` as operators run it, in a process group of its own, on the embedded database: npm runs ONE
 * server process, `node --enable-source-maps dist/server/main.mjs` (no tsx wrapper between), built first when its
 * build is missing. SIGTERM and SIGINT, sent to the whole group (a terminal's Ctrl-C, a supervisor's group kill:
 * the server gets the signal directly and again relayed by npm) or to the server alone, each drain the server and
 * stop the embedded PostgreSQL server, and `npm start` exits 0 (docs/decisions/0099-one-built-server-process.md).
 */

const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));
/** The stamp of the server's build (scripts/build.mjs): deleted, the next `npm start` builds the server first. */
const SERVER_BUILD_STAMP = path.join(REPO_ROOT, 'dist', 'build-stamps', 'server');
/** A start may build the server first, and takes up to a minute on a busy 2-core machine. */
const START_TIMEOUT_MS = 120_000;

let dataDir: string;
let webRoot: Awaited<ReturnType<typeof createMinimalWebRoot>>;
const started: ServerProcess[] = [];
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'npm-start-'));
  webRoot = await createMinimalWebRoot();
});
afterAll(async () => {
  for (const server of started) await server.kill();
  if (dataDir) {
    await stopEmbeddedPostgres(dataDir);
    await rm(dataDir, { recursive: true, force: true });
  }
  await webRoot?.remove();
});

/** `npm start` on the file's DATA_DIR, once /readyz answers 200. */
async function npmStart(): Promise<ServerProcess> {
  const server = await startServerProcess({ NODE_ENV: 'test', LOG_LEVEL: 'info', DATA_DIR: dataDir, WEB_ROOT: webRoot.webRoot }, START_TIMEOUT_MS, NPM_START);
  started.push(server);
  await vi.waitFor(async () => expect((await fetch(`${server.baseUrl}${HEALTH_PATHS.ready}`)).status).toBe(200), { timeout: 30_000, interval: 100 });
  return server;
}

/** The pid in the server's first JSON log line (pino's `pid`). */
function serverPid(server: ServerProcess): number {
  const line = server.lines.find((candidate) => candidate.startsWith('{"level"'));
  const pid = (JSON.parse(line ?? '{}') as { pid?: number }).pid;
  if (pid === undefined) throw new Error(`No JSON log line with a pid yet: ${server.lines.join('\n')}`);
  return pid;
}

/** The parent pid and the command line of a running process (Linux's /proc). */
async function processInfo(pid: number): Promise<{ parentPid: number; commandLine: string[] }> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // NOTE: the fields after the command name, which is in parentheses and may hold spaces: state, then the parent's pid.
  const parentPid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  const commandLine = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0').filter(Boolean);
  return { parentPid, commandLine };
}

/** Resolves with npm's exit code and signal once it has exited. */
function npmExit(server: ServerProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  const { child } = server;
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

/** The server's log lines of shutdown event `event` (close-on-signals.ts). */
const shutdownEvents = (server: ServerProcess, event: string) => server.lines.filter((line) => line.includes(`"event":"${event}"`));

describe('npm start', () => {
  it('builds a missing server build, then runs ONE server process: node on dist/server/main.mjs, a child of npm', { timeout: START_TIMEOUT_MS + 60_000 }, async () => {
    await rm(SERVER_BUILD_STAMP, { force: true });
    const server = await npmStart();
    expect(server.lines.join('\n')).toContain('Building the server (src/server into dist/server/main.mjs): it was never built');

    const pid = serverPid(server);
    const { parentPid, commandLine } = await processInfo(pid);
    expect(parentPid, 'no wrapper between npm and the server').toBe(server.child.pid);
    expect(commandLine.slice(1)).toEqual(['--enable-source-maps', 'dist/server/main.mjs']);

    process.kill(pid, 'SIGTERM');
    expect(await npmExit(server)).toEqual({ code: 0, signal: null });
  });

  describe.each(['SIGTERM', 'SIGINT'] as const)('%s', (signal) => {
    it.each(['the whole process group', 'the server alone'] as const)(
      `sent to %s: the server drains once, stops its PostgreSQL server, npm exits 0`,
      { timeout: START_TIMEOUT_MS + 60_000 },
      async (target) => {
        const server = await npmStart();
        const pid = serverPid(server);
        if (target === 'the whole process group') process.kill(-(server.child.pid ?? 0), signal);
        else process.kill(pid, signal);

        expect(await npmExit(server), server.lines.slice(-5).join('\n')).toEqual({ code: 0, signal: null });
        expect(shutdownEvents(server, 'shutdown.started')).toHaveLength(1);
        expect(shutdownEvents(server, 'shutdown.finished'), 'drained').toHaveLength(1);
        expect(shutdownEvents(server, 'shutdown.repeated')).toEqual([]);
        // The group's signal reaches the server directly and again relayed by npm, milliseconds apart: one signal, not a
        // second one. NOTE: at most once, since the kernel merges a signal that arrives while the same one is pending.
        expect(shutdownEvents(server, 'shutdown.same-signal').length).toBeLessThanOrEqual(target === 'the whole process group' ? 1 : 0);
        expect(await runningServerOf(path.join(dataDir, CLUSTER_DIR_NAME)), 'the embedded PostgreSQL server stopped').toBeUndefined();
      },
    );
  });
});
