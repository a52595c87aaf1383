import path from 'node:path';
import { stat } from 'node:fs/promises';
import type pg from 'pg';
import { claimEmbeddedServer, DataDirInUseError } from '../db/client';
import { CLUSTER_DIR_NAME, embeddedDatabaseUrl, runningServerOf, startEmbeddedPostgres } from '../db/embedded-postgres';
import { backUpToFile, type BackupResult } from './base-backup';

/**
 * A backup of DATA_DIR's embedded database, whether or not the site runs (issue #33, part 2; decision 0100).
 * - The site runs (its server is up): the backup is taken from that server, beside the site's own connections.
 * - Nothing runs: the server is started for the backup and stopped after it, holding the site's owner lock meanwhile,
 *   so an `npm start` during those seconds is refused (it names `reef-donations backup pid N`) rather than adopting a
 *   server about to stop under it.
 */

/** Text of the refusal of a backup with DATABASE_URL set: what to use instead (issue #33, part 2). */
export const DATABASE_URL_BACKUP_ADVICE =
  'DATABASE_URL is set: the site does not run the embedded database, so npm run db:backup does not back it up. Use your ' +
  "PostgreSQL provider's backups (point-in-time recovery), or pg_dump of the server's major version: " +
  'pg_dump --format=custom --file=reef.dump "$DATABASE_URL". Nothing was done.';

/** What {@link backUpEmbeddedDatabase} did: the backup, and whether it had to start the server itself. */
export interface EmbeddedBackupResult extends BackupResult {
  startedServer: boolean;
}

/**
 * Backs up the embedded database of `dataDir` into `file` (see backUpToFile: a checked file, renamed into place).
 * Rejects when `dataDir` holds no embedded database, when its server cannot start, or when the backup fails; a server
 * this call started is stopped again in every case.
 */
export async function backUpEmbeddedDatabase({ dataDir, file }: { dataDir: string; file: string }): Promise<EmbeddedBackupResult> {
  const clusterDir = path.join(path.resolve(dataDir), CLUSTER_DIR_NAME);
  const hasCluster = await stat(path.join(clusterDir, 'PG_VERSION')).then(
    () => true,
    () => false,
  );
  if (!hasCluster) throw new Error(`${path.resolve(dataDir)} holds no embedded database (no ${CLUSTER_DIR_NAME}/PG_VERSION): check DATA_DIR`);
  if ((await runningServerOf(clusterDir))?.status === 'ready') {
    return { ...(await backUpToFile({ clusterDir, databaseUrl: embeddedDatabaseUrl(dataDir), file })), startedServer: false };
  }
  const server = await startEmbeddedPostgres(dataDir);
  let owner: pg.Client | undefined;
  try {
    owner = await claimEmbeddedServer(server, path.resolve(dataDir), 'backup').catch((error: unknown) => {
      // NOTE: the site started meanwhile and adopted the server: back up beside it, and leave its server running.
      if (error instanceof DataDirInUseError) return undefined;
      throw error;
    });
    return { ...(await backUpToFile({ clusterDir, databaseUrl: server.databaseUrl, file })), startedServer: server.started };
  } finally {
    // NOTE: stopped while the lock is held (the stop ends its connection), so no site adopts it in between.
    if (server.started && owner) await server.stop();
    await owner?.end().catch(() => undefined);
  }
}
