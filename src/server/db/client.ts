import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { IN_MEMORY_DATA_DIR, type ServerConfig } from '../config';
import * as schema from './schema';

/**
 * The Drizzle database the repositories use, whichever driver is underneath: PGlite (embedded) and
 * node-postgres (DATABASE_URL) both satisfy it (issue #2: "the same schema and migrations for both").
 */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

/**
 * An open database, the driver's own client under it, and the function that closes it (and its connections).
 * `driver` says which client it is: `pglite` (embedded) or `node-postgres` (DATABASE_URL, a pool).
 */
export type DatabaseHandle = {
  db: Database;
  close: () => Promise<void>;
} & ({ driver: 'pglite'; client: PGlite } | { driver: 'node-postgres'; client: pg.Pool });

/** The generated SQL migrations (drizzle/ at the repository root), resolved from this file, not the working directory. */
export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../../drizzle', import.meta.url));

// NOTE: an arbitrary constant that names the migration lock, so that several server processes starting
// at once against one PostgreSQL apply the migrations one after the other (Drizzle's migrator takes no lock).
const MIGRATION_LOCK_KEY = 7_215_001;

/**
 * A Drizzle database over a driver client: a PGlite instance or a node-postgres pool (or an object that
 * behaves as one, such as a test's fault-injecting proxy). Applies no migrations.
 */
export function drizzleOver(client: PGlite | pg.Pool): Database {
  return client instanceof PGlite ? drizzlePglite({ client, schema }) : drizzleNodePg({ client, schema });
}

/**
 * Opens the database and applies pending migrations (drizzle/) before returning.
 * - `databaseUrl` set: a node-postgres Pool on that PostgreSQL (PostgreSQL 15 or newer).
 * - otherwise PGlite in `dataDir` (created if missing), or in memory when `dataDir` is `memory://` (tests).
 * Throws when the database cannot be reached or a migration fails (the connection is closed first).
 */
export async function openDatabase(config: Pick<ServerConfig, 'dataDir' | 'databaseUrl'>): Promise<DatabaseHandle> {
  return config.databaseUrl ? openNodePostgres(config.databaseUrl) : openPglite(config.dataDir);
}

async function openPglite(dataDir: string): Promise<DatabaseHandle> {
  if (dataDir !== IN_MEMORY_DATA_DIR) await mkdir(dataDir, { recursive: true });
  const client = new PGlite(dataDir);
  const close = () => client.close();
  try {
    await client.waitReady;
    await migratePglite(drizzlePglite({ client }), { migrationsFolder: MIGRATIONS_FOLDER });
    return { db: drizzleOver(client), driver: 'pglite', client, close };
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
}

async function openNodePostgres(databaseUrl: string): Promise<DatabaseHandle> {
  const pool = new pg.Pool({ connectionString: databaseUrl });
  // NOTE: an idle connection that breaks (server restarted, network cut) is reported here; without a listener
  // the 'error' event would end the process. Nothing to do: the next query fails and its caller answers.
  pool.on('error', () => undefined);
  const close = () => pool.end();
  try {
    const connection = await pool.connect();
    try {
      await connection.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
      try {
        await migrateNodePg(drizzleNodePg({ client: connection }), { migrationsFolder: MIGRATIONS_FOLDER });
      } finally {
        await connection.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
      }
    } finally {
      connection.release();
    }
    return { db: drizzleOver(pool), driver: 'node-postgres', client: pool, close };
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
}
