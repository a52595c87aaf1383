import { loadAverageNow, onThrowAwayEmbeddedServer, printMachine } from './bench-machine';
import { STAFF_API } from '../src/shared/staff/paths';
import { StaffBrowser } from '../src/server/staff/identity/testing/staff-browser';
import { signInStaffForTest } from '../src/server/staff/identity/testing/staff-session';
import { createTestApp } from '../src/server/testing/test-app';
import { startTestPostgres } from '../src/server/testing/test-database';

/**
 * `npm run bench:sign-in` (issue #32, part 6; decision 0097c): does `POST /api/staff/sign-in/email` take as long to
 * answer for a staff member's address as for a stranger's? Through the real app (app.inject: CSRF, validation, the
 * limits' hook, serialisation) on the embedded PostgreSQL server (a throw-away one in a temporary folder), with
 * RATE_LIMITS=off (the limits would refuse the fourth request for one address). The two addresses are asked
 * {@link WARM_UP} times each unmeasured, then {@link SAMPLES} times each, in a shuffled order so that the machine's
 * load falls on both alike; each try is timed from the request to its answer, and the work left after the answer (the
 * member's link and its e-mail) is waited for, unmeasured, before the next try. Prints each path's p50 and p95 in ms,
 * the ratio of the medians (staff / stranger) and whether it is within {@link MAX_RATIO_DEVIATION} of 1; exits 1 when
 * an answer is not 202.
 */

/** Tries of each address before measuring. */
const WARM_UP = 50;
/** Measured tries of each address. */
const SAMPLES = 500;
/** The medians count as equal when their ratio is within 1 ± this. */
const MAX_RATIO_DEVIATION = 0.1;
const PUBLIC_URL = 'http://localhost:3000';
const STAFF_EMAIL = 'member@reef.example.org';
const STRANGER_EMAIL = 'stranger@example.org';

/** The value at quantile `q` (0..1) of sorted `values` (nearest rank). */
function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;
}

/** `count` copies of each of `items`, in a random order (Fisher-Yates). */
function shuffled<T>(items: T[], count: number): T[] {
  const all = items.flatMap((item) => Array<T>(count).fill(item));
  for (let i = all.length - 1; i > 0; i -= 1) {
    const j = Math.floor(Math.random() * (i + 1));
    [all[i], all[j]] = [all[j] as T, all[i] as T];
  }
  return all;
}

/** Measures both addresses on the database server of `serverUrl`; resolves with whether the medians' ratio is within bounds. */
async function benchmark(serverUrl: string): Promise<boolean> {
  const stopPostgres = await startTestPostgres(serverUrl);
  const t = await createTestApp({ env: { PUBLIC_URL, RATE_LIMITS: 'off' } });
  try {
    await signInStaffForTest(t.app, t.db, { role: 'viewer', email: STAFF_EMAIL });
    const browser = await StaffBrowser.open(t.app, PUBLIC_URL);
    const timings: Record<string, number[]> = { [STAFF_EMAIL]: [], [STRANGER_EMAIL]: [] };
    const run = async (tries: string[], measured: boolean) => {
      for (const email of tries) {
        const start = performance.now();
        const response = await browser.request('POST', STAFF_API.signInEmail, { email });
        const elapsed = performance.now() - start;
        if (response.statusCode !== 202) throw new Error(`${STAFF_API.signInEmail} answered ${response.statusCode}: ${response.body}`);
        if (measured) timings[email]?.push(elapsed);
        await t.app.afterReply.settled();
      }
    };
    await run(shuffled([STAFF_EMAIL, STRANGER_EMAIL], WARM_UP), false);
    await run(shuffled([STAFF_EMAIL, STRANGER_EMAIL], SAMPLES), true);
    const figures = Object.fromEntries(
      Object.entries(timings).map(([email, values]) => {
        const sorted = [...values].sort((a, b) => a - b);
        return [email, { p50: quantile(sorted, 0.5), p95: quantile(sorted, 0.95) }];
      }),
    );
    const staff = figures[STAFF_EMAIL];
    const stranger = figures[STRANGER_EMAIL];
    if (!staff || !stranger) throw new Error('No figures');
    console.log(`\nPOST ${STAFF_API.signInEmail}, ${SAMPLES} tries of each address (shuffled) after ${WARM_UP} unmeasured`);
    console.log(`${'address'.padEnd(46)} ${'p50 ms'.padStart(8)} ${'p95 ms'.padStart(8)}`);
    console.log(`${`a staff member's (${STAFF_EMAIL})`.padEnd(46)} ${staff.p50.toFixed(2).padStart(8)} ${staff.p95.toFixed(2).padStart(8)}`);
    console.log(`${`a stranger's (${STRANGER_EMAIL})`.padEnd(46)} ${stranger.p50.toFixed(2).padStart(8)} ${stranger.p95.toFixed(2).padStart(8)}`);
    const ratio = staff.p50 / stranger.p50;
    const within = Math.abs(ratio - 1) <= MAX_RATIO_DEVIATION;
    console.log(`ratio of the medians (staff / stranger): ${ratio.toFixed(3)}, ${within ? 'within' : 'NOT within'} 1 ± ${MAX_RATIO_DEVIATION}`);
    return within;
  } finally {
    await t.close();
    await stopPostgres();
  }
}

async function main(): Promise<void> {
  const loadAtStart = loadAverageNow();
  const within = await onThrowAwayEmbeddedServer('reef-bench-sign-in-', benchmark);
  printMachine(loadAtStart);
  console.log(within ? 'The two paths answer alike.' : 'The two paths do not answer alike (see above; a busy machine blurs every figure).');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
