import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { IN_MEMORY_DATA_DIR, testDatabaseUrl } from '../config';
import { drizzleOver, openDatabase, type DatabaseHandle } from '../db/client';

/** A test database; `url` is its PostgreSQL URL (for a server process to share it), undefined on in-memory PGlite. */
export type TestDatabase = DatabaseHandle & { url: string | undefined };

/**
 * The PostgreSQL server of CI's PostgreSQL run and of every machine of this project (.ci/run), where a test that
 * only makes sense on PostgreSQL (several server processes on one database, issue #14) creates its database
 * when DATABASE_URL is unset.
 */
export const LOCAL_TEST_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/test';

/**
 * A database for one test file, migrated and isolated from every other file and run:
 * - by default an in-memory PGlite (`memory://`), gone when closed, loaded from {@link migratedPgliteDataDir};
 * - when DATABASE_URL is set (CI: {@link LOCAL_TEST_POSTGRES_URL}), or `baseUrl` is given, a fresh PostgreSQL
 *   database `donations_test_<pid>_<random>` created on that server and dropped (WITH (FORCE)) on close.
 * The role in the URL must be allowed to CREATE DATABASE. Rejects when the server cannot be reached.
 */
export async function openTestDatabase(baseUrl: string | undefined = testDatabaseUrl()): Promise<TestDatabase> {
  if (!baseUrl) return openMigratedPglite();

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

/**
 * The data directory (a tarball) of an in-memory PGlite that `openDatabase` created and migrated, made once per test
 * worker. NOTE: PGlite's initdb is most of the cost of a new database (about 2.5 s here, the migrations 0.1 s); a copy
 * of this one loads in about 1 s. Each test still gets a database of its own.
 */
let migratedPgliteDataDir: Promise<Blob> | undefined;

/** A fresh in-memory PGlite holding every migration, loaded from {@link migratedPgliteDataDir}. */
async function openMigratedPglite(): Promise<TestDatabase> {
  migratedPgliteDataDir ??= openDatabase({ dataDir: IN_MEMORY_DATA_DIR, databaseUrl: undefined }).then(async (template) => {
    try {
      if (template.driver !== 'pglite') throw new Error('the template of the test databases is not PGlite');
      return await template.client.dumpDataDir('none');
    } finally {
      await template.close();
    }
  });
  const client = new PGlite(IN_MEMORY_DATA_DIR, { loadDataDir: await migratedPgliteDataDir });
  await client.waitReady;
  return { db: drizzleOver(client), driver: 'pglite', client, close: () => client.close(), url: undefined };
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
