import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { testDatabaseUrl } from '../config';
import { seedMigratedDataDir } from './migrated-data-dir';
import { createMinimalWebRoot, startServerProcess, type ServerProcess } from './server-process';
import { LOCAL_TEST_POSTGRES_URL, openTestDatabase, type TestDatabase } from './test-database';

/**
 * What the server processes of one test file share, so a process killed with SIGKILL can be restarted on the same
 * data (issues #3, #12, #13): a DATA_DIR, a minimal WEB_ROOT, and, when DATABASE_URL is set, a PostgreSQL test
 * database of their own (on PGlite the database lives in DATA_DIR, seeded migrated: seedMigratedDataDir).
 */
export interface ServerWorkspace {
  /** DATA_DIR of the processes: an absolute temporary folder. Set once the file's `beforeAll` ran. */
  readonly dataDir: string;
  /** The PostgreSQL test database when DATABASE_URL is set; undefined on PGlite. Set once the file's `beforeAll` ran. */
  readonly postgres: TestDatabase | undefined;
  /**
   * Starts the production server on the workspace with NODE_ENV=test, LOG_LEVEL=info, RATE_LIMITS=off (the
   * card-testing limits are tested on their own), DATA_DIR, WEB_ROOT and DATABASE_URL, then `env` over them.
   * Every process it starts is killed after the file.
   */
  start(env?: Record<string, string>): Promise<ServerProcess>;
}

/** How a {@link ServerWorkspace} is set up. */
export interface ServerWorkspaceOptions {
  /**
   * True for processes that share one database, which only PostgreSQL allows (issue #14's two processes): a
   * PostgreSQL test database even when DATABASE_URL is unset, on {@link LOCAL_TEST_POSTGRES_URL}. Default false.
   */
  requirePostgres?: boolean;
}

/**
 * A {@link ServerWorkspace} for the calling test file, set up in a `beforeAll` and removed in an `afterAll` it
 * registers (its processes killed, the database dropped, the folders deleted). Call it at the top of the file,
 * before the file's own hooks that use it. `prefix` names the temporary DATA_DIR.
 */
export function useServerWorkspace(prefix: string, { requirePostgres = false }: ServerWorkspaceOptions = {}): ServerWorkspace {
  let dataDir: string | undefined;
  let webRoot: Awaited<ReturnType<typeof createMinimalWebRoot>> | undefined;
  let postgres: TestDatabase | undefined;
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), `${prefix}-`));
    webRoot = await createMinimalWebRoot();
    const postgresUrl = testDatabaseUrl() ?? (requirePostgres ? LOCAL_TEST_POSTGRES_URL : undefined);
    if (postgresUrl) postgres = await openTestDatabase(postgresUrl);
    else await seedMigratedDataDir(dataDir);
  });
  afterAll(async () => {
    for (const server of servers) await server.kill();
    await postgres?.close();
    await webRoot?.remove();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const ready = () => {
    if (dataDir === undefined || webRoot === undefined) throw new Error('The server workspace is used before its beforeAll ran');
    return { dataDir, webRoot: webRoot.webRoot };
  };
  return {
    get dataDir() {
      return ready().dataDir;
    },
    get postgres() {
      return postgres;
    },
    async start(env = {}) {
      const { dataDir: DATA_DIR, webRoot: WEB_ROOT } = ready();
      const server = await startServerProcess({
        NODE_ENV: 'test',
        LOG_LEVEL: 'info',
        RATE_LIMITS: 'off',
        DATA_DIR,
        WEB_ROOT,
        ...(postgres?.url ? { DATABASE_URL: postgres.url } : {}),
        ...env,
      });
      servers.push(server);
      return server;
    },
  };
}
