import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { API_PATHS } from '../src/shared/api';
import { IDEMPOTENCY_KEY_HEADER } from '../src/shared/api';
import { METRICS_PATH } from '../src/server/metrics/plugin';
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
import { stopEmbeddedPostgres } from '../src/server/db/embedded-postgres';
import { openTestDatabase, startTestPostgres } from '../src/server/testing/test-database';

/** The machine's PostgreSQL server (every machine of this project runs one; .ci/run), for the two-process run. */
const LOCAL_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/test';
import { validSubmission } from '../src/server/testing/test-app';

/**
 * `npm run bench` (issue #3, "Benchmark"; issue #14, two processes and CPU per request): load on the real server,
 * then on two API processes on PostgreSQL, then on a bare Fastify JSON echo, in one run.
 * - One process: the production main (NODE_ENV=benchmark, RATE_LIMITS=off) on the embedded database in a temporary
 *   DATA_DIR (or on the PostgreSQL of DATABASE_URL when it is set), on a free port, with a temporary one-page WEB_ROOT
 *   (nothing is built). LOG_LEVEL=warn, so the figures measure the request path, not log I/O; the mail relay waits a
 *   day after its start-up run, so no receipt is rendered during the load either (a PDF each: it would be most of
 *   the CPU measured, and how much of it falls inside the load depends on the machine's speed).
 * - Two processes: the same main twice, each with a DATA_DIR of its own, on one fresh PostgreSQL database created for
 *   the run on the server of DATABASE_URL (default {@link LOCAL_POSTGRES_URL}) and dropped after it.
 * - autocannon: POST /api/process-donation, 50 connections, 5,000 requests (10 s at the target rate), a new
 *   Idempotency-Key per request, the test cards that succeed in turn, with the CSRF cookie pair of one page load;
 *   with two processes, two loads at once, each with half the connections and half the requests on its own process.
 * - The same load on a bare Fastify `POST /echo` in its own process (so neither shares a core with autocannon's
 *   event loop), and the ratio of the two.
 * Prints requests/s, p50/p99 latency, errors (non-2xx, connection errors, timeouts) and the CPU milliseconds the
 * serving process spent per request it served (process.cpuUsage, user + system: an API process's from prom-client's
 * `process_cpu_seconds_total` at GET /metrics with the run's ADMIN_TOKEN, over the charges its test gateway's ledger
 * gained; the echo's from its GET /cpu-usage, over the requests it counted), read just before and after each load: a
 * figure the machine's other load disturbs far less than throughput (docs/decisions/0057). Then checks,
 * for each run, that the succeeded donations (GET /api/donations/stats) equal the 2xx answers. Exits 1 if they differ.
 */

const CONNECTIONS = 50;
const DURATION_SECONDS = 10;
/** The goal of issue #3 on 2 cores. */
const TARGET = { requestsPerSecond: 500, p99Ms: 100 };
const ECHO_FLAG = '--echo-server';
/** The echo server's route that answers its process.cpuUsage() (microseconds) and the echo requests it served. */
const ECHO_CPU_PATH = '/cpu-usage';
/** Donations sent in each run: about DURATION_SECONDS at the target rate. */
const DONATION_REQUESTS = DURATION_SECONDS * TARGET.requestsPerSecond;
/** The bearer token of GET /metrics in the API processes (32+ characters, new each run). */
const ADMIN_TOKEN = randomBytes(24).toString('hex');
const DAY_MS = 24 * 60 * 60 * 1000;
/** How long a server process may take to start: tsx compiles the server first, slowly on a busy machine. */
const START_TIMEOUT_MS = 180_000;
/**
 * How long autocannon waits for an answer, in seconds (its default is 10): on a busy machine a donation can take
 * longer, and an abandoned request is still completed by the server, so the 2xx answers and the rows would differ.
 */
const ANSWER_TIMEOUT_SECONDS = 120;

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

/**
 * The CPU time an API process spent since its metrics started, user + system, in seconds: prom-client's
 * `process_cpu_seconds_total` (process.cpuUsage) at GET /metrics. Throws when the route does not answer it.
 */
async function apiCpuSeconds(server: ServerProcess): Promise<number> {
  const response = await fetch(`${server.baseUrl}${METRICS_PATH}`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  const value = /^process_cpu_seconds_total (\S+)$/m.exec(await response.text())?.[1];
  if (response.status !== 200 || value === undefined) {
    throw new Error(`GET ${METRICS_PATH} answered ${response.status} without process_cpu_seconds_total`);
  }
  return Number(value);
}

/** An API process and its DATA_DIR, where its test gateway keeps its ledger. */
interface BenchApi {
  server: ServerProcess;
  dataDir: string;
}

/** The meter of an API process: {@link apiCpuSeconds}, and the charges its test gateway's ledger holds (one per donation). */
function apiMeter({ server, dataDir }: BenchApi): ReadMeter {
  return async () => {
    const cpuSeconds = await apiCpuSeconds(server);
    const ledger = await readFile(path.join(dataDir, TEST_GATEWAY_LEDGER_FILE), 'utf8').catch(() => '');
    return { cpuSeconds, served: parseLedger(ledger).records.length };
  };
}

/** Starts the production main for the benchmark in `dataDir` with `env` over the common settings (see the file's doc). */
async function startApi(dataDir: string, env: Record<string, string>): Promise<BenchApi> {
  const server = await startServerProcess({
    // NOTE: not 'production', which refuses RATE_LIMITS=off; nothing else in the server depends on NODE_ENV.
    NODE_ENV: 'benchmark',
    // 5,000 donations from one IP: the card-testing limits (issue #4) would refuse all but 5.
    RATE_LIMITS: 'off',
    LOG_LEVEL: 'warn',
    ADMIN_TOKEN,
    // The relay's start-up run finds nothing; the next waits a day: no receipt is rendered during the load.
    MAIL_POLL_INTERVAL_MS: String(DAY_MS),
    DATA_DIR: dataDir,
    ...env,
  }, START_TIMEOUT_MS);
  return { server, dataDir };
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

/**
 * Sends DONATION_REQUESTS donations over `apis` at once, each process its share of the connections and requests
 * on a CSRF cookie pair of its own page load, the test cards that succeed in turn, each request with a new
 * Idempotency-Key. The servers share one database, whose succeeded donations are counted before and after.
 */
async function donationRun(apis: readonly BenchApi[]): Promise<DonationRun> {
  const bodies = TEST_SUCCESS_CARDS.map((number) => JSON.stringify(validSubmission({}, { number })));
  const first = apis[0]?.server;
  if (!first) throw new Error('No server to load');
  const succeededBefore = await succeededDonationCount(first.baseUrl);
  let sent = 0;
  const nextDonation = () => {
    sent += 1;
    return { body: bodies[sent % bodies.length] ?? '', headers: { [IDEMPOTENCY_KEY_HEADER]: randomUUID() } };
  };
  // NOTE: a fixed number of requests, not a duration: autocannon stops a timed run without reading the answers
  // still in flight, which the server completes, so succeeded rows and 2xx answers could not be compared.
  const processes = await Promise.all(
    apis.map(async (api, index) => ({
      name: apis.length === 1 ? 'one process' : `process ${index + 1} of ${apis.length}`,
      figures: await load(
        `${api.server.baseUrl}${API_PATHS.processDonation}`,
        CONNECTIONS / apis.length,
        await csrfHeaders(api.server.baseUrl),
        nextDonation,
        apiMeter(api),
        DONATION_REQUESTS / apis.length,
      ),
    })),
  );
  return { processes, succeeded: (await succeededDonationCount(first.baseUrl)) - succeededBefore, sent };
}

const COLUMNS = ['req/s', 'p50 ms', 'p99 ms', '2xx', 'non-2xx', 'errors', 'CPU ms/req'];
const row = (name: string, f: Figures) =>
  `${name.padEnd(44)} ${[
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

async function main(): Promise<void> {
  const loadAtStart = os.loadavg();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'donation-bench-'));
  const web = await createMinimalWebRoot();
  const postgresBaseUrl = process.env.DATABASE_URL ?? LOCAL_POSTGRES_URL;
  const stopPostgres = await startTestPostgres(postgresBaseUrl).catch((error: unknown) => {
    throw new Error(`The two-process run needs a PostgreSQL server (${postgresBaseUrl}): ${String(error)}`);
  });
  const shared = await openTestDatabase();
  const servers: ServerProcess[] = [];
  const echo = await startEcho();
  try {
    const common = { COOKIE_SECRET: randomBytes(32).toString('hex'), WEB_ROOT: web.webRoot };
    const single = await startApi(path.join(dataDir, 'single'), {
      ...common,
      // NOTE: by default the embedded database; DATABASE_URL=postgres://... npm run bench measures a PostgreSQL server instead.
      ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
    });
    servers.push(single.server);
    console.error(`Loading one process (${process.env.DATABASE_URL ? 'PostgreSQL' : 'embedded database'})...`);
    const one = await donationRun([single]);
    await single.server.stop();

    const pair = await Promise.all(
      ['api-1', 'api-2'].map((name) => startApi(path.join(dataDir, name), { ...common, DATABASE_URL: shared.url })),
    );
    servers.push(...pair.map((api) => api.server));
    console.error('Loading two processes (PostgreSQL)...');
    const two = await donationRun(pair);
    for (const api of pair) await api.server.stop();

    console.error('Loading the bare echo...');
    const bare = await load(echo.url, CONNECTIONS, {}, () => ({ body: JSON.stringify(validSubmission()) }), echo.meter);

    const cpus = os.cpus();
    const singleDatabase = process.env.DATABASE_URL ? 'PostgreSQL' : 'embedded PostgreSQL';
    console.log(`\nMachine: ${cpus.length} × ${cpus[0]?.model ?? 'unknown CPU'}, ${os.platform()} ${os.release()}, Node ${process.version}`);
    const loadAverage = (values: number[]) => values.map((value) => value.toFixed(2)).join(', ');
    console.log(`Load average (1, 5, 15 min) at the start: ${loadAverage(loadAtStart)}; at the end: ${loadAverage(os.loadavg())}`);
    console.log(
      `Date: ${new Date().toISOString()}; ${CONNECTIONS} connections; ${DONATION_REQUESTS} donations on one process (${singleDatabase}), ` +
        `${DONATION_REQUESTS} on two (PostgreSQL), then ${DURATION_SECONDS} s of echo\n`,
    );
    console.log(`${'route'.padEnd(44)} ${COLUMNS.map((column) => column.padStart(10)).join(' ')}`);
    for (const p of one.processes) console.log(row(`POST /api/process-donation, ${p.name}`, p.figures));
    for (const p of two.processes) console.log(row(`POST /api/process-donation, ${p.name}`, p.figures));
    console.log(row('POST /echo (bare Fastify)', bare));

    const oneRate = runThroughput(one);
    const twoRate = runThroughput(two);
    console.log(`\nOne process (${singleDatabase}): ${oneRate.toFixed(0)} donations/s; two processes (PostgreSQL): ${twoRate.toFixed(0)} donations/s together.`);
    console.log(`Donations reach ${((oneRate / bare.requestsPerSecond) * 100).toFixed(1)}% of the bare echo's throughput on one process.`);
    for (const p of [...one.processes, ...two.processes]) {
      console.log(`CPU per donation over CPU per echo request, ${p.name}: ${(p.figures.cpuMsPerRequest / bare.cpuMsPerRequest).toFixed(1)}x.`);
    }
    const single0 = one.processes[0]?.figures;
    const met = single0 !== undefined && oneRate >= TARGET.requestsPerSecond && single0.p99Ms < TARGET.p99Ms;
    console.log(`Target on one process (>= ${TARGET.requestsPerSecond} donations/s, p99 < ${TARGET.p99Ms} ms): ${met ? 'met' : 'NOT met'}.`);
    for (const [name, run] of [['one process', one], ['two processes', two]] as const) {
      const ok = run.processes.reduce((sum, p) => sum + p.figures.ok2xx, 0);
      const consistent = run.succeeded === ok;
      console.log(
        `${name}: requests sent, each with a new Idempotency-Key: ${run.sent}; new succeeded donations in the database: ` +
          `${run.succeeded}; 2xx answers: ${ok}: ${consistent ? 'equal' : 'DIFFERENT'}.`,
      );
      if (!consistent) process.exitCode = 1;
    }
  } finally {
    echo.stop();
    for (const server of servers) await server.kill();
    await stopEmbeddedPostgres(path.join(dataDir, 'single'));
    await shared.close();
    await stopPostgres();
    await web.remove();
    await rm(dataDir, { recursive: true, force: true });
  }
}

if (process.argv.includes(ECHO_FLAG)) await echoServer();
else await main();
