import { mkdtemp, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { Registry } from 'prom-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../db/client';
import { createMailTransport } from '../mail/transport';
import { manualClock } from '../platform/clock';
import { memoryLog } from '../testing/payment-attempts';
import { startSmtpTestServer, type SmtpTestServer } from '../testing/smtp-test-server';
import { createTestApp } from '../testing/test-app';
import { readArchive } from './archive';
import { createBackupSchedule, registerBackupGauge, startBackupRunner, type BackupSchedule } from './runner';

/**
 * Issue #33, part 2, scheduled backups: from BACKUP_HOUR in TZ one backup a day of the embedded database, however
 * many times the runner wakes (the injected clock), each a complete checked file, the newest BACKUP_KEEP kept; a
 * failed backup is logged, e-mailed to staff once (the real SMTP test server), and the metric of the last good
 * backup's age keeps growing.
 */

const STAFF = ['ops@reef.example.org', 'treasurer@reef.example.org'];
let dataDir: string;
let database: DatabaseHandle;
let smtp: SmtpTestServer;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'scheduled-backups-'));
  database = await openDatabase({ dataDir, databaseUrl: undefined });
  smtp = await startSmtpTestServer();
}, 60_000);
afterAll(async () => {
  await database?.close();
  await smtp?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** The metric's value (seconds) as Prometheus would scrape it. */
async function ageSeconds(registry: Registry): Promise<number> {
  const text = await registry.metrics();
  const value = /^donation_site_backup_last_success_age_seconds (\S+)$/m.exec(text)?.[1];
  return value === '+Inf' ? Number.POSITIVE_INFINITY : Number(value);
}


describe('scheduled backups', () => {
  it('one a day from BACKUP_HOUR in TZ however often the runner wakes, BACKUP_KEEP kept; a failure e-mails staff and the age keeps growing', { timeout: 180_000 }, async () => {
    const backupDir = path.join(dataDir, 'backups');
    const settings = { dir: backupDir, hour: 2, keep: 2, timeZone: 'America/Belize' };
    // 01:30 in Belize (UTC-6) on March 1st: before the hour.
    const clock = manualClock(new Date('2026-03-01T07:30:00Z'));
    const log = memoryLog();
    const schedule = createBackupSchedule({
      settings,
      dataDir,
      clock,
      log: log.logger as unknown as FastifyBaseLogger,
      staffEmails: STAFF,
      from: 'Reef Donations <receipts@reef.example.org>',
      transport: () => createMailTransport({ smtpUrl: smtp.url, dir: dataDir }),
    });
    const registry = new Registry();
    registerBackupGauge(registry, { schedule, clock });
    expect(await ageSeconds(registry)).toBe(Number.POSITIVE_INFINITY);
    expect(await schedule.check()).toBeUndefined();

    // The runner wakes every few milliseconds through the day: one backup, that day's.
    let wakes = 0;
    const counted: BackupSchedule = { ...schedule, check: () => ((wakes += 1), schedule.check()) };
    clock.set(new Date('2026-03-01T08:30:00Z'));
    const runner = startBackupRunner(counted, log.logger as unknown as FastifyBaseLogger, 5);
    try {
      await vi.waitFor(() => expect(log.events('backup.written')).toHaveLength(1), { timeout: 60_000, interval: 20 });
      const afterBackup = wakes;
      await vi.waitFor(() => expect(wakes).toBeGreaterThanOrEqual(afterBackup + 20), { timeout: 30_000, interval: 20 });
      clock.set(new Date('2026-03-02T05:59:00Z')); // 23:59 in Belize, still March 1st
      await vi.waitFor(() => expect(wakes).toBeGreaterThanOrEqual(afterBackup + 40), { timeout: 30_000, interval: 20 });
    } finally {
      await runner.stop();
    }
    expect(log.events('backup.written')).toHaveLength(1);
    expect(await readdir(backupDir)).toEqual(['reef-backup-2026-03-01.tgz']);
    expect(Object.keys((await readArchive(path.join(backupDir, 'reef-backup-2026-03-01.tgz'))).files)).toContain('postgres/backup_label');
    expect(await ageSeconds(registry)).toBe((21 * 60 + 29) * 60);

    // Two more days: BACKUP_KEEP=2 keeps the newest two.
    for (const day of ['2026-03-02', '2026-03-03']) {
      clock.set(new Date(`${day}T09:00:00Z`));
      expect(await schedule.check()).toMatchObject({ date: day, outcome: 'written' });
      expect(await schedule.check()).toBeUndefined();
    }
    expect(await readdir(backupDir)).toEqual(['reef-backup-2026-03-02.tgz', 'reef-backup-2026-03-03.tgz']);
    expect(await ageSeconds(registry)).toBe(0);

    // The disk of BACKUP_DIR is gone (a file where the folder was): the backup fails, staff get one e-mail.
    await rename(backupDir, `${backupDir}-away`);
    await writeFile(backupDir, 'not a folder');
    clock.set(new Date('2026-03-04T09:00:00Z'));
    expect(await schedule.check()).toMatchObject({ date: '2026-03-04', outcome: 'failed' });
    expect(log.events('backup.failed')).toHaveLength(1);
    await vi.waitFor(() => expect(smtp.received).toHaveLength(1), { timeout: 10_000, interval: 20 });
    const [mail] = smtp.received;
    expect(mail?.subject).toBe('Backup failed: donation database, 2026-03-04');
    expect(mail?.to && !Array.isArray(mail.to) ? mail.to.value.map((to) => to.address) : []).toEqual(STAFF);
    expect(mail?.text).toContain('No new backup was written');
    const ageAtFailure = await ageSeconds(registry);
    expect(ageAtFailure).toBe(24 * 3600);

    // Within the hour no new try; after it, a new try fails again, with no second e-mail that day; the age grows.
    clock.advance(30 * 60 * 1000);
    expect(await schedule.check()).toBeUndefined();
    clock.advance(31 * 60 * 1000);
    expect(await schedule.check()).toMatchObject({ outcome: 'failed' });
    expect(log.events('backup.failed')).toHaveLength(2);
    expect(await ageSeconds(registry)).toBe(ageAtFailure + 61 * 60);
    expect(smtp.received).toHaveLength(1);
  });

  it('run in the listening app on the embedded database, with their metric at /metrics; with DATABASE_URL none is made and the server says so', { timeout: 120_000 }, async () => {
    const ADMIN_TOKEN = 'scheduled-backups-admin-token-0123456789';
    const backupDir = path.join(dataDir, 'app-backups');
    const clock = manualClock(new Date('2026-05-10T03:00:00Z'));
    const t = await createTestApp({ clock, env: { DATA_DIR: dataDir, BACKUP_DIR: backupDir, ADMIN_TOKEN } });
    try {
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      await vi.waitFor(() => stat(path.join(backupDir, 'reef-backup-2026-05-10.tgz')), { timeout: 60_000, interval: 20 });
      const scrape = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
      expect(scrape.body).toMatch(/^donation_site_backup_last_success_age_seconds 0$/m);
    } finally {
      await t.close();
    }

    const log = memoryLog();
    const external = await createTestApp({ logger: log.logger, env: { DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test', BACKUP_DIR: backupDir, ADMIN_TOKEN } });
    try {
      await external.app.listen({ host: '127.0.0.1', port: 0 });
      expect(log.events('backup.disabled')).toHaveLength(1);
      const scrape = await external.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
      expect(scrape.body).not.toContain('donation_site_backup_last_success_age_seconds');
    } finally {
      await external.close();
    }
  });
});
