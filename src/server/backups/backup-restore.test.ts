import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { copyFile, mkdir, readdir, readFile, stat, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { CLUSTER_DIR_NAME, embeddedDatabaseUrl, stopEmbeddedPostgres } from '../db/embedded-postgres';
import { runAdminCommand } from '../testing/admin-command';
import { postDonation, type SentDonation } from '../testing/donation-burst';
import { csrfHeaders, type ServerProcess } from '../testing/server-process';
import { useServerWorkspace } from '../testing/server-workspace';
import { validSubmission } from '../testing/test-app';
import { BackupFileError } from './archive';
import { restoreBackup } from './restore';

// NOTE: the backup files and the restored folders are made inside the workspace's DATA_DIR (beside its postgres/), so
// the workspace removes them after the file.

/**
 * Issue #33, part 2: `npm run db:backup` backs up the embedded database while the site takes donations (none refused;
 * the p99 latency during the backup is printed), `npm run db:restore` puts it into a new folder holding every gift
 * answered 200 before the backup began with its receipt, the plans, staff and audit rows and the same migrations; the
 * site starts on it and takes a new gift. A truncated or corrupt file is refused and writes nothing. With the site
 * stopped the command starts the server for the backup and stops it again; with DATABASE_URL it refuses and says why.
 */

const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const ADMIN_TOKEN = 'backup-test-admin-token-0123456789abcdef';
const workspace = useServerWorkspace('backup-restore', { embedded: true });

/** Runs `npm run db:<command>` (its script under tsx) with only PATH and `env`; resolves with its exit code and output. */
function dbCommand(command: 'backup' | 'restore', args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      path.join(REPO_ROOT, 'node_modules/.bin/tsx'),
      [path.join(REPO_ROOT, `scripts/db-${command}.ts`), ...args],
      { cwd: REPO_ROOT, env: { PATH: process.env.PATH ?? '', ...env } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** Donates with a key of its own; resolves with what came back and how long it took, in ms. */
async function donate(server: ServerProcess, headers: Record<string, string>, frequency: 'one-time' | 'monthly' = 'one-time'): Promise<SentDonation & { ms: number }> {
  const donation: SentDonation = { key: randomUUID(), body: validSubmission({ amount: 25, frequency }), transactionIds: new Set() };
  const started = performance.now();
  await postDonation(server, headers, donation);
  return { ...donation, ms: performance.now() - started };
}

/** Rows of `sql` on `url`'s database, as one sorted list of their first column. */
async function column(url: string, sql: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ value: string }>(sql);
    return rows.map((row) => String(row.value)).sort();
  } finally {
    await client.end();
  }
}

/** What must survive a backup, read from the database at `url`. */
async function records(url: string): Promise<Record<string, string[]>> {
  return {
    succeeded: await column(url, `SELECT gateway_transaction_id AS value FROM donations WHERE status = 'succeeded'`),
    receipts: await column(url, 'SELECT number AS value FROM receipts'),
    plans: await column(url, 'SELECT id AS value FROM recurring_plans'),
    staff: await column(url, 'SELECT email AS value FROM staff_members'),
    audit: await column(url, 'SELECT id AS value FROM admin_audit_log'),
    migrations: await column(url, 'SELECT hash AS value FROM drizzle.__drizzle_migrations'),
  };
}

/** The 99th percentile of `values`. */
function p99(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)] ?? 0;
}

describe('npm run db:backup and db:restore on the embedded database', () => {
  it('backs up while donations flow, restores into a new folder the site starts on; refuses damaged files; works with the site stopped', { timeout: 240_000 }, async () => {
    const source = await workspace.start({ ADMIN_TOKEN });
    const headers = await csrfHeaders(source.baseUrl);
    const before = [await donate(source, headers), await donate(source, headers), await donate(source, headers, 'monthly')];
    expect(before.map((answer) => answer.status)).toEqual([200, 200, 200]);
    const invited = await runAdminCommand(['staff', 'invite', 'marisol@reef.example.org', '--role', 'admin'], { ADMIN_TOKEN, ADMIN_URL: source.baseUrl });
    expect(invited.code).toBe(0);
    const sourceUrl = workspace.databaseUrl;
    const kept = await records(sourceUrl);
    expect(kept.plans).toHaveLength(1);
    expect(kept.receipts).toHaveLength(3);

    // Donors keep giving while the backup runs (and, for comparison, as long before it).
    const baseline: Array<SentDonation & { ms: number }> = [];
    const baselineDonor = async () => {
      for (let i = 0; i < 15; i += 1) baseline.push(await donate(source, headers));
    };
    await Promise.all([baselineDonor(), baselineDonor()]);
    const file = path.join(workspace.dataDir, 'backup.tgz');
    let backingUp = true;
    const during: Array<SentDonation & { ms: number }> = [];
    const donor = async () => {
      while (backingUp) during.push(await donate(source, headers));
    };
    const donors = [donor(), donor()];
    const backup = await dbCommand('backup', [file], { DATA_DIR: workspace.dataDir });
    backingUp = false;
    await Promise.all(donors);
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stdout).toContain(`Backed up ${workspace.dataDir} to ${file}`);
    expect(during.length, 'donations were made during the backup').toBeGreaterThan(0);
    expect(during.filter((answer) => answer.status !== 200)).toEqual([]);
    const ms = (answers: typeof during) => `p99 ${p99(answers.map((answer) => answer.ms)).toFixed(0)} ms`;
    console.log(`${during.length} donations during the backup: ${ms(during)}; ${baseline.length} just before it: ${ms(baseline)}`);

    // A new folder: every record of before the backup is there, and the site takes a new gift on it.
    const restoredDir = path.join(workspace.dataDir, 'restored');
    const restored = await dbCommand('restore', [file, restoredDir], {});
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout).toContain(`DATA_DIR=${restoredDir} npm start`);
    const site = await workspace.start({ DATA_DIR: restoredDir });
    try {
      const found = await records(embeddedDatabaseUrl(restoredDir));
      for (const [name, values] of Object.entries(kept)) expect(found[name], name).toEqual(expect.arrayContaining(values));
      expect(found.succeeded).toEqual(expect.arrayContaining(before.flatMap((answer) => [...answer.transactionIds])));
      expect(found.migrations).toEqual(kept.migrations);
      expect((await donate(site, await csrfHeaders(site.baseUrl))).status).toBe(200);
    } finally {
      expect(await site.stop()).toBe(0);
      await stopEmbeddedPostgres(restoredDir);
    }

    // A truncated or corrupt file is refused before anything is written: the target stays absent, or empty.
    const truncated = `${file}.truncated`;
    await copyFile(file, truncated);
    await truncate(truncated, Math.floor((await stat(file)).size / 2));
    const corrupt = `${file}.corrupt`;
    const bytes = await readFile(file);
    bytes.fill(0x55, Math.floor(bytes.length / 3), Math.floor(bytes.length / 3) + 64);
    await writeFile(corrupt, bytes);
    const absent = path.join(workspace.dataDir, 'absent');
    const empty = path.join(workspace.dataDir, 'empty');
    await mkdir(empty);
    for (const [damaged, target] of [[truncated, absent], [corrupt, empty]] as const) {
      await expect(restoreBackup({ file: damaged, dataDir: target })).rejects.toThrow(BackupFileError);
    }
    await expect(stat(absent)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await readdir(empty)).toEqual([]);
    const refused = await dbCommand('restore', [truncated, absent], {});
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${truncated} is not a complete backup`);
    expect(refused.stderr).toContain('nothing was restored');
    expect((await dbCommand('restore', [file, restoredDir], {})).stderr).toContain('is not empty');

    // With the site stopped, the command starts the server for the backup and stops it after.
    expect(await source.stop()).toBe(0);
    const offline = await dbCommand('backup', [`${file}.offline`], { DATA_DIR: workspace.dataDir });
    expect(offline.code, offline.stderr).toBe(0);
    expect(offline.stdout).toContain('the database server was started for it and stopped again');
    await expect(stat(path.join(workspace.dataDir, CLUSTER_DIR_NAME, 'postmaster.pid'))).rejects.toMatchObject({ code: 'ENOENT' });

    // DATABASE_URL: the provider's backups or pg_dump, not this command.
    const external = await dbCommand('backup', [`${file}.external`], { DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test' });
    expect(external.code).toBe(1);
    expect(external.stderr).toContain("Use your PostgreSQL provider's backups");
    await expect(stat(`${file}.external`)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
