import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { stopEmbeddedPostgres } from '../src/server/db/embedded-postgres';
import { HEALTH_PATHS } from '../src/server/health/health-routes';
import { TEST_SUCCESS_CARDS } from '../src/server/payments/test-gateway';
import { postDonation, type SentDonation } from '../src/server/testing/donation-burst';
import { createMinimalWebRoot, csrfHeaders, NPM_START, startServerProcess, type ServerProcess } from '../src/server/testing/server-process';
import { validSubmission } from '../src/server/testing/test-app';

/**
 * `npm run bench:start [-- --repo <checkout> --runs 5 --donations 5000]` (issue #33, "Benchmark"): how long `npm start` takes from
 * its spawn to the first 200 on /readyz, and the server process's memory (RSS) after the start and after 5,000
 * donations, for the checkout at `--repo` (by default this one; `--repo` a copy of another commit, with its
 * node_modules and built dist/, measures that commit's start the same way).
 * - `npm start` as an operator runs it (a process group of its own) on the embedded database in one temporary
 *   DATA_DIR; a first start, not counted, initialises the database and brings the build up to date; then `--runs`
 *   timed starts, each stopped with SIGTERM to the group. NODE_ENV=benchmark, RATE_LIMITS=off (5,000 donations from
 *   one address), LOG_LEVEL=warn, a one-page WEB_ROOT, no receipt sent during the run (the mail relay waits a day).
 * - The server process is the deepest process under npm (npm, then a shell or tsx's wrapper when there are any);
 *   its RSS and that of the whole tree are read from /proc (Linux) once /readyz answers 200, and again after 5,000
 *   donations (POST /api/process-donation, 10 at a time, the test cards that succeed in turn) on the last start.
 * - The CPU time (user + system) of npm start's processes until that 200, exited ones included (the check of the
 *   build, a compiler), from /proc: a figure the machine's other load disturbs far less than the time.
 * Prints the median, the fastest and the slowest start, the CPU and RSS figures, and the machine and its load.
 */

const CONCURRENT_DONATIONS = 10;
const DAY_MS = 24 * 60 * 60 * 1000;
/** A start may build first (the uncounted one) and takes seconds more on a busy 2-core machine. */
const START_TIMEOUT_MS = 300_000;

const { values } = parseArgs({
  options: { repo: { type: 'string' }, runs: { type: 'string', default: '5' }, donations: { type: 'string', default: '5000' } },
});
const repo = values.repo ? path.resolve(values.repo) : undefined;
const runs = Number(values.runs);
/** Donations sent on the last start before its RSS is read again (`--donations 0`: none, the starts only). */
const DONATIONS = Number(values.donations);

/** Every process of this machine and its parent, from /proc. */
async function parentsByPid(): Promise<Map<number, number>> {
  const parents = new Map<number, number>();
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => '');
    // NOTE: the fields after the command name (in parentheses, may hold spaces): state, then the parent's pid.
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (stat) parents.set(Number(name), parent);
  }
  return parents;
}

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux's common architectures). */
const CLOCK_TICKS_PER_SECOND = 100;

/**
 * The CPU time (user + system, in ms) a process spent and that of its children it has waited for (`npm start`'s check
 * of the build, tsx's compile of it), 0 when it is gone: /proc/<pid>/stat's utime, stime, cutime and cstime.
 */
async function cpuMs(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  // NOTE: after the command name, field 3 (state) is at index 0, so utime (14) to cstime (17) are at 11 to 14.
  const ticks = stat.slice(stat.lastIndexOf(')') + 2).split(' ').slice(11, 15).map(Number);
  return (ticks.reduce((sum, tick) => sum + tick, 0) * 1000) / CLOCK_TICKS_PER_SECOND;
}

/** The RSS of a process in MB (VmRSS of /proc/<pid>/status), 0 when it is gone. */
async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  return Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1] ?? 0) / 1024;
}

/** `npm start`'s process tree: every pid from npm down, and the deepest one, the server. */
async function processTree(npmPid: number): Promise<{ pids: number[]; serverPid: number }> {
  const parents = await parentsByPid();
  const depthOf = (pid: number): number => {
    let depth = 0;
    for (let current = pid; current !== npmPid; depth += 1) {
      const parent = parents.get(current);
      if (parent === undefined || parent <= 1) return -1;
      current = parent;
    }
    return depth;
  };
  // NOTE: the embedded PostgreSQL server runs in a session of its own (pg_ctl), outside npm's tree.
  const tree = [...parents.keys()].map((pid) => ({ pid, depth: depthOf(pid) })).filter(({ depth }) => depth >= 0);
  const server = tree.reduce((deepest, entry) => (entry.depth > deepest.depth ? entry : deepest));
  return { pids: tree.map(({ pid }) => pid), serverPid: server.pid };
}

/** What one start measured. */
interface StartFigures {
  readyMs: number;
  /** CPU time of every process from npm down, exited ones included, until /readyz answered 200. */
  cpuMs: number;
  serverRssMb: number;
  treeRssMb: number;
  processes: number;
}

/** Starts `npm start`, resolves once /readyz answers 200, with the server and what it measured. */
async function timedStart(env: Record<string, string>): Promise<{ server: ServerProcess; figures: StartFigures }> {
  const startedAt = performance.now();
  const server = await startServerProcess(env, START_TIMEOUT_MS, { ...NPM_START, ...(repo ? { cwd: repo } : {}) });
  for (;;) {
    const status = await fetch(`${server.baseUrl}${HEALTH_PATHS.ready}`).then((response) => response.status, () => 0);
    if (status === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const readyMs = performance.now() - startedAt;
  const tree = await processTree(server.child.pid ?? 0);
  const rss = await Promise.all(tree.pids.map(rssMb));
  const cpu = await Promise.all(tree.pids.map(cpuMs));
  return {
    server,
    figures: { readyMs, cpuMs: cpu.reduce((sum, ms) => sum + ms, 0), serverRssMb: await rssMb(tree.serverPid), treeRssMb: rss.reduce((sum, mb) => sum + mb, 0), processes: tree.pids.length },
  };
}

/** Sends SIGTERM to `npm start`'s process group and resolves once npm has exited. */
async function stop(server: ServerProcess): Promise<void> {
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  process.kill(-(server.child.pid ?? 0), 'SIGTERM');
  await exited;
}

/** Sends DONATIONS donations, CONCURRENT_DONATIONS at a time; resolves with the number answered 200. */
async function donate(server: ServerProcess): Promise<number> {
  const headers = await csrfHeaders(server.baseUrl);
  let next = 0;
  let succeeded = 0;
  const donor = async () => {
    for (let index = next++; index < DONATIONS; index = next++) {
      const number = TEST_SUCCESS_CARDS[index % TEST_SUCCESS_CARDS.length] ?? '';
      const donation: SentDonation = { key: randomUUID(), body: validSubmission({}, { number }), transactionIds: new Set() };
      await postDonation(server, headers, donation);
      if (donation.status === 200) succeeded += 1;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENT_DONATIONS }, donor));
  return succeeded;
}

const median = (numbers: number[]) => [...numbers].sort((a, b) => a - b)[Math.floor(numbers.length / 2)] ?? Number.NaN;

async function main(): Promise<void> {
  const loadAtStart = os.loadavg();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'donation-bench-start-'));
  const web = await createMinimalWebRoot();
  // NOTE: the mail relay's start-up run finds nothing and the next waits a day, as in `npm run bench`: 5,000 receipt
  // PDFs rendered during the donations would take minutes of CPU on a busy machine and measure the PDF renderer.
  const env = { NODE_ENV: 'benchmark', RATE_LIMITS: 'off', LOG_LEVEL: 'warn', MAIL_POLL_INTERVAL_MS: String(DAY_MS), DATA_DIR: dataDir, WEB_ROOT: web.webRoot };
  try {
    console.error(`First start (not counted) of ${repo ?? 'this checkout'}...`);
    await stop((await timedStart(env)).server);
    const starts: StartFigures[] = [];
    let afterDonations: StartFigures | undefined;
    for (let run = 1; run <= runs; run += 1) {
      const { server, figures } = await timedStart(env);
      starts.push(figures);
      console.error(`Start ${run}: ${figures.readyMs.toFixed(0)} ms to /readyz 200 (${figures.cpuMs.toFixed(0)} ms of CPU), server RSS ${figures.serverRssMb.toFixed(0)} MB`);
      if (run === runs && DONATIONS > 0) {
        console.error(`Sending ${DONATIONS} donations...`);
        const succeeded = await donate(server);
        if (succeeded !== DONATIONS) throw new Error(`${DONATIONS - succeeded} donations were not answered 200`);
        const tree = await processTree(server.child.pid ?? 0);
        const rss = await Promise.all(tree.pids.map(rssMb));
        afterDonations = { readyMs: Number.NaN, cpuMs: Number.NaN, serverRssMb: await rssMb(tree.serverPid), treeRssMb: rss.reduce((sum, mb) => sum + mb, 0), processes: tree.pids.length };
      }
      await stop(server);
    }
    const cpus = os.cpus();
    const loadAverage = (numbers: number[]) => numbers.map((value) => value.toFixed(2)).join(', ');
    console.log(`\nCheckout: ${repo ?? process.cwd()}`);
    console.log(`Machine: ${cpus.length} × ${cpus[0]?.model ?? 'unknown CPU'}, ${os.platform()} ${os.release()}, Node ${process.version}`);
    console.log(`Load average (1, 5, 15 min) at the start: ${loadAverage(loadAtStart)}; at the end: ${loadAverage(os.loadavg())}`);
    const ready = starts.map((figures) => figures.readyMs);
    console.log(`npm start to the first 200 on /readyz, ${runs} starts: median ${median(ready).toFixed(0)} ms (fastest ${Math.min(...ready).toFixed(0)}, slowest ${Math.max(...ready).toFixed(0)})`);
    const cpu = starts.map((figures) => figures.cpuMs);
    console.log(`CPU time of npm start's processes until then: median ${median(cpu).toFixed(0)} ms (least ${Math.min(...cpu).toFixed(0)}, most ${Math.max(...cpu).toFixed(0)})`);
    console.log(`Processes from npm down: ${starts[0]?.processes}`);
    console.log(
      `RSS after the start, median: server ${median(starts.map((f) => f.serverRssMb)).toFixed(0)} MB, ` +
        `all of npm start's processes ${median(starts.map((f) => f.treeRssMb)).toFixed(0)} MB`,
    );
    if (afterDonations) console.log(`RSS after ${DONATIONS} donations: server ${afterDonations?.serverRssMb.toFixed(0)} MB, all of npm start's processes ${afterDonations?.treeRssMb.toFixed(0)} MB`);
  } finally {
    await stopEmbeddedPostgres(dataDir);
    await web.remove();
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
