import { pathToFileURL } from 'node:url';
import { restoreBackup } from '../src/server/backups/restore';

/**
 * `npm run db:restore -- <file> <DATA_DIR>` (issue #33, part 2; decision 0100): restores a backup of `npm run
 * db:backup` into `<DATA_DIR>`, an empty or new folder (a folder with anything in it is refused). The file is checked
 * whole first; a truncated or corrupt one is refused with the reason and nothing is written. Prints what the restored
 * database holds and how to start the site on it; exits 1 with the reason otherwise.
 */
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [file, dataDir] = process.argv.slice(2);
  try {
    if (!file || !dataDir) throw new Error('Usage: npm run db:restore -- <backup file> <empty or new DATA_DIR>');
    const report = await restoreBackup({ file, dataDir });
    console.log(
      `Restored the backup of ${report.backupCreatedAt} into ${report.dataDir}: ${report.donations} donations, ${report.migrations} migrations. ` +
        `Start the site on it with: DATA_DIR=${report.dataDir} npm start`,
    );
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
