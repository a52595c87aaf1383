import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS } from '../src/shared/api';
import { MIGRATIONS_FOLDER, openDatabase } from '../src/server/db/client';
import { stopEmbeddedPostgres } from '../src/server/db/embedded-postgres';
import { createMinimalWebRoot, startServerProcess } from '../src/server/testing/server-process';
import { upgradeFromPglite } from './upgrade-from-pglite';

/**
 * Issue #25, "Upgrade without loss": a DATA_DIR written as the previous release wrote it (PGlite in DATA_DIR, every
 * migration applied by drizzle's PGlite migrator, gifts, a receipt and a plan in it, mail files beside) is refused by
 * the server with the command that upgrades it; the command copies every row, verifies the counts, keeps PGlite's
 * files beside the new database; the server then starts on it with every gift there.
 */

let dataDir: string;
let web: Awaited<ReturnType<typeof createMinimalWebRoot>>;
const DONATIONS = 3;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'pglite-upgrade-'));
  web = await createMinimalWebRoot();
  // NOTE: today's migrations create the staff search's extensions (migration 0024), which PGlite loads as modules.
  const client = new PGlite(dataDir, { extensions: { pg_trgm, unaccent } });
  try {
    await migrate(drizzle({ client }), { migrationsFolder: MIGRATIONS_FOLDER });
    for (let index = 0; index < DONATIONS; index += 1) {
      // NOTE: a donation is written pending, then succeeded, as the server does (a check constraint says so).
      const { rows } = await client.query<{ id: string }>(
        `INSERT INTO donations (amount_cents, frequency, cause, donor_name, donor_email, card_brand, card_last4, gateway, is_test_payment)
         VALUES ($1, 'one-time', 'research-science', 'Ana Reef', $2, 'visa', '4242', 'test', true) RETURNING id`,
        [2500 + index, `ana-${index}@example.org`],
      );
      await client.query(`UPDATE donations SET status = 'succeeded', gateway_transaction_id = $2 WHERE id = $1`, [rows[0]?.id, `txn_old_${index}`]);
    }
  } finally {
    await client.close();
  }
  await writeFile(path.join(dataDir, 'test-gateway-charges.jsonl'), '');
}, 60_000);
afterAll(async () => {
  await stopEmbeddedPostgres(dataDir);
  await web?.remove();
  await rm(dataDir, { recursive: true, force: true });
});

describe('a DATA_DIR of the previous embedded engine (PGlite)', () => {
  it('is refused by the server with the command that upgrades it, and nothing in it changes', async () => {
    const before = (await readdir(dataDir)).sort();
    const refused = startServerProcess({ DATA_DIR: dataDir, WEB_ROOT: web.webRoot, NODE_ENV: 'test' });
    await expect(refused).rejects.toThrow(new RegExp(`npm run db:upgrade-from-pglite -- ${dataDir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    expect((await readdir(dataDir)).sort()).toEqual(before);
  });

  it('is upgraded by that command with every row verified, PGlite kept beside, and then serves every gift', { timeout: 120_000 }, async () => {
    const report = await upgradeFromPglite(dataDir);
    expect(report.counts).toContainEqual({ table: 'public.donations', rows: DONATIONS });
    expect(report.counts.find((count) => count.table === 'drizzle.__drizzle_migrations')?.rows).toBeGreaterThan(0);
    expect(path.dirname(report.backupDir)).toBe(dataDir);
    expect(await readdir(report.backupDir)).toContain('PG_VERSION');
    expect(await readdir(dataDir)).toEqual(expect.arrayContaining(['postgres', 'test-gateway-charges.jsonl', path.basename(report.backupDir)]));

    const server = await startServerProcess({ DATA_DIR: dataDir, WEB_ROOT: web.webRoot, NODE_ENV: 'test' });
    try {
      const stats = (await (await fetch(`${server.baseUrl}${API_PATHS.donationStats}`)).json()) as { donationCount: number };
      expect(stats.donationCount).toBe(DONATIONS);
    } finally {
      expect(await server.stop()).toBe(0);
    }
    // Opened again (the upgrade is not run twice): the rows are still there, on the new server.
    const database = await openDatabase({ dataDir, databaseUrl: undefined });
    try {
      const { rows } = await database.client.query<{ id: string }>(`SELECT gateway_transaction_id AS id FROM donations ORDER BY 1`);
      expect(rows.map((row) => row.id)).toEqual(['txn_old_0', 'txn_old_1', 'txn_old_2']);
    } finally {
      await database.close();
    }
    await expect(upgradeFromPglite(dataDir)).rejects.toThrow(/holds no PGlite database/);
  });
});
