import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { IN_MEMORY_DATA_DIR, testDatabaseUrl } from '../platform/config';
import { openDatabase, type DatabaseHandle } from '../db/client';
import { startEmbeddedPostgres } from '../db/embedded-postgres';

/** A test database; `url` is its PostgreSQL URL, for a server process to share it. */
export type TestDatabase = DatabaseHandle & { url: string };

/** Environment variables through which a test run's setup hands its server and template to the test workers. */
const SERVER_URL_VARIABLE = 'REEF_TEST_POSTGRES_URL';
const TEMPLATE_VARIABLE = 'REEF_TEST_TEMPLATE_DATABASE';

/** `url` with its database (the URL's path) replaced by `database`; the query (socket host, port) is kept. */
export function withDatabase(url: string, database: string): string {
  return url.replace(/^(postgres(?:ql)?:\/\/[^/?]*\/)[^?]*/, `$1${database}`);
}

/** The PostgreSQL server and migrated template a test run set up ({@link startTestPostgres}), read from the environment. */
function testRun(): { serverUrl: string; template: string } {
  const serverUrl = process.env[SERVER_URL_VARIABLE];
  const template = process.env[TEMPLATE_VARIABLE];
  if (!serverUrl || !template) {
    throw new Error('No test PostgreSQL server: run the tests through `npm test` (Vitest and Playwright start one in their global setup)');
  }
  return { serverUrl, template };
}

/** Runs statements on the server of `url` with a short-lived connection (CREATE/DROP DATABASE cannot run in a pool transaction). */
async function adminQuery(url: string, ...statements: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * Sets up the PostgreSQL of a test run (issue #25, "Tests on the same engine"), for Vitest's and Playwright's global
 * setup and `npm run bench`: the server of `databaseUrl` (default DATABASE_URL's) when set (CI's second pass), otherwise an embedded PostgreSQL server of the
 * run's own in a temporary folder (not durable: a throw-away server), and on it one template database holding every
 * migration. Each test database is then a `CREATE DATABASE ... TEMPLATE` copy of it ({@link openTestDatabase}), which
 * costs milliseconds. Publishes both to the test workers through the environment; returns the teardown, which drops
 * the template (or stops the embedded server and deletes its folder).
 */
export async function startTestPostgres(databaseUrl: string | undefined = testDatabaseUrl()): Promise<() => Promise<void>> {
  let serverUrl: string;
  let teardown: () => Promise<void>;
  const template = `reef_template_${process.pid}_${randomBytes(4).toString('hex')}`;
  if (databaseUrl) {
    serverUrl = databaseUrl;
    teardown = () => adminQuery(serverUrl, `DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`);
  } else {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'reef-test-postgres-'));
    const server = await startEmbeddedPostgres(dataDir, { durable: false });
    serverUrl = server.databaseUrl;
    teardown = async () => {
      await server.stop();
      await rm(dataDir, { recursive: true, force: true });
    };
  }
  await adminQuery(serverUrl, `CREATE DATABASE "${template}"`);
  const migrated = await openDatabase({ dataDir: IN_MEMORY_DATA_DIR, databaseUrl: withDatabase(serverUrl, template) });
  await migrated.close();
  process.env[SERVER_URL_VARIABLE] = serverUrl;
  process.env[TEMPLATE_VARIABLE] = template;
  return teardown;
}

/** A database created for a test on the run's server: its URL, and the function that drops it (WITH (FORCE)). */
export interface CreatedTestDatabase {
  url: string;
  drop: () => Promise<void>;
}

/** Creates `donations_test_<pid>_<random>` on the run's server, a copy of `template`. */
async function createTestDatabase(template: string): Promise<CreatedTestDatabase> {
  const { serverUrl } = testRun();
  const name = `donations_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  await adminQuery(serverUrl, `CREATE DATABASE "${name}" TEMPLATE "${template}"`);
  return { url: withDatabase(serverUrl, name), drop: () => adminQuery(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

/** An empty database (PostgreSQL's `template0`: no table, no migration), for a test that migrates it its own way. */
export function createEmptyTestDatabase(): Promise<CreatedTestDatabase> {
  return createTestDatabase('template0');
}

/**
 * A database for one test file (or one server workspace), migrated and isolated from every other: a copy of the run's
 * template, dropped on close. Rejects when the run set up no server ({@link startTestPostgres}) or it cannot be reached.
 */
export async function openTestDatabase(): Promise<TestDatabase> {
  const created = await createTestDatabase(testRun().template);
  let handle: DatabaseHandle;
  try {
    handle = await openDatabase({ dataDir: IN_MEMORY_DATA_DIR, databaseUrl: created.url });
  } catch (error) {
    await created.drop();
    throw error;
  }
  return {
    ...handle,
    url: created.url,
    close: async () => {
      await handle.close();
      await created.drop();
    },
  };
}
