import { fileURLToPath } from 'node:url';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import type { ServerConfig } from '../platform/config';
import { startEmbeddedPostgres, type EmbeddedPostgresServer } from './embedded-postgres';
import * as schema from './schema';

/**
 * The Drizzle database the repositories use: node-postgres over the embedded PostgreSQL server (the default) or
 * DATABASE_URL's server (issue #25: one engine, one driver, one code path).
 */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

/**
 * An open database: the Drizzle database, the node-postgres pool under it, the function that closes it, and
 * `readiness()`, which names what keeps it from serving (undefined when it can).
 * `embedded` is the embedded server this process owns, when it runs on one (undefined on DATABASE_URL).
 */
export interface DatabaseHandle {
  db: Database;
  client: pg.Pool;
  embedded: EmbeddedPostgresServer | undefined;
  readiness: () => Promise<string | undefined>;
  close: () => Promise<void>;
}

/** The generated SQL migrations (drizzle/ at the repository root), resolved from this file, not the working directory. */
export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../../drizzle', import.meta.url));

// NOTE: arbitrary constants that name two advisory locks: the migration lock, so that several server processes
// starting at once against one PostgreSQL apply the migrations one after the other (Drizzle's migrator takes no
// lock), and the embedded server's owner lock, held by the one API process that runs on a DATA_DIR.
const MIGRATION_LOCK_KEY = 7_215_001;
const EMBEDDED_OWNER_LOCK_KEY = 7_215_002;
/** How long a start waits for a killed API's owner lock to be released by the server before it refuses. */
const OWNER_LOCK_WAIT_MS = 3_000;

/** A Drizzle database over a node-postgres pool (or an object that behaves as one, such as a test's fault-injecting proxy). */
export function drizzleOver(client: pg.Pool): Database {
  return drizzle({ client, schema });
}

/** A pool whose broken idle connections are reported instead of ending the process. */
function createPool(connectionString: string): pg.Pool {
  const pool = new pg.Pool({ connectionString });
  // NOTE: an idle connection that breaks (server restarted, network cut) is reported here; without a listener
  // the 'error' event would end the process. Nothing to do: the next query fails and its caller answers.
  pool.on('error', () => undefined);
  return pool;
}

/** Applies drizzle/'s pending migrations under the migration lock (several processes may start at once). */
async function applyMigrations(pool: pg.Pool): Promise<void> {
  const connection = await pool.connect();
  try {
    await connection.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await migrate(drizzle({ client: connection }), { migrationsFolder: MIGRATIONS_FOLDER });
    } finally {
      await connection.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    connection.release();
  }
}

/** Thrown when another API process already runs on the embedded database of this DATA_DIR. */
export class DataDirInUseError extends Error {
  override name = 'DataDirInUseError';
}

/**
 * Makes this process the one API process of the embedded server (issue #25: "never two writers"): takes the owner
 * advisory lock on a connection of its own, held until close, and names this process in `application_name` (as
 * `role`: `backup` for `npm run db:backup` on a server it started itself, issue #33, so no site adopts a server that
 * the backup will stop).
 * A killed API's connection ends with it, and with it its lock: the next start takes over. Rejects with
 * {@link DataDirInUseError}, naming the running process, when a live API holds the lock.
 */
export async function claimEmbeddedServer(server: EmbeddedPostgresServer, dataDir: string, role: 'api' | 'backup' = 'api'): Promise<pg.Client> {
  const owner = new pg.Client({ connectionString: server.databaseUrl, application_name: `reef-donations ${role} pid ${process.pid}` });
  owner.on('error', () => undefined);
  await owner.connect();
  const deadline = Date.now() + OWNER_LOCK_WAIT_MS;
  for (;;) {
    const { rows } = await owner.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [EMBEDDED_OWNER_LOCK_KEY]);
    if (rows[0]?.locked) return owner;
    if (Date.now() > deadline) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const { rows } = await owner.query<{ application_name: string; backend_start: Date }>(
    `SELECT a.application_name, a.backend_start FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
      WHERE l.locktype = 'advisory' AND l.objid = $1 AND l.granted LIMIT 1`,
    [EMBEDDED_OWNER_LOCK_KEY],
  );
  await owner.end();
  const holder = rows[0] ? `${rows[0].application_name}, running since ${rows[0].backend_start.toISOString()}` : 'another process';
  throw new DataDirInUseError(
    `DATA_DIR ${dataDir} is in use by another server process (${holder}). ` +
      'Stop that process first (SIGTERM), or give this one another DATA_DIR. Nothing was changed.',
  );
}

/**
 * Opens the database and applies pending migrations (drizzle/) before returning.
 * - `databaseUrl` set: a node-postgres pool on that PostgreSQL (15 or newer).
 * - otherwise the embedded PostgreSQL server of `dataDir` (started or adopted, see startEmbeddedPostgres), owned by
 *   this process alone; closing the handle stops that server after the pool has ended.
 * Throws when the database cannot be reached, a migration fails, or another API process runs on `dataDir`
 * ({@link DataDirInUseError}: the running server is left exactly as it was).
 */
export async function openDatabase(config: Pick<ServerConfig, 'dataDir' | 'databaseUrl'>): Promise<DatabaseHandle> {
  if (config.databaseUrl) return openPool(config.databaseUrl, undefined, undefined);
  const server = await startEmbeddedPostgres(config.dataDir);
  let owner: pg.Client;
  try {
    owner = await claimEmbeddedServer(server, config.dataDir);
  } catch (error) {
    // NOTE: this process started the server only if no other ran on the folder; it stops what it started (a
    // refused second process never touches a server it did not start).
    if (server.started && !(error instanceof DataDirInUseError)) await server.stop().catch(() => undefined);
    throw error;
  }
  return openPool(server.databaseUrl, server, owner);
}

async function openPool(url: string, embedded: EmbeddedPostgresServer | undefined, owner: pg.Client | undefined): Promise<DatabaseHandle> {
  const pool = createPool(url);
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await pool.end();
    await owner?.end().catch(() => undefined);
    await embedded?.stop();
  };
  const readiness = async () => {
    if (!embedded || !owner) return undefined;
    const status = await embedded.status();
    if (status !== 'ready') return `embedded database ${status}`;
    // NOTE: the owner connection holds this process's claim on the server; a server restarted under it ended it.
    const held = await owner.query('SELECT 1').then(
      () => true,
      () => false,
    );
    return held ? undefined : 'embedded database connection lost';
  };
  try {
    await applyMigrations(pool);
    return { db: drizzleOver(pool), client: pool, embedded, readiness, close };
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
}
