import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { embeddedDatabaseUrl, stopEmbeddedPostgres } from '../db/embedded-postgres';
import { createMinimalWebRoot, spawnServerProcess, startServerProcess, type ServerProcess, type StartingServerProcess } from './server-process';
import { openTestDatabase, type TestDatabase } from './test-database';

/**
 * What the server processes of one test file share, so a process killed with SIGKILL can be restarted on the same
 * data (issues #3, #12, #13): a DATA_DIR, a minimal WEB_ROOT, and a database: by default a test database of their
 * own on the run's test server (a template copy, see openTestDatabase), or, with `embedded`, the embedded PostgreSQL
 * server the processes start in DATA_DIR, exactly as `npm start` does (issue #25).
 */
export interface ServerWorkspace {
  /** DATA_DIR of the processes: an absolute temporary folder. Set once the file's `beforeAll` ran. */
  readonly dataDir: string;
  /** The processes' test database; undefined with `embedded`. Set once the file's `beforeAll` ran. */
  readonly postgres: TestDatabase | undefined;
  /** The URL of the processes' database: the test database's, or (with `embedded`) the private socket of DATA_DIR's server. */
  readonly databaseUrl: string;
  /**
   * Starts the production server on the workspace with NODE_ENV=test, LOG_LEVEL=info, RATE_LIMITS=off (the
   * card-testing limits are tested on their own), DATA_DIR, WEB_ROOT and DATABASE_URL, then `env` over them.
   * Every process it starts is killed after the file.
   */
  start(env?: Record<string, string>): Promise<ServerProcess>;
  /** Spawns a server with the same environment as {@link start}, without waiting for it to listen; killed after the file too. */
  spawn(env?: Record<string, string>): StartingServerProcess;
}

/** How a {@link ServerWorkspace} is set up. */
export interface ServerWorkspaceOptions {
  /**
   * True: no DATABASE_URL; each process runs on the embedded PostgreSQL server of DATA_DIR (started or adopted), which
   * is stopped after the file (a process killed with SIGKILL leaves it running). Default false.
   */
  embedded?: boolean;
}

/**
 * A {@link ServerWorkspace} for the calling test file, set up in a `beforeAll` and removed in an `afterAll` it
 * registers (its processes killed, the database dropped or the embedded server stopped, the folders deleted). Call it at the top of the file,
 * before the file's own hooks that use it. `prefix` names the temporary DATA_DIR.
 */
export function useServerWorkspace(prefix: string, { embedded = false }: ServerWorkspaceOptions = {}): ServerWorkspace {
  let dataDir: string | undefined;
  let webRoot: Awaited<ReturnType<typeof createMinimalWebRoot>> | undefined;
  let postgres: TestDatabase | undefined;
  const servers: StartingServerProcess[] = [];

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), `${prefix}-`));
    webRoot = await createMinimalWebRoot();
    if (!embedded) postgres = await openTestDatabase();
  });
  afterAll(async () => {
    for (const server of servers) await server.kill();
    await postgres?.close();
    if (dataDir && embedded) await stopEmbeddedPostgres(dataDir);
    await webRoot?.remove();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const ready = () => {
    if (dataDir === undefined || webRoot === undefined) throw new Error('The server workspace is used before its beforeAll ran');
    return { dataDir, webRoot: webRoot.webRoot };
  };
  const environment = (env: Record<string, string>) => {
    const { dataDir: DATA_DIR, webRoot: WEB_ROOT } = ready();
    return {
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      RATE_LIMITS: 'off',
      DATA_DIR,
      WEB_ROOT,
      ...(postgres ? { DATABASE_URL: postgres.url } : {}),
      ...env,
    };
  };
  return {
    get dataDir() {
      return ready().dataDir;
    },
    get postgres() {
      return postgres;
    },
    get databaseUrl() {
      return postgres?.url ?? embeddedDatabaseUrl(ready().dataDir);
    },
    async start(env = {}) {
      const server = await startServerProcess(environment(env));
      servers.push(server);
      return server;
    },
    spawn(env = {}) {
      const server = spawnServerProcess(environment(env));
      servers.push(server);
      return server;
    },
  };
}

/**
 * A pg pool on `workspace`'s database from the calling file's `beforeAll` to its `afterAll`, for a test that reads the
 * ledger beside the running server over its own connection, never through our API; call it after
 * {@link useServerWorkspace}. Returns the pool's getter (the pool exists once the file's `beforeAll` ran). A connection
 * the server's kill cuts is not an error of the test: the pool's `error` events are ignored.
 */
export function useWorkspacePool(workspace: ServerWorkspace): () => pg.Pool {
  let pool: pg.Pool | undefined;
  beforeAll(() => {
    pool = new pg.Pool({ connectionString: workspace.databaseUrl });
    pool.on('error', () => undefined);
  });
  afterAll(async () => {
    await pool?.end();
  });
  return () => {
    if (!pool) throw new Error('The workspace pool is used before its beforeAll ran');
    return pool;
  };
}
