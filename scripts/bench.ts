import { execFileSync, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { API_PATHS } from '../src/shared/api';
import { IDEMPOTENCY_KEY_HEADER } from '../src/shared/api';
import { parseLedger } from '../src/server/payments/charge-ledger';
import { TEST_GATEWAY_LEDGER_FILE } from '../src/server/payments/create-gateway';
import { TEST_SUCCESS_CARDS } from '../src/server/payments/test-gateway';
import {
  createMinimalWebRoot,
  csrfHeaders,
  startServerProcess,
  succeededDonationCount,
  type ServerProcess,
} from '../src/server/testing/server-process';
import { CLUSTER_DIR_NAME, stopEmbeddedPostgres } from '../src/server/db/embedded-postgres';
import { openTestDatabase, startTestPostgres } from '../src/server/testing/test-database';
import { validSubmission } from '../src/server/testing/test-app';
import { startSmtpSink, type SinkReceipts, type SmtpSink } from './bench-smtp-sink';

/** The machine's PostgreSQL server (every machine of this project runs one; .ci/run), for the two-process run. */
const LOCAL_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/test';

/**
 * `npm run bench` (issue #3, "Benchmark"; issue #14, two processes and CPU per request; issue #39, receipts included):
 * load on the built production server, then on two API processes on PostgreSQL, then on a bare Fastify JSON echo,
 * in one run.
 * - The server: dist/server/main.mjs (built first when stale, `node scripts/build.mjs --if-stale`), NODE_ENV=benchmark,
 *   RATE_LIMITS=off, LOG_LEVEL=warn, on the embedded database in a temporary DATA_DIR (or on the PostgreSQL of
 *   DATABASE_URL when it is set), on a free port, with a temporary one-page WEB_ROOT, receipts written as `.eml` files
 *   in DATA_DIR/mail, or with BENCH_MAIL=smtp sent over SMTP to a sink in this process (scripts/bench-smtp-sink.ts), as
 *   a deployment with SMTP_URL sends them (BENCH_SERVER_BUNDLE names another build to measure, for an A/B
 *   comparison). Each API process is started with scripts/bench-preload.mjs, which loads React's production build (as
 *   NODE_ENV=production does) and counts the statements the process sends to PostgreSQL (one round trip each).
 * - One process, in three phases on one DATA_DIR (issue #39):
 *   1. the request path: BENCH_GIFTS donations (default 3,000), BENCH_CONNECTIONS at a time (default 20), the mail
 *      relay idle (its next run a day away), so its CPU per donation is the request's alone;
 *   2. the receipts alone: the server restarted with the relay on (MAIL_POLL_INTERVAL_MS default), which sends the
 *      receipts of phase 1 with no request to serve; measured from the ready line until every receipt is written;
 *   3. the burst: BENCH_GIFTS donations again, the relay on, then one donor at a time (a new donation as soon as the
 *      previous one is answered) until the burst's receipts are all sent: the donors' latency during the backlog;
 *      then until every receipt is sent. CPU per gift, receipt included.
 * - Two processes (skipped with BENCH_TWO_PROCESSES=0): the same main twice, relay idle, each with a DATA_DIR of its
 *   own, on one fresh PostgreSQL database created for the run on the server of DATABASE_URL (default
 *   {@link LOCAL_POSTGRES_URL}) and dropped after it; 5,000 donations, 50 connections, half on each.
 * - autocannon: POST /api/process-donation, a new Idempotency-Key per request, each donation from a donor of its own
 *   (`donor-<n>@example.org`, n counting the run's donations: an appeal's many donors, not one donor's thousands of
 *   gifts; decision 0116), the test cards that succeed in turn, with the CSRF cookie pair of one page load. The
 *   echo: 10 s of the same body on a bare Fastify `POST /echo` in its own process, 50 connections.
 * CPU is read from /proc (user + system clock ticks, every thread) before and after each phase: the API process's,
 * and the embedded PostgreSQL server's (its postmaster, the children it reaped, and the live ones: backends, WAL
 * writer, checkpointer...), so the whole machine's cost per gift is known; the echo's from its own process.cpuUsage.
 * Prints requests/s, p50/p99 latency, errors, CPU per request, statements per gift, the receipts' latency after the
 * last gift and the donors' p99 during the backlog. Checks, for each phase, that the new succeeded donations (GET
 * /api/donations/stats) equal the 2xx answers, and that one receipt (an `.eml` file, or a message the sink accepted)
 * was sent per succeeded donation; exits 1 if not.
 */

const TWO_PROCESS_CONNECTIONS = 50;
const DURATION_SECONDS = 10;
/** The goal of issue #3 on 2 cores. */
const TARGET = { requestsPerSecond: 500, p99Ms: 100 };
/** Issue #39's targets: request path per donation, whole gift per echo request, receipts after the last gift. */
const ISSUE_39 = { requestCpuMs: 1.5, giftOverEcho: 75, receiptsAfterLastGiftMs: 30_000 };
const ECHO_FLAG = '--echo-server';
/** The echo server's route that answers its process.cpuUsage() (microseconds) and the echo requests it served. */
const ECHO_CPU_PATH = '/cpu-usage';
/** Gifts of each one-process phase (issue #39: a burst of 3,000, 20 at a time); smaller for a quick run. */
const GIFTS = Number(process.env.BENCH_GIFTS ?? 3_000);
const GIFT_CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const TWO_PROCESSES = process.env.BENCH_TWO_PROCESSES !== '0';
/** Donations of the two-process run: about DURATION_SECONDS at the target rate. */
const TWO_PROCESS_DONATIONS = DURATION_SECONDS * TARGET.requestsPerSecond;
/** The bearer token of the admin routes in the API processes (32+ characters, new each run). */
const ADMIN_TOKEN = randomBytes(24).toString('hex');
const DAY_MS = 24 * 60 * 60 * 1000;
/** How long a server process may take to start. */
const START_TIMEOUT_MS = 180_000;
/** How long the bench waits for the receipts to be sent after the last gift before it gives up. */
const RECEIPTS_TIMEOUT_MS = 15 * 60 * 1000;
/**
 * How long autocannon waits for an answer, in seconds (its default is 10): on a busy machine a donation can take
 * longer, and an abandoned request is still completed by the server, so the 2xx answers and the rows would differ.
 */
const ANSWER_TIMEOUT_SECONDS = 120;
const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The server to measure: this checkout's build, or BENCH_SERVER_BUNDLE (another checkout's, for an A/B comparison). */
const SERVER_BUNDLE = process.env.BENCH_SERVER_BUNDLE ? path.resolve(process.env.BENCH_SERVER_BUNDLE) : path.join(REPO_ROOT, 'dist', 'server', 'main.mjs');
const PRELOAD = path.join(REPO_ROOT, 'scripts', 'bench-preload.mjs');
/** Clock ticks per second of /proc's CPU times. */
const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
/** Where `node --cpu-prof` writes the API process's profile when set (issue #39's profile; see BENCHMARKS.md). */
const CPU_PROFILE_DIR = process.env.BENCH_CPU_PROF_DIR;
/** Where the one-process run's receipts go: `.eml` files in its DATA_DIR (the default), or `smtp`, an SMTP sink. */
const MAIL = process.env.BENCH_MAIL === 'smtp' ? 'smtp' : 'eml';

/** The figures printed for one load. */
interface Figures {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  ok2xx: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** Requests answered (any status). */
  answered: number;
  /** How long the load took, in seconds. */
  durationSeconds: number;
  /** CPU the serving process spent during the load, in ms per request it served. */
  cpuMsPerRequest: number;
}

/** What a serving process tells about itself: its CPU time so far (user + system, in seconds) and the requests it served so far. */
type ReadMeter = () => Promise<{ cpuSeconds: number; served: number }>;

/** One request's body and extra headers. */
type NextRequest = () => { body: string; headers?: Record<string, string> };

/**
 * Runs autocannon against `url` with `connections` and the common `headers`, each request's body and headers from
 * `nextRequest`: `amount` requests when given (autocannon then waits for every answer), else for DURATION_SECONDS.
 * `meter` is read before and after.
 */
async function load(
  url: string,
  connections: number,
  headers: Record<string, string>,
  nextRequest: NextRequest,
  meter: ReadMeter,
  amount?: number,
): Promise<Figures> {
  const before = await meter();
  const result = await autocannon({
    url,
    method: 'POST',
    connections,
    timeout: ANSWER_TIMEOUT_SECONDS,
    ...(amount === undefined ? { duration: DURATION_SECONDS } : { amount }),
    headers: { ...headers, 'content-type': 'application/json' },
    requests: [
      {
        setupRequest: (request) => {
          const next = nextRequest();
          return { ...request, body: next.body, headers: { ...request.headers, ...next.headers } };
        },
      },
    ],
  });
  const after = await meter();
  const served = after.served - before.served;
  const answered = result['2xx'] + result.non2xx;
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    ok2xx: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    answered,
    durationSeconds: result.duration,
    cpuMsPerRequest: served > 0 ? ((after.cpuSeconds - before.cpuSeconds) * 1000) / served : Number.NaN,
  };
}

/** The bare Fastify echo (run with --echo-server): answers each JSON body with itself; prints its port. */
async function echoServer(): Promise<void> {
  const app = Fastify();
  let served = 0;
  app.post('/echo', async (request) => {
    served += 1;
    return request.body;
  });
  app.get(ECHO_CPU_PATH, async () => ({ ...process.cpuUsage(), served }));
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  console.log(`echo listening on ${typeof address === 'object' && address ? address.port : 0}`);
}

/** Starts the echo server in a child process; resolves with its URL, its meter and a function that stops it. */
async function startEcho(): Promise<{ url: string; meter: ReadMeter; stop: () => void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), ECHO_FLAG], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      const match = /echo listening on (\d+)/.exec(chunk);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`The echo server exited with code ${code}`)));
  });
  const base = `http://127.0.0.1:${port}`;
  const meter = async () => {
    const usage = (await (await fetch(`${base}${ECHO_CPU_PATH}`)).json()) as NodeJS.CpuUsage & { served: number };
    return { cpuSeconds: (usage.user + usage.system) / 1e6, served: usage.served };
  };
  return { url: `${base}/echo`, meter, stop: () => child.kill('SIGKILL') };
}

/** `/proc/<pid>/stat`'s fields after the command name (field 3, the state, is index 0), or undefined once it is gone. */
async function procStat(pid: number): Promise<string[] | undefined> {
  const text = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  return text?.slice(text.lastIndexOf(')') + 2).split(' ');
}

/** CPU seconds (user + system, every thread) of process `pid`, with those of its reaped children when `withReaped`. */
async function processCpuSeconds(pid: number, withReaped = false): Promise<number> {
  const fields = await procStat(pid);
  if (!fields) return 0;
  // utime, stime, cutime, cstime are fields 14-17 of proc(5): indices 11-14 here.
  const ticks = [11, 12, ...(withReaped ? [13, 14] : [])].reduce((sum, index) => sum + Number(fields[index] ?? 0), 0);
  return ticks / CLOCK_TICKS;
}

/**
 * CPU seconds of the embedded PostgreSQL server of `dataDir`: its postmaster (pid from postmaster.pid) with the
 * children it reaped, and its live children. 0 when it runs elsewhere (DATABASE_URL).
 */
async function postgresCpuSeconds(dataDir: string): Promise<number> {
  const pidText = await readFile(path.join(dataDir, CLUSTER_DIR_NAME, 'postmaster.pid'), 'utf8').catch(() => '');
  const postmaster = Number(pidText.split('\n')[0]);
  if (!postmaster) return 0;
  let seconds = await processCpuSeconds(postmaster, true);
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = await procStat(Number(entry));
    // ppid is field 4 of proc(5): index 1 here.
    if (fields && Number(fields[1]) === postmaster) seconds += await processCpuSeconds(Number(entry), true);
  }
  return seconds;
}

/** An API process and its DATA_DIR, where its test gateway keeps its ledger and its relay writes `.eml` files. */
interface BenchApi {
  server: ServerProcess;
  dataDir: string;
  /** The file where scripts/bench-preload.mjs writes the process's statement count. */
  queryCountFile: string;
}

/** Charges in the test gateway's ledger of an API process (one per donation). */
async function chargeCount(dataDir: string): Promise<number> {
  const ledger = await readFile(path.join(dataDir, TEST_GATEWAY_LEDGER_FILE), 'utf8').catch(() => '');
  return parseLedger(ledger).records.length;
}

/** The meter of an API process: its CPU from /proc, and the charges its test gateway's ledger holds. */
function apiMeter({ server, dataDir }: BenchApi): ReadMeter {
  const pid = server.child.pid ?? 0;
  return async () => ({ cpuSeconds: await processCpuSeconds(pid), served: await chargeCount(dataDir) });
}

/** The receipt `.eml` files written in `dataDir`'s mail folder, and when the last of them was written (ms since the epoch). */
async function receiptsSent(dataDir: string): Promise<{ count: number; lastWrittenMs: number }> {
  const dir = path.join(dataDir, 'mail');
  const names = (await readdir(dir).catch(() => [] as string[])).filter((name) => /-receipt-.*\.eml$/.test(name));
  let lastWrittenMs = 0;
  // NOTE: the names are sortable by creation, not by sending; the newest files are among the last few hundred.
  for (const name of names.sort().slice(-400)) {
    const info = await stat(path.join(dir, name)).catch(() => undefined);
    if (info && info.mtimeMs > lastWrittenMs) lastWrittenMs = info.mtimeMs;
  }
  return { count: names.length, lastWrittenMs };
}

/** The receipts the one-process run has sent so far: `.eml` files in `dataDir`, or those `sink` accepted. */
function receiptCounter(dataDir: string, sink: SmtpSink | undefined): () => Promise<SinkReceipts> {
  return sink ? async () => sink.receipts() : () => receiptsSent(dataDir);
}

/** Resolves once `sent` counts `count` receipts (polling every 100 ms); rejects after RECEIPTS_TIMEOUT_MS. */
async function waitForReceipts(sent: () => Promise<SinkReceipts>, count: number): Promise<{ lastWrittenMs: number }> {
  const deadline = Date.now() + RECEIPTS_TIMEOUT_MS;
  for (;;) {
    const receipts = await sent();
    if (receipts.count >= count) return receipts;
    if (Date.now() > deadline) throw new Error(`Only ${receipts.count} of ${count} receipts sent after ${RECEIPTS_TIMEOUT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The statements an API process has sent so far (scripts/bench-preload.mjs writes them every 100 ms). */
async function statementCount(api: BenchApi): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, 300));
  return Number(await readFile(api.queryCountFile, 'utf8').catch(() => '0'));
}

/** Everything read before and after a phase of the one-process run. */
interface Reading {
  apiCpuSeconds: number;
  postgresCpuSeconds: number;
  statements: number;
  succeeded: number;
}

async function readAll(api: BenchApi): Promise<Reading> {
  const statements = await statementCount(api);
  return {
    apiCpuSeconds: await processCpuSeconds(api.server.child.pid ?? 0),
    postgresCpuSeconds: await postgresCpuSeconds(api.dataDir),
    statements,
    succeeded: await succeededDonationCount(api.server.baseUrl),
  };
}

/** Starts the production main for the benchmark in `dataDir` with `env` over the common settings (see the file's doc). */
async function startApi(dataDir: string, env: Record<string, string>): Promise<BenchApi> {
  const queryCountFile = path.join(path.dirname(dataDir), `${path.basename(dataDir)}-statements`);
  const profile = CPU_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROFILE_DIR}`] : [];
  const server = await startServerProcess(
    {
      // NOTE: not 'production', which refuses RATE_LIMITS=off; nothing else in the server depends on NODE_ENV.
      NODE_ENV: 'benchmark',
      // Thousands of donations from one IP: the card-testing limits (issue #4) would refuse all but 5.
      RATE_LIMITS: 'off',
      LOG_LEVEL: 'warn',
      ADMIN_TOKEN,
      DATA_DIR: dataDir,
      BENCH_QUERY_COUNT_FILE: queryCountFile,
      ...env,
    },
    START_TIMEOUT_MS,
    { command: process.execPath, args: [...profile, '--import', PRELOAD, '--enable-source-maps', SERVER_BUNDLE] },
  );
  return { server, dataDir, queryCountFile };
}

/** One API process's share of a donation run and what it served. */
interface ProcessFigures {
  name: string;
  figures: Figures;
}

/** A donation run: what each process served, and whether the new succeeded rows equal the 2xx answers. */
interface DonationRun {
  processes: ProcessFigures[];
  succeeded: number;
  sent: number;
}

/** Donations whose body was built so far in this run, every phase and process together. */
let donationsBuilt = 0;

/**
 * The body of the run's next donation: a donor of its own, `donor-<n>@example.org` with n counting the run's donations
 * from 1 (an appeal's gifts come from many donors; one donor's thousands of gifts would measure that donor's history,
 * decision 0116), paying with the test cards that succeed, in turn.
 */
function nextDonationBody(): string {
  donationsBuilt += 1;
  const number = TEST_SUCCESS_CARDS[donationsBuilt % TEST_SUCCESS_CARDS.length];
  return JSON.stringify(validSubmission({ donorEmail: `donor-${donationsBuilt}@example.org` }, { number }));
}

/**
 * Sends `donations` over `apis` at once, `connections` in all, each process its share of the connections and
 * requests on a CSRF cookie pair of its own page load, each donation from a donor of its own with the test cards that
 * succeed in turn ({@link nextDonationBody}), each request with a new Idempotency-Key. The servers share one
 * database, whose succeeded donations are counted before and after.
 */
async function donationRun(apis: readonly BenchApi[], donations: number, connections: number): Promise<DonationRun> {
  const first = apis[0]?.server;
  if (!first) throw new Error('No server to load');
  const succeededBefore = await succeededDonationCount(first.baseUrl);
  let sent = 0;
  const nextDonation = () => {
    sent += 1;
    return { body: nextDonationBody(), headers: { [IDEMPOTENCY_KEY_HEADER]: randomUUID() } };
  };
  // NOTE: a fixed number of requests, not a duration: autocannon stops a timed run without reading the answers
  // still in flight, which the server completes, so succeeded rows and 2xx answers could not be compared.
  const processes = await Promise.all(
    apis.map(async (api, index) => ({
      name: apis.length === 1 ? 'one process' : `process ${index + 1} of ${apis.length}`,
      figures: await load(
        `${api.server.baseUrl}${API_PATHS.processDonation}`,
        connections / apis.length,
        await csrfHeaders(api.server.baseUrl),
        nextDonation,
        apiMeter(api),
        donations / apis.length,
      ),
    })),
  );
  return { processes, succeeded: (await succeededDonationCount(first.baseUrl)) - succeededBefore, sent };
}

/**
 * One donor at a time on `api` (each donation sent when the previous one is answered, each from a donor of its own:
 * {@link nextDonationBody}) until `until()` is true: the latency of each (ms) and how many were answered 2xx.
 */
async function oneDonorAtATime(api: BenchApi, until: () => Promise<boolean>): Promise<{ latenciesMs: number[]; ok2xx: number }> {
  const headers = { ...(await csrfHeaders(api.server.baseUrl)), 'content-type': 'application/json' };
  const latenciesMs: number[] = [];
  let ok2xx = 0;
  while (!(await until())) {
    const started = performance.now();
    const response = await fetch(`${api.server.baseUrl}${API_PATHS.processDonation}`, {
      method: 'POST',
      headers: { ...headers, [IDEMPOTENCY_KEY_HEADER]: randomUUID() },
      body: nextDonationBody(),
    });
    await response.arrayBuffer();
    latenciesMs.push(performance.now() - started);
    if (response.ok) ok2xx += 1;
  }
  return { latenciesMs, ok2xx };
}

/** The `fraction` quantile of `values` (nearest rank), NaN when empty. */
function quantile(values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? Number.NaN : (sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)] ?? Number.NaN);
}

/** What the one-process phases measured. */
interface PhaseFigures {
  name: string;
  gifts: number;
  apiCpuMsPerGift: number;
  postgresCpuMsPerGift: number;
  statementsPerGift: number;
  seconds: number;
}

function phaseFigures(name: string, gifts: number, before: Reading, after: Reading, seconds: number): PhaseFigures {
  return {
    name,
    gifts,
    apiCpuMsPerGift: ((after.apiCpuSeconds - before.apiCpuSeconds) * 1000) / gifts,
    postgresCpuMsPerGift: ((after.postgresCpuSeconds - before.postgresCpuSeconds) * 1000) / gifts,
    statementsPerGift: (after.statements - before.statements) / gifts,
    seconds,
  };
}

const COLUMNS = ['req/s', 'p50 ms', 'p99 ms', '2xx', 'non-2xx', 'errors', 'CPU ms/req'];
const row = (name: string, f: Figures) =>
  `${name.padEnd(48)} ${[
    f.requestsPerSecond.toFixed(0),
    String(f.p50Ms),
    String(f.p99Ms),
    String(f.ok2xx),
    String(f.non2xx),
    String(f.errors + f.timeouts),
    f.cpuMsPerRequest.toFixed(3),
  ]
    .map((cell) => cell.padStart(10))
    .join(' ')}`;

/** Donations per second of a run over all its processes: every answer, over the longest of its loads. */
const runThroughput = (run: DonationRun) =>
  run.processes.reduce((sum, p) => sum + p.figures.answered, 0) / Math.max(...run.processes.map((p) => p.figures.durationSeconds));

/** Checks that `ok2xx` answers made `succeeded` rows; prints it and sets exit code 1 when they differ. */
function checkConsistent(name: string, sent: number, succeeded: number, ok2xx: number): void {
  const consistent = succeeded === ok2xx;
  console.log(
    `${name}: requests sent, each with a new Idempotency-Key: ${sent}; new succeeded donations in the database: ` +
      `${succeeded}; 2xx answers: ${ok2xx}: ${consistent ? 'equal' : 'DIFFERENT'}.`,
  );
  if (!consistent) process.exitCode = 1;
}

async function main(): Promise<void> {
  const loadAtStart = os.loadavg();
  if (!process.env.BENCH_SERVER_BUNDLE) {
    execFileSync(process.execPath, [path.join(REPO_ROOT, 'scripts', 'build.mjs'), '--if-stale'], {
      stdio: 'inherit',
      // NOTE: a WEB_ROOT of its own, so only the server is built when stale, not the site.
      env: { ...process.env, WEB_ROOT: os.tmpdir() },
    });
  }
  if (!existsSync(SERVER_BUNDLE)) throw new Error(`${SERVER_BUNDLE} is missing after the build`);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'donation-bench-'));
  const web = await createMinimalWebRoot();
  const servers: ServerProcess[] = [];
  const echo = await startEcho();
  const cleanups: (() => Promise<void>)[] = [];
  try {
    const common = { COOKIE_SECRET: randomBytes(32).toString('hex'), WEB_ROOT: web.webRoot };
    const singleDir = path.join(dataDir, 'single');
    const sink = MAIL === 'smtp' ? await startSmtpSink() : undefined;
    if (sink) cleanups.push(() => sink.close());
    const receiptsSentSoFar = receiptCounter(singleDir, sink);
    const singleEnv = {
      ...common,
      ...(sink ? { SMTP_URL: sink.url, NODE_EXTRA_CA_CERTS: sink.certificateFile } : {}),
      // NOTE: by default the embedded database; DATABASE_URL=postgres://... npm run bench measures a PostgreSQL server instead.
      ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
    };

    // Phase 1: the request path alone (the relay's next run a day away).
    let single = await startApi(singleDir, { ...singleEnv, MAIL_POLL_INTERVAL_MS: String(DAY_MS) });
    servers.push(single.server);
    console.error(`Phase 1, the request path: ${GIFTS} gifts, ${GIFT_CONNECTIONS} at a time, relay idle...`);
    let before = await readAll(single);
    let started = performance.now();
    const requestRun = await donationRun([single], GIFTS, GIFT_CONNECTIONS);
    let after = await readAll(single);
    const requestPhase = phaseFigures('request path (relay idle)', requestRun.succeeded, before, after, (performance.now() - started) / 1000);
    await single.server.stop();

    // Phase 2: the receipts of phase 1 alone, the relay on from its start.
    console.error('Phase 2, the receipts of phase 1 alone...');
    single = await startApi(singleDir, singleEnv);
    servers.push(single.server);
    before = await readAll(single);
    started = performance.now();
    await waitForReceipts(receiptsSentSoFar, requestRun.succeeded);
    after = await readAll(single);
    const receiptPhase = phaseFigures('receipts alone (no request)', requestRun.succeeded, before, after, (performance.now() - started) / 1000);

    // Phase 3: a burst with the relay on, then one donor at a time during the backlog, then until every receipt is sent.
    console.error(`Phase 3, a burst of ${GIFTS} gifts with the relay on, until every receipt is sent...`);
    before = await readAll(single);
    started = performance.now();
    const firstGiftMs = Date.now();
    const burst = await donationRun([single], GIFTS, GIFT_CONNECTIONS);
    const lastGiftMs = Date.now();
    const burstReceipts = requestRun.succeeded + burst.succeeded;
    let backlogAtLastGift: number | undefined;
    let burstSentMs = 0;
    const donor = await oneDonorAtATime(single, async () => {
      const sent = await receiptsSentSoFar();
      backlogAtLastGift ??= burstReceipts - sent.count;
      burstSentMs = Date.now();
      return sent.count >= burstReceipts;
    });
    const allReceipts = burstReceipts + donor.ok2xx;
    const { lastWrittenMs } = await waitForReceipts(receiptsSentSoFar, allReceipts);
    after = await readAll(single);
    const burstGifts = burst.succeeded + donor.ok2xx;
    const burstPhase = phaseFigures('burst, receipts included', burstGifts, before, after, (performance.now() - started) / 1000);
    const sentFinally = (await receiptsSentSoFar()).count;
    await single.server.stop();

    let two: DonationRun | undefined;
    if (TWO_PROCESSES) {
      const postgresBaseUrl = process.env.DATABASE_URL ?? LOCAL_POSTGRES_URL;
      const stopPostgres = await startTestPostgres(postgresBaseUrl).catch((error: unknown) => {
        throw new Error(`The two-process run needs a PostgreSQL server (${postgresBaseUrl}): ${String(error)}`);
      });
      cleanups.push(stopPostgres);
      const shared = await openTestDatabase();
      cleanups.unshift(() => shared.close());
      const pair = await Promise.all(
        ['api-1', 'api-2'].map((name) =>
          startApi(path.join(dataDir, name), { ...common, DATABASE_URL: shared.url, MAIL_POLL_INTERVAL_MS: String(DAY_MS) }),
        ),
      );
      servers.push(...pair.map((api) => api.server));
      console.error('Loading two processes (PostgreSQL)...');
      two = await donationRun(pair, TWO_PROCESS_DONATIONS, TWO_PROCESS_CONNECTIONS);
      for (const api of pair) await api.server.stop();
    }

    console.error('Loading the bare echo...');
    const bare = await load(echo.url, TWO_PROCESS_CONNECTIONS, {}, () => ({ body: JSON.stringify(validSubmission()) }), echo.meter);

    const cpus = os.cpus();
    const singleDatabase = process.env.DATABASE_URL ? 'PostgreSQL' : 'embedded PostgreSQL';
    console.log(`\nMachine: ${cpus.length} × ${cpus[0]?.model ?? 'unknown CPU'}, ${os.platform()} ${os.release()}, Node ${process.version}`);
    const loadAverage = (values: number[]) => values.map((value) => value.toFixed(2)).join(', ');
    console.log(`Load average (1, 5, 15 min) at the start: ${loadAverage(loadAtStart)}; at the end: ${loadAverage(os.loadavg())}`);
    console.log(
      `Date: ${new Date().toISOString()}; one process (${singleDatabase}, receipts ${MAIL === 'smtp' ? 'over SMTP with STARTTLS' : 'as .eml files'}): ${GIFTS} gifts ${GIFT_CONNECTIONS} at a time, twice; ` +
        `${TWO_PROCESSES ? `${TWO_PROCESS_DONATIONS} donations on two (PostgreSQL), ${TWO_PROCESS_CONNECTIONS} connections; ` : ''}` +
        `then ${DURATION_SECONDS} s of echo, ${TWO_PROCESS_CONNECTIONS} connections\n`,
    );
    console.log(`${'route'.padEnd(48)} ${COLUMNS.map((column) => column.padStart(10)).join(' ')}`);
    for (const p of requestRun.processes) console.log(row('donations, phase 1 (relay idle)', p.figures));
    for (const p of burst.processes) console.log(row('donations, phase 3 (burst, relay on)', p.figures));
    for (const p of two?.processes ?? []) console.log(row(`donations, ${p.name}`, p.figures));
    console.log(row('POST /echo (bare Fastify)', bare));

    const echoMs = bare.cpuMsPerRequest;
    console.log(`\n${'one process, per gift'.padEnd(34)} ${['gifts', 'seconds', 'API CPU ms', 'x echo', 'PG CPU ms', 'API+PG ms', 'statements'].map((c) => c.padStart(10)).join(' ')}`);
    for (const p of [requestPhase, receiptPhase, burstPhase]) {
      console.log(
        `${p.name.padEnd(34)} ${[
          String(p.gifts),
          p.seconds.toFixed(1),
          p.apiCpuMsPerGift.toFixed(2),
          (p.apiCpuMsPerGift / echoMs).toFixed(0),
          p.postgresCpuMsPerGift.toFixed(2),
          (p.apiCpuMsPerGift + p.postgresCpuMsPerGift).toFixed(2),
          p.statementsPerGift.toFixed(1),
        ]
          .map((cell) => cell.padStart(10))
          .join(' ')}`,
      );
    }
    console.log(`CPU per echo request: ${echoMs.toFixed(3)} ms.`);
    const afterLastGiftMs = lastWrittenMs - lastGiftMs;
    const burstAfterLastMs = burstSentMs - lastGiftMs;
    console.log(
      `\nBurst: ${burst.sent} gifts answered in ${((lastGiftMs - firstGiftMs) / 1000).toFixed(1)} s; ${backlogAtLastGift} receipts unsent at the last gift; ` +
        `the burst's receipts all sent ${(burstAfterLastMs / 1000).toFixed(1)} s after its last gift (target <= ${ISSUE_39.receiptsAfterLastGiftMs / 1000} s), ` +
        `every receipt ${(afterLastGiftMs / 1000).toFixed(1)} s after it.`,
    );
    console.log(
      `Donors during the backlog, one at a time: ${donor.latenciesMs.length} donations, p50 ${quantile(donor.latenciesMs, 0.5).toFixed(0)} ms, ` +
        `p99 ${quantile(donor.latenciesMs, 0.99).toFixed(0)} ms, max ${quantile(donor.latenciesMs, 1).toFixed(0)} ms; during the burst (${GIFT_CONNECTIONS} at a time): p99 ${burst.processes[0]?.figures.p99Ms ?? Number.NaN} ms.`,
    );
    const meets = (ok: boolean) => (ok ? 'met' : 'NOT met');
    console.log(
      `Issue #39: request path ${requestPhase.apiCpuMsPerGift.toFixed(2)} ms per donation (<= ${ISSUE_39.requestCpuMs}): ${meets(requestPhase.apiCpuMsPerGift <= ISSUE_39.requestCpuMs)}; ` +
        `gift with its receipt ${(burstPhase.apiCpuMsPerGift / echoMs).toFixed(0)}x the echo (<= ${ISSUE_39.giftOverEcho}x): ${meets(burstPhase.apiCpuMsPerGift / echoMs <= ISSUE_39.giftOverEcho)}; ` +
        `receipts after the last gift: ${meets(burstAfterLastMs <= ISSUE_39.receiptsAfterLastGiftMs)}.`,
    );
    if (two) {
      console.log(`Two processes (PostgreSQL): ${runThroughput(two).toFixed(0)} donations/s together.`);
      for (const p of two.processes) console.log(`CPU per donation over CPU per echo request, ${p.name}: ${(p.figures.cpuMsPerRequest / echoMs).toFixed(1)}x.`);
    }
    const oneRate = runThroughput(requestRun);
    const met = oneRate >= TARGET.requestsPerSecond && (requestRun.processes[0]?.figures.p99Ms ?? Infinity) < TARGET.p99Ms;
    console.log(`Issue #3's target on one process (>= ${TARGET.requestsPerSecond} donations/s, p99 < ${TARGET.p99Ms} ms): ${met ? 'met' : 'NOT met'} (${oneRate.toFixed(0)}/s).`);
    checkConsistent('phase 1', requestRun.sent, requestRun.succeeded, requestRun.processes[0]?.figures.ok2xx ?? 0);
    checkConsistent('phase 3', burst.sent + donor.latenciesMs.length, after.succeeded - before.succeeded, (burst.processes[0]?.figures.ok2xx ?? 0) + donor.ok2xx);
    if (two) checkConsistent('two processes', two.sent, two.succeeded, two.processes.reduce((sum, p) => sum + p.figures.ok2xx, 0));
    const receiptsOk = sentFinally === after.succeeded;
    const traffic = sink?.traffic();
    const receiptsWhere = traffic
      ? `messages accepted by the SMTP sink (${traffic.messagesOverTls} of its ${traffic.messages} messages over TLS, ${traffic.connections} connections)`
      : '.eml files';
    console.log(`Receipts: ${sentFinally} ${receiptsWhere} for ${after.succeeded} succeeded donations: ${receiptsOk ? 'one each' : 'DIFFERENT'}.`);
    if (!receiptsOk) process.exitCode = 1;
  } finally {
    echo.stop();
    for (const server of servers) await server.kill();
    await stopEmbeddedPostgres(path.join(dataDir, 'single'));
    for (const cleanup of cleanups) await cleanup();
    await web.remove();
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (process.argv.includes(ECHO_FLAG)) await echoServer();
else await main();
