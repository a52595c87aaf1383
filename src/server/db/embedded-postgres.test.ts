import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLUSTER_DIR_NAME, runningServerOf, socketDirOf, startEmbeddedPostgres, stopEmbeddedPostgres } from './embedded-postgres';

/**
 * The embedded server's lifecycle on its own (issue #25), below the API: a start adopts a running server instead of
 * starting a second, two starts at once end with one server, and a socket lock that a killed server left behind,
 * naming a PID that is now another process, does not keep the next start from working.
 */

let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'embedded-postgres-'));
});
afterAll(async () => {
  await stopEmbeddedPostgres(dataDir);
  await rm(dataDir, { recursive: true, force: true });
});

const clusterDir = () => path.join(dataDir, CLUSTER_DIR_NAME);

async function answers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    return (await client.query('SELECT 1 AS one')).rows[0]?.one === 1;
  } finally {
    await client.end().catch(() => undefined);
  }
}

describe('the embedded PostgreSQL server', () => {
  it('starts once for two starts at once, and a later start adopts it', { timeout: 60_000 }, async () => {
    const [a, b] = await Promise.all([startEmbeddedPostgres(dataDir), startEmbeddedPostgres(dataDir)]);
    expect([a.started, b.started].sort()).toEqual([false, true]);
    expect(a.databaseUrl).toBe(b.databaseUrl);
    const pid = (await runningServerOf(clusterDir()))?.pid;
    const c = await startEmbeddedPostgres(dataDir);
    expect(c.started).toBe(false);
    expect((await runningServerOf(clusterDir()))?.pid).toBe(pid);
    expect(await answers(c.databaseUrl)).toBe(true);
    expect(await c.status()).toBe('ready');
    await c.stop();
    expect(await c.status()).toBe('stopped');
  });

  it('starts although a killed server left a socket lock naming a PID that is now another process', { timeout: 60_000 }, async () => {
    const socketDir = socketDirOf(clusterDir());
    const server = await startEmbeddedPostgres(dataDir);
    await server.stop();
    // NOTE: this test's own PID stands for the reused one: alive, and no PostgreSQL of this cluster.
    await mkdir(socketDir, { recursive: true });
    await writeFile(path.join(socketDir, '.s.PGSQL.5432.lock'), `${process.pid}\n${clusterDir()}\n`);
    const restarted = await startEmbeddedPostgres(dataDir);
    expect(restarted.started).toBe(true);
    expect(await answers(restarted.databaseUrl)).toBe(true);
  });
});
