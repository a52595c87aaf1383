import { rmSync } from 'node:fs';
import { cp, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDatabase } from '../db/client';

/**
 * An embedded database on disk that `openDatabase` created and migrated, made once per test process and removed
 * when it exits. NOTE: a new on-disk PGlite spends about 6 s in initdb on this machine, an existing one opens in
 * under 1 s; every server process a test starts on a fresh DATA_DIR paid the 6 s (docs/decisions/0064-ci-time-budget.md).
 */
let template: Promise<string> | undefined;

async function createTemplate(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'migrated-data-dir-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const database = await openDatabase({ dataDir: dir, databaseUrl: undefined });
  await database.close();
  return dir;
}

/**
 * Copies a migrated, empty embedded database into `dataDir` (an empty folder a server process will use as DATA_DIR),
 * so the server opens it instead of creating one. Its migrations are still checked by the server at start-up.
 * Rejects when the template cannot be created or copied.
 */
export async function seedMigratedDataDir(dataDir: string): Promise<void> {
  template ??= createTemplate();
  await cp(await template, dataDir, { recursive: true });
}
