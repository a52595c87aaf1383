import { cp, mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { MIGRATIONS_FOLDER } from '../src/server/db/client';
import { CLUSTER_DIR_NAME, isPgliteDataDir, startEmbeddedPostgres } from '../src/server/db/embedded-postgres';

/**
 * `npm run db:upgrade-from-pglite -- <DATA_DIR>` (issue #25, "Upgrade without loss"): moves a data directory written by
 * the previous embedded engine (PGlite, up to the release before the embedded PostgreSQL server) to the new one, once:
 * 1. PGlite's files move into `<DATA_DIR>/pglite-<time>/`, kept there untouched (mail files and the test gateway's
 *    charge ledger stay where they are);
 * 2. the embedded PostgreSQL server is initialised in `<DATA_DIR>/postgres` and given the migrations the old database
 *    had applied (no more), then every row of every table is copied across in one transaction;
 * 3. the row counts of every table are compared, old against new, and printed; the remaining migrations are applied.
 * On any failure the new cluster is removed and PGlite's files moved back, so the command can be run again.
 * PGlite is a dependency of this script alone: the server never loads it.
 */

/** One table's row count in the old and the new database. */
export interface TableCount {
  table: string;
  rows: number;
}

/** What {@link upgradeFromPglite} did: where the old files are now, and the rows it copied per table. */
export interface UpgradeReport {
  backupDir: string;
  counts: TableCount[];
}

/** The base tables of the site's schemas (public and drizzle), as `schema.table` quoted identifiers. */
const TABLES_SQL = `SELECT quote_ident(table_schema) || '.' || quote_ident(table_name) AS name FROM information_schema.tables
  WHERE table_type = 'BASE TABLE' AND table_schema IN ('public', 'drizzle') ORDER BY 1`;

/** A copy of the migrations folder whose journal lists only the first `count` migrations (what the old database had). */
async function migrationsUpTo(count: number): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), 'migrations-'));
  await cp(MIGRATIONS_FOLDER, folder, { recursive: true });
  const journalFile = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(await readFile(journalFile, 'utf8')) as { entries: unknown[] };
  await writeFile(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, count) }));
  return folder;
}

/** Row counts of every table of `query`'s database. */
async function countRows(query: (sql: string) => Promise<Array<Record<string, unknown>>>): Promise<TableCount[]> {
  const counts: TableCount[] = [];
  for (const { name } of (await query(TABLES_SQL)) as Array<{ name: string }>) {
    const [row] = (await query(`SELECT count(*)::int AS rows FROM ${name}`)) as Array<{ rows: number }>;
    counts.push({ table: name, rows: row?.rows ?? 0 });
  }
  return counts;
}

/**
 * Upgrades `dataDir` (see the file's docstring). Resolves with the report; rejects, with everything put back as it was,
 * when `dataDir` holds no PGlite database, a server runs on it, or any step fails (the counts differing among them).
 */
export async function upgradeFromPglite(dataDir: string): Promise<UpgradeReport> {
  const root = path.resolve(dataDir);
  if (!(await isPgliteDataDir(root))) throw new Error(`${root} holds no PGlite database: nothing to upgrade`);
  const backupDir = path.join(root, `pglite-${new Date().toISOString().replace(/[:.]/g, '-')}`);
  const keep = new Set(['mail', CLUSTER_DIR_NAME, 'test-gateway-charges.jsonl']);
  const moved = (await readdir(root)).filter((name) => !keep.has(name));
  await mkdir(backupDir);
  for (const name of moved) await rename(path.join(root, name), path.join(backupDir, name));
  // NOTE: with the staff search's extensions, in case the old database has them (it was migrated past 0024).
  const old = new PGlite(backupDir, { extensions: { pg_trgm, unaccent } });
  let server: Awaited<ReturnType<typeof startEmbeddedPostgres>> | undefined;
  try {
    const oldQuery = async (sql: string) => (await old.query<Record<string, unknown>>(sql)).rows;
    const oldCounts = await countRows(oldQuery);
    const [applied] = (await oldQuery('SELECT count(*)::int AS count FROM drizzle.__drizzle_migrations')) as Array<{ count: number }>;

    server = await startEmbeddedPostgres(root);
    const pool = new pg.Pool({ connectionString: server.databaseUrl, max: 1 });
    try {
      const partial = await migrationsUpTo(applied?.count ?? 0);
      try {
        await migrate(drizzle({ client: pool }), { migrationsFolder: partial });
      } finally {
        await rm(partial, { recursive: true, force: true });
      }
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        // NOTE: replica mode skips foreign-key triggers, so the tables can be filled in any order (superuser only).
        await client.query(`SET LOCAL session_replication_role = replica`);
        for (const { table } of oldCounts) {
          await client.query(`DELETE FROM ${table}`);
          const rows = await oldQuery(`SELECT coalesce(json_agg(t), '[]'::json) AS rows FROM ${table} t`);
          await client.query(`INSERT INTO ${table} SELECT * FROM json_populate_recordset(null::${table}, $1::json)`, [JSON.stringify(rows[0]?.rows ?? [])]);
        }
        // Serial columns (the migrations journal's id) go on from the highest id copied.
        await client.query(`SELECT setval(pg_get_serial_sequence('drizzle.__drizzle_migrations', 'id'), coalesce(max(id), 1)) FROM drizzle.__drizzle_migrations`);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      } finally {
        client.release();
      }
      const newCounts = await countRows(async (sql) => (await pool.query<Record<string, unknown>>(sql)).rows);
      const differing = oldCounts.filter(({ table, rows }) => newCounts.find((count) => count.table === table)?.rows !== rows);
      if (differing.length > 0) throw new Error(`Row counts differ after the copy: ${differing.map((count) => count.table).join(', ')}`);
      await migrate(drizzle({ client: pool }), { migrationsFolder: MIGRATIONS_FOLDER });
      return { backupDir, counts: oldCounts };
    } finally {
      await pool.end();
    }
  } catch (error) {
    await server?.stop().catch(() => undefined);
    await rm(path.join(root, CLUSTER_DIR_NAME), { recursive: true, force: true });
    await old.close().catch(() => undefined);
    for (const name of moved) await rename(path.join(backupDir, name), path.join(root, name));
    await rm(backupDir, { recursive: true, force: true });
    throw error;
  } finally {
    await server?.stop().catch(() => undefined);
    if (!old.closed) await old.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dataDir = process.argv[2] ?? process.env.DATA_DIR ?? './data';
  try {
    const report = await upgradeFromPglite(dataDir);
    for (const { table, rows } of report.counts) console.log(`${table}: ${rows} rows copied, ${rows} verified`);
    console.log(`Upgraded ${path.resolve(dataDir)} to the embedded PostgreSQL server. PGlite's files are kept in ${report.backupDir}; delete that folder once the site runs.`);
  } catch (error) {
    console.error(`Upgrade failed, nothing changed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
