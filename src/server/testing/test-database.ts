import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { IN_MEMORY_DATA_DIR, testDatabaseUrl } from '../config';
import { openDatabase, type DatabaseHandle } from '../db/client';

/** A test database; `url` is its PostgreSQL URL (for a server process to share it), undefined on in-memory PGlite. */
export type TestDatabase = DatabaseHandle & { url: string | undefined };

/**
 * A database for one test file, migrated and isolated from every other file and run:
 * - by default an in-memory PGlite (`memory://`), gone when closed;
 * - when DATABASE_URL is set (CI: postgres://postgres@127.0.0.1:5432/test), a fresh PostgreSQL database
 *   `donations_test_<pid>_<random>` created on that server and dropped (WITH (FORCE)) on close.
 * The role in DATABASE_URL must be allowed to CREATE DATABASE.
 */
export async function openTestDatabase(): Promise<TestDatabase> {
  const baseUrl = testDatabaseUrl();
  if (!baseUrl) return { ...(await openDatabase({ dataDir: IN_MEMORY_DATA_DIR, databaseUrl: undefined })), url: undefined };

  const name = `donations_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  await adminQuery(baseUrl, `CREATE DATABASE "${name}"`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  let handle: DatabaseHandle;
  try {
    handle = await openDatabase({ dataDir: IN_MEMORY_DATA_DIR, databaseUrl: url.toString() });
  } catch (error) {
    await adminQuery(baseUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    throw error;
  }
  return {
    ...handle,
    url: url.toString(),
    close: async () => {
      await handle.close();
      await adminQuery(baseUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    },
  };
}

/** Runs one statement on the server of `baseUrl` with a short-lived connection (CREATE/DROP DATABASE cannot run in a pool transaction). */
async function adminQuery(baseUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: baseUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
