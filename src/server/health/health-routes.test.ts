import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultyDatabase, type FaultyDatabase } from '../testing/faulty-database';
import { createTestApp, type TestApp } from '../testing/test-app';
import { HEALTH_PATHS } from './health-routes';

/** GET /healthz and /readyz (issue #14) on the real app, with the database up, down, and behind on migrations. */
let database: FaultyDatabase | undefined;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    database: (handle) => {
      database = faultyDatabase(handle);
      return database.db;
    },
  });
});
afterAll(async () => {
  await t?.close();
});

const get = (url: string) => t.app.inject({ method: 'GET', url });

describe('health checks', () => {
  it('healthz: 200 while the process runs, whatever the database', async () => {
    for (const down of [false, true]) {
      if (database) database.down = down;
      const response = await get(HEALTH_PATHS.live);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ status: 'ok' });
      expect(response.headers['cache-control']).toBe('no-store');
    }
    if (database) database.down = false;
  });

  it('readyz: 200 when the database answers with every migration applied, 503 when it does not answer', async () => {
    expect((await get(HEALTH_PATHS.ready)).json()).toEqual({ status: 'ready' });
    if (database) database.down = true;
    const down = await get(HEALTH_PATHS.ready);
    if (database) database.down = false;
    expect(down.statusCode).toBe(503);
    expect(down.json()).toEqual({ status: 'not_ready', reason: 'database unavailable' });
  });

  it('readyz: 503 while a migration is missing', async () => {
    const [last] = ((await t.db.execute(sql`SELECT id, hash, created_at FROM drizzle.__drizzle_migrations ORDER BY id DESC LIMIT 1`)) as unknown as {
      rows: Array<{ id: number; hash: string; created_at: string }>;
    }).rows;
    await t.db.execute(sql`DELETE FROM drizzle.__drizzle_migrations WHERE id = ${last?.id}`);
    try {
      const behind = await get(HEALTH_PATHS.ready);
      expect(behind.statusCode).toBe(503);
      expect(behind.json()).toMatchObject({ status: 'not_ready', reason: expect.stringMatching(/^\d+ of \d+ migrations applied$/) });
    } finally {
      await t.db.execute(sql`INSERT INTO drizzle.__drizzle_migrations (id, hash, created_at) VALUES (${last?.id}, ${last?.hash}, ${last?.created_at})`);
    }
    expect((await get(HEALTH_PATHS.ready)).statusCode).toBe(200);
  });
});
