import { randomBytes } from 'node:crypto';
import { chmod, chown, mkdir, readdir, rename, rm, rmdir, stat } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { CLUSTER_DIR_NAME, runAsUser, startEmbeddedPostgres, stopEmbeddedPostgres } from '../db/embedded-postgres';
import { CLUSTER_ENTRY_DIR, readArchive } from './archive';

/**
 * Restoring a backup of base-backup.ts into a new DATA_DIR (issue #33, part 2; decision 0100): the archive is read
 * and checked whole before anything is written; its files go into a hidden staging folder inside the target, where
 * the server is started once (it replays the backup's WAL and becomes consistent) and stopped; only then does the
 * cluster move to `DATA_DIR/postgres` in one rename. A failure at any step removes what was written: the target is
 * left as it was, empty or absent.
 */

/** The restore was refused before anything was written (a target that is not empty). */
export class RestoreRefusedError extends Error {
  override name = 'RestoreRefusedError';
}

/** What a restore found in the restored database. */
export interface RestoreReport {
  /** The DATA_DIR restored into (absolute). */
  dataDir: string;
  /** When the backup was made (its manifest's `createdAt`). */
  backupCreatedAt: string;
  /** Migrations applied in the restored database (drizzle's journal table). */
  migrations: number;
  /** Donations in the restored database. */
  donations: number;
}

/** Lists `dir`, or undefined when it does not exist; rejects when it is not a folder. */
async function folderContent(dir: string): Promise<string[] | undefined> {
  const info = await stat(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (!info) return undefined;
  if (!info.isDirectory()) throw new RestoreRefusedError(`${dir} is not a folder; restore into an empty or new folder. Nothing was changed.`);
  return readdir(dir);
}

/** Gives `dir` and everything in it to the server's user (as root; otherwise this process's user owns it already). */
async function giveToServerUser(dir: string): Promise<void> {
  const runAs = await runAsUser();
  if (!('uid' in runAs)) return;
  const walk = async (entry: string): Promise<void> => {
    await chown(entry, runAs.uid, runAs.gid);
    const info = await stat(entry);
    if (info.isDirectory()) for (const child of await readdir(entry)) await walk(path.join(entry, child));
  };
  await walk(dir);
}

/** Counts the migrations and donations of the started server at `databaseUrl`. */
async function restoredCounts(databaseUrl: string): Promise<{ migrations: number; donations: number }> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ migrations: number; donations: number }>(
      'SELECT (SELECT count(*)::int FROM drizzle.__drizzle_migrations) AS migrations, (SELECT count(*)::int FROM donations) AS donations',
    );
    return rows[0] ?? { migrations: 0, donations: 0 };
  } finally {
    await client.end();
  }
}

/**
 * Restores the backup `file` into `dataDir`, which must be empty or absent (see the module comment). Resolves with
 * what the restored database holds. Rejects with {@link RestoreRefusedError} for a target that is not empty, with
 * BackupFileError (archive.ts) for a truncated, corrupt or foreign file, or with the server's error when the restored
 * cluster does not start; in every case the target is left as it was.
 */
export async function restoreBackup({ file, dataDir }: { file: string; dataDir: string }): Promise<RestoreReport> {
  const target = path.resolve(dataDir);
  const content = await folderContent(target);
  if (content && content.length > 0) {
    throw new RestoreRefusedError(`${target} is not empty (${content.length} entries); restore into an empty or new folder. Nothing was changed.`);
  }
  // NOTE: checked whole first, so a damaged file creates nothing at all; read again below while extracting.
  const manifest = await readArchive(file);
  await mkdir(target, { recursive: true });
  const staging = path.join(target, `.restoring-${randomBytes(4).toString('hex')}`);
  try {
    await mkdir(staging, { mode: 0o700 });
    await readArchive(file, { extractTo: staging });
    await chmod(path.join(staging, CLUSTER_ENTRY_DIR), 0o700);
    await giveToServerUser(staging);
    const server = await startEmbeddedPostgres(staging);
    const counts = await restoredCounts(server.databaseUrl);
    await server.stop();
    await rename(path.join(staging, CLUSTER_ENTRY_DIR), path.join(target, CLUSTER_DIR_NAME));
    await rm(staging, { recursive: true, force: true });
    return { dataDir: target, backupCreatedAt: manifest.createdAt, ...counts };
  } catch (error) {
    await stopEmbeddedPostgres(staging).catch(() => undefined);
    await rm(staging, { recursive: true, force: true });
    if (content === undefined) await rmdir(target).catch(() => undefined);
    throw error;
  }
}
