import { setPriority } from 'node:os';
import { pathToFileURL } from 'node:url';
import { backUpEmbeddedDatabase, DATABASE_URL_BACKUP_ADVICE } from '../src/server/backups/embedded-backup';
import { loadConfig } from '../src/server/platform/config';

/**
 * `npm run db:backup -- <file>` (issue #33, part 2; decision 0100): a consistent backup of the embedded database of
 * DATA_DIR (the same setting as `npm start`) into `<file>`, while the site serves donations or with it stopped, with
 * nothing but what npm installed. Prints the file, its size and the backup's moment; exits 1 with the reason
 * otherwise (no file argument, a bad configuration, DATABASE_URL set: see DATABASE_URL_BACKUP_ADVICE, a failure).
 * Restore with `npm run db:restore -- <file> <new DATA_DIR>`.
 */
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const file = process.argv[2];
  // NOTE: the backup's reading, compression and checksums yield the CPU to the site it runs beside (nice 10).
  setPriority(process.pid, 10);
  try {
    if (!file) throw new Error('Usage: npm run db:backup -- <file>   (backs up the embedded database of DATA_DIR, default ./data)');
    const config = loadConfig();
    if (config.databaseUrl) throw new Error(DATABASE_URL_BACKUP_ADVICE);
    const result = await backUpEmbeddedDatabase({ dataDir: config.dataDir, file });
    console.log(
      `Backed up ${config.dataDir} to ${result.file} (${result.bytes} bytes, ${Object.keys(result.manifest.files).length} files, ` +
        `as of ${result.manifest.createdAt}${result.startedServer ? '; the database server was started for it and stopped again' : ''}). ` +
        `Restore with: npm run db:restore -- ${result.file} <empty folder>`,
    );
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
