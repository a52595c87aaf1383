import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import * as tar from 'tar-stream';

/**
 * The backup file (issue #33, part 2; docs/decisions/0100-online-backups-with-postgresql-base-backups.md): a gzipped
 * tar of the cluster's files under `postgres/`, ended by a manifest, `reef-backup.json`, that gives the size and
 * SHA-256 of every file before it. A file is trusted only when read back whole: every entry's checksum matches the
 * manifest, no file is missing or extra, the gzip stream ends where it should (gzip's own CRC and length check). A
 * truncated or corrupt file fails that reading with {@link BackupFileError}.
 */

/** The name of the manifest, the archive's last entry. */
export const MANIFEST_NAME = 'reef-backup.json';
/** The folder of the cluster's files inside the archive. */
export const CLUSTER_ENTRY_DIR = 'postgres';
/** The manifest's `format`: tells a backup of this site from any other tar.gz. */
const FORMAT = 'reef-donations-backup';
/** The manifest's layout version. */
const FORMAT_VERSION = 1;
/** Bytes read from a file at a time when it is added to the archive. */
const CHUNK_BYTES = 1024 * 1024;

/** A file of the archive as the manifest lists it. */
export interface ManifestFile {
  /** Its size in bytes. */
  size: number;
  /** The SHA-256 of its content, hex. */
  sha256: string;
}

/** What a backup says about itself (the archive's last entry). */
export interface BackupManifest {
  format: typeof FORMAT;
  version: typeof FORMAT_VERSION;
  /** When the backup finished (ISO 8601, UTC). */
  createdAt: string;
  /** PostgreSQL's `server_version` of the cluster backed up: a restore runs the same major version. */
  postgresVersion: string;
  /** The WAL locations where the base backup started and stopped (pg_backup_start, pg_backup_stop). */
  startLsn: string;
  stopLsn: string;
  /** Every file entry of the archive, by its name in the archive. */
  files: Record<string, ManifestFile>;
}

/** The archive cannot be read as a complete backup of this site: truncated, corrupt, or another kind of file. */
export class BackupFileError extends Error {
  override name = 'BackupFileError';
}

/** True when `name` is a safe relative entry name under {@link CLUSTER_ENTRY_DIR} (no absolute path, no `..`). */
function isClusterEntryName(name: string): boolean {
  const parts = name.split('/');
  return parts[0] === CLUSTER_ENTRY_DIR && !path.isAbsolute(name) && parts.every((part) => part !== '..' && part !== '.' && part !== '');
}

/** Writes an archive entry by entry; {@link ArchiveWriter.finish} adds the manifest and closes the file. */
export interface ArchiveWriter {
  /** Adds a folder (`postgres/...`). */
  addDirectory(name: string, mode: number): Promise<void>;
  /**
   * Adds a file read from `source`, `size` bytes (its size when listed): a file that grew meanwhile is cut at `size`,
   * one that shrank (a table truncated by VACUUM) is padded with zeros, as pg_basebackup does; WAL replay at restore
   * rewrites such pages. Resolves false, adding nothing, when the file is gone (a table dropped meanwhile).
   */
  addFile(name: string, source: string, size: number, mode: number): Promise<boolean>;
  /** Adds a file of `content`. */
  addContent(name: string, content: string, mode: number): Promise<void>;
  /** Adds the manifest (with every file added), ends the archive and resolves once the file is written and synced. */
  finish(manifest: Omit<BackupManifest, 'format' | 'version' | 'files'>): Promise<BackupManifest>;
  /** Stops writing after a failure (the caller removes the file). */
  abort(error: Error): Promise<void>;
}

/** Resolves once `sink` accepted `chunk` (waits for 'drain' when its buffer is full); rejects when `failed` does first. */
function writeChunk(sink: ReturnType<tar.Pack['entry']>, chunk: Uint8Array, failed: Promise<never>): Promise<void> {
  return sink.write(chunk) ? Promise.resolve() : Promise.race([new Promise<void>((resolve) => sink.once('drain', () => resolve())), failed]);
}

/** Resolves once the entry `sink` is complete (its callback), rejecting with the pack's error. */
function ended(sink: ReturnType<tar.Pack['entry']>, done: Promise<void>): Promise<void> {
  sink.end(undefined);
  return done;
}

/** Starts writing an archive into `file` (created; the caller picks a temporary name and renames it when checked). */
export function createArchiveWriter(file: string): ArchiveWriter {
  const pack = tar.pack();
  // NOTE: gzip's fastest level: the cluster's files shrink about tenfold anyway, and the backup runs beside the site.
  const writing = pipeline(pack, createGzip({ level: 1 }), createWriteStream(file, { mode: 0o600 }));
  // NOTE: a write that fails (no such folder, a full disk) ends the pipeline; every wait below races it, or would hang.
  const failed = writing.then(() => new Promise<never>(() => undefined));
  failed.catch(() => undefined);
  const files: Record<string, ManifestFile> = {};
  const entry = async (header: Partial<tar.Header> & Pick<tar.Header, 'name'>): Promise<{ sink: ReturnType<tar.Pack['entry']>; done: Promise<void> }> => {
    // NOTE: a pack the failed pipeline destroyed refuses entries; answer the pipeline's own error instead.
    if (pack.destroying) await failed;
    let settle!: (error?: Error | null) => void;
    const entered = new Promise<void>((resolve, reject) => {
      settle = (error) => (error ? reject(error) : resolve());
    });
    const sink = pack.entry(header, settle);
    const done = Promise.race([entered, failed]);
    done.catch(() => undefined);
    return { sink, done };
  };

  const addContent = async (name: string, content: string, mode: number) => {
    const buffer = Buffer.from(content, 'utf8');
    const { sink, done } = await entry({ name, size: buffer.length, mode, mtime: new Date(), type: 'file' });
    await writeChunk(sink, buffer, failed);
    await ended(sink, done);
    if (name !== MANIFEST_NAME) files[name] = { size: buffer.length, sha256: createHash('sha256').update(buffer).digest('hex') };
  };

  return {
    async addDirectory(name, mode) {
      const { sink, done } = await entry({ name, mode, mtime: new Date(), type: 'directory' });
      await ended(sink, done);
    },
    async addFile(name, source, size, mode) {
      const handle = await open(source, 'r').catch((error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return undefined;
        throw error;
      });
      if (!handle) return false;
      try {
        const { sink, done } = await entry({ name, size, mode, mtime: new Date(), type: 'file' });
        const hash = createHash('sha256');
        const buffer = Buffer.alloc(Math.min(CHUNK_BYTES, Math.max(size, 1)));
        let written = 0;
        while (written < size) {
          const want = Math.min(buffer.length, size - written);
          const { bytesRead } = await handle.read(buffer, 0, want, written);
          // NOTE: a shrunk file reads short; zeros stand for the rest (see the docstring).
          const chunk = bytesRead > 0 ? Buffer.from(buffer.subarray(0, bytesRead)) : Buffer.alloc(want);
          hash.update(chunk);
          await writeChunk(sink, chunk, failed);
          written += chunk.length;
        }
        await ended(sink, done);
        files[name] = { size, sha256: hash.digest('hex') };
        return true;
      } finally {
        await handle.close();
      }
    },
    addContent,
    async finish(details) {
      const manifest: BackupManifest = { format: FORMAT, version: FORMAT_VERSION, ...details, files };
      await addContent(MANIFEST_NAME, `${JSON.stringify(manifest, null, 2)}\n`, 0o600);
      pack.finalize();
      await writing;
      const handle = await open(file, 'r+');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
      return manifest;
    },
    async abort(error) {
      pack.destroy(error);
      await writing.catch(() => undefined);
    },
  };
}

/** Parses and checks the manifest's text; throws BackupFileError when it is not this site's. */
function parseManifest(text: string, file: string): BackupManifest {
  let manifest: Partial<BackupManifest>;
  try {
    manifest = JSON.parse(text) as Partial<BackupManifest>;
  } catch {
    throw new BackupFileError(`${file} is damaged: its manifest (${MANIFEST_NAME}) is not JSON`);
  }
  if (manifest.format !== FORMAT || manifest.version !== FORMAT_VERSION || typeof manifest.files !== 'object' || manifest.files === null) {
    throw new BackupFileError(`${file} is not a backup made by npm run db:backup (format ${FORMAT} version ${FORMAT_VERSION})`);
  }
  return manifest as BackupManifest;
}

/**
 * Reads the whole archive `file` back and checks it (see the module comment); with `extractTo`, also writes its
 * entries under that folder (which the caller removes when this rejects). Resolves with the manifest. Rejects with
 * {@link BackupFileError} naming what is wrong (incomplete, corrupt, a checksum that differs, a missing or unlisted
 * file, not this site's format), or with the file system's error (unreadable file, full disk).
 */
export async function readArchive(file: string, { extractTo }: { extractTo?: string } = {}): Promise<BackupManifest> {
  const extract = tar.extract();
  const reading = pipeline(createReadStream(file), createGunzip(), extract);
  const seen: Record<string, ManifestFile> = {};
  let manifestText: string | undefined;
  const damaged = (reason: string) => new BackupFileError(`${file} is not a complete backup (${reason}); nothing was restored from it`);
  try {
    for await (const entry of extract) {
      const { name, type, mode } = entry.header;
      if (manifestText !== undefined) throw damaged(`an entry after the manifest: ${name}`);
      if (name === MANIFEST_NAME && type === 'file') {
        const chunks: Buffer[] = [];
        for await (const chunk of entry) chunks.push(chunk as Buffer);
        manifestText = Buffer.concat(chunks).toString('utf8');
        continue;
      }
      const entryName = name.replace(/\/$/, '');
      if (!isClusterEntryName(entryName) || (type !== 'file' && type !== 'directory')) throw damaged(`an unexpected entry: ${name}`);
      const target = extractTo ? path.join(extractTo, entryName) : undefined;
      if (type === 'directory') {
        if (target) await mkdir(target, { recursive: true, mode: 0o700 });
        entry.resume();
        continue;
      }
      const hash = createHash('sha256');
      if (target) await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
      const output = target ? await open(target, 'wx', (mode ?? 0o600) & 0o700) : undefined;
      let size = 0;
      try {
        for await (const chunk of entry) {
          hash.update(chunk as Buffer);
          size += (chunk as Buffer).length;
          await output?.write(chunk as Buffer);
        }
      } finally {
        await output?.close();
      }
      seen[entryName] = { size, sha256: hash.digest('hex') };
    }
    await reading;
  } catch (error) {
    extract.destroy();
    await reading.catch(() => undefined);
    if (error instanceof BackupFileError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EACCES' || code === 'ENOSPC' || code === 'EISDIR') throw error;
    throw damaged((error as Error).message);
  }
  if (manifestText === undefined) throw damaged(`no manifest (${MANIFEST_NAME}): the file ends early`);
  const manifest = parseManifest(manifestText, file);
  for (const [name, listed] of Object.entries(manifest.files)) {
    const found = seen[name];
    if (!found) throw damaged(`${name} is missing`);
    if (found.size !== listed.size || found.sha256 !== listed.sha256) throw damaged(`${name} differs from its checksum`);
  }
  const unlisted = Object.keys(seen).find((name) => !(name in manifest.files));
  if (unlisted !== undefined) throw damaged(`${unlisted} is not in the manifest`);
  return manifest;
}
