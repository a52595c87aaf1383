import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres } from '../src/server/db/embedded-postgres';

/**
 * What every benchmark script prints about the machine it ran on, and the throw-away embedded PostgreSQL server some of
 * them measure on: one place instead of a copy in each script (BENCHMARKS.md compares runs by these lines).
 */

/** The load averages (1, 5 and 15 minutes) now, to pass to {@link printMachine} at the end of the run. */
export const loadAverageNow = (): number[] => os.loadavg();

/**
 * Prints the machine (cores, CPU model, platform, Node, the time) and the load averages at the start (`loadAtStart`,
 * from {@link loadAverageNow}) and at the end: a busy machine slows every figure, so a reader must see how busy it was.
 */
export function printMachine(loadAtStart: readonly number[]): void {
  const cpus = os.cpus();
  const loadAverage = (values: readonly number[]) => values.map((value) => value.toFixed(2)).join(', ');
  console.log(`\nMachine: ${cpus.length} x ${cpus[0]?.model ?? 'unknown CPU'}, ${os.platform()} ${os.release()}, Node ${process.version}, ${new Date().toISOString()}`);
  console.log(`Load average (1, 5, 15 min) at the start: ${loadAverage(loadAtStart)}; at the end: ${loadAverage(os.loadavg())}`);
}

/**
 * Runs `measure` on a throw-away embedded PostgreSQL server (not durable: a benchmark's rows need no fsync), in a
 * temporary folder named from `prefix`, and removes both afterwards, whatever `measure` does. Resolves with its result.
 */
export async function onThrowAwayEmbeddedServer<T>(prefix: string, measure: (databaseUrl: string) => Promise<T>): Promise<T> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), prefix));
  try {
    const server = await startEmbeddedPostgres(dataDir, { durable: false });
    try {
      return await measure(server.databaseUrl);
    } finally {
      await server.stop();
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}
