import { randomBytes } from 'node:crypto';
import { readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { CLUSTER_ENTRY_DIR, createArchiveWriter, readArchive, type ArchiveWriter, type BackupManifest } from './archive';

/**
 * An online backup of the embedded PostgreSQL server (issue #33, part 2; decision 0100): PostgreSQL's low-level base
 * backup API over one connection through the server's private socket, while the site keeps writing.
 * 1. A temporary physical replication slot keeps every WAL segment from now on (a checkpoint during the copy would
 *    otherwise recycle the ones the backup needs); it goes away with the connection.
 * 2. `pg_backup_start(label, fast)` checkpoints and makes PostgreSQL write whole pages to the WAL until the stop.
 * 3. Every file of the cluster is copied, but for what PostgreSQL's documentation says to leave out (the WAL, the
 *    server's pid file and runtime folders, temporary files); a file read while it changes is fixed by the WAL replay.
 * 4. `pg_backup_stop()` ends the backup, switches to a new WAL segment and answers the `backup_label` (and
 *    `tablespace_map`) to store with the copy; then the WAL segments from the start to the stop are copied.
 * Restoring is putting those files in an empty cluster folder: the server replays the WAL to the stop point at its
 * first start and is then consistent as of that moment (restore.ts).
 */

/** Files and folders of a cluster a base backup leaves out (PostgreSQL 18, "Making a Base Backup Using the Low Level API"). */
const EXCLUDED_FILES = new Set(['postmaster.pid', 'postmaster.opts', 'backup_label', 'tablespace_map', 'backup_label.old', 'current_logfiles', 'server.log']);
/** Folders whose content is left out (the folders themselves are kept, empty, as the server expects them). */
const EMPTIED_FOLDERS = new Set(['pg_wal', 'pg_replslot', 'pg_dynshmem', 'pg_notify', 'pg_serial', 'pg_snapshots', 'pg_stat_tmp', 'pg_subtrans', 'log']);

/** A file or folder of the cluster to copy, by its path relative to the cluster folder. */
interface ClusterEntry {
  relative: string;
  isDirectory: boolean;
}

/** Every file and folder of `clusterDir` a base backup copies, parents before children; entries that vanish meanwhile are skipped. */
async function clusterEntries(clusterDir: string, relative = ''): Promise<ClusterEntry[]> {
  const found: ClusterEntry[] = [];
  const children = await readdir(path.join(clusterDir, relative), { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  for (const child of children.sort((a, b) => a.name.localeCompare(b.name))) {
    const childRelative = relative ? `${relative}/${child.name}` : child.name;
    if (child.name.startsWith('pgsql_tmp') || child.name === 'pg_internal.init') continue;
    if (child.isDirectory()) {
      found.push({ relative: childRelative, isDirectory: true });
      if (relative === '' && EMPTIED_FOLDERS.has(child.name)) {
        // NOTE: pg_wal/archive_status must exist for the restored server to start.
        if (child.name === 'pg_wal') found.push({ relative: 'pg_wal/archive_status', isDirectory: true });
        continue;
      }
      found.push(...(await clusterEntries(clusterDir, childRelative)));
    } else if (child.isFile() && !(relative === '' && EXCLUDED_FILES.has(child.name))) {
      found.push({ relative: childRelative, isDirectory: false });
    }
  }
  return found;
}

/** Copies `entries` of `clusterDir` into the archive. */
async function copyEntries(writer: ArchiveWriter, clusterDir: string, entries: readonly ClusterEntry[]): Promise<void> {
  for (const entry of entries) {
    const name = `${CLUSTER_ENTRY_DIR}/${entry.relative}`;
    if (entry.isDirectory) {
      await writer.addDirectory(name, 0o700);
      continue;
    }
    const source = path.join(clusterDir, entry.relative);
    const info = await stat(source).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    if (info) await writer.addFile(name, source, info.size, info.mode & 0o700);
  }
}

/** The WAL segment files of `clusterDir` from `first` to `last` (names compared without their timeline), and the timeline history files. */
async function walSegmentsBetween(clusterDir: string, first: string, last: string): Promise<ClusterEntry[]> {
  const names = await readdir(path.join(clusterDir, 'pg_wal'));
  const position = (name: string) => name.slice(8);
  return names
    .filter((name) => (/^[0-9A-F]{24}$/.test(name) && position(name) >= position(first) && position(name) <= position(last)) || /^[0-9A-F]{8}\.history$/.test(name))
    .sort()
    .map((name) => ({ relative: `pg_wal/${name}`, isDirectory: false }));
}

/**
 * Writes a base backup of the running server whose cluster is `clusterDir` into the archive `file`, connecting with
 * `databaseUrl` (the embedded server's socket, as its superuser). Resolves with the manifest once the file is
 * complete. Rejects with PostgreSQL's or the file system's error; the backup is then ended on the server (the
 * connection closes) and the caller removes the file.
 */
async function writeBaseBackup(clusterDir: string, databaseUrl: string, file: string): Promise<BackupManifest> {
  const client = new pg.Client({ connectionString: databaseUrl, application_name: `reef-donations backup pid ${process.pid}` });
  client.on('error', () => undefined);
  await client.connect();
  const writer = createArchiveWriter(file);
  try {
    const slot = `reef_backup_${process.pid}_${randomBytes(4).toString('hex')}`;
    await client.query('SELECT pg_create_physical_replication_slot($1, true, true)', [slot]);
    const { rows: started } = await client.query<{ lsn: string; version: string }>(
      `SELECT pg_backup_start($1, true)::text AS lsn, current_setting('server_version') AS version`,
      [`reef-donations ${new Date().toISOString()}`],
    );
    const startLsn = started[0]?.lsn ?? '';
    await copyEntries(writer, clusterDir, await clusterEntries(clusterDir));
    const { rows: stopped } = await client.query<{ lsn: string; labelfile: string; spcmapfile: string }>(
      'SELECT lsn::text AS lsn, labelfile, spcmapfile FROM pg_backup_stop(false)',
    );
    const stop = stopped[0];
    if (!stop) throw new Error('pg_backup_stop answered nothing');
    const { rows: segments } = await client.query<{ first: string; last: string }>(
      'SELECT pg_walfile_name($1::pg_lsn) AS first, pg_walfile_name($2::pg_lsn) AS last',
      [startLsn, stop.lsn],
    );
    const { first = '', last = '' } = segments[0] ?? {};
    await copyEntries(writer, clusterDir, await walSegmentsBetween(clusterDir, first, last));
    await writer.addContent(`${CLUSTER_ENTRY_DIR}/backup_label`, stop.labelfile, 0o600);
    if (stop.spcmapfile) await writer.addContent(`${CLUSTER_ENTRY_DIR}/tablespace_map`, stop.spcmapfile, 0o600);
    return await writer.finish({ createdAt: new Date().toISOString(), postgresVersion: started[0]?.version ?? '', startLsn, stopLsn: stop.lsn });
  } catch (error) {
    await writer.abort(error as Error);
    throw error;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** What {@link backUpToFile} wrote. */
export interface BackupResult {
  /** The backup file (absolute). */
  file: string;
  /** Its size in bytes. */
  bytes: number;
  manifest: BackupManifest;
}

/**
 * Backs up the running embedded server of cluster `clusterDir` (over `databaseUrl`) into `file`: written under a
 * temporary name beside it (`.<name>.partial-<random>`), read back whole and checked against its manifest, then
 * renamed to `file`, so `file` is only ever a complete, checked backup (an existing `file` is replaced only then).
 * Rejects when `file`'s folder does not exist or any step fails, leaving no temporary file behind.
 */
export async function backUpToFile({ clusterDir, databaseUrl, file }: { clusterDir: string; databaseUrl: string; file: string }): Promise<BackupResult> {
  const target = path.resolve(file);
  const folder = await stat(path.dirname(target)).catch(() => undefined);
  if (!folder?.isDirectory()) throw new Error(`The folder of ${target} does not exist: create it first, or name a file in another folder`);
  const partial = path.join(path.dirname(target), `.${path.basename(target)}.partial-${randomBytes(4).toString('hex')}`);
  try {
    const written = await writeBaseBackup(clusterDir, databaseUrl, partial);
    const checked = await readArchive(partial);
    if (Object.keys(checked.files).length !== Object.keys(written.files).length) throw new Error(`${partial} read back differs from what was written`);
    await rename(partial, target);
    return { file: target, bytes: (await stat(target)).size, manifest: checked };
  } finally {
    await rm(partial, { force: true });
  }
}
