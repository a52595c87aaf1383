import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { Gauge, type Registry } from 'prom-client';
import { zonedTime } from '../digest/time-zone';
import { senderDomain } from '../mail/relay';
import type { MailTransport } from '../mail/transport';
import type { Clock } from '../platform/clock';
import type { BackupSettings } from '../platform/config';
import { startPeriodicRunner, type PeriodicRunner } from '../platform/periodic-runner';
import type { IsoDate } from '../recurring/calendar';
import { backUpEmbeddedDatabase } from './embedded-backup';

/**
 * The scheduled backups (issue #33, part 2; decision 0100): from BACKUP_HOUR in TZ, one backup a day of the embedded
 * database into BACKUP_DIR as `reef-backup-<day>.tgz`, written under a temporary name, read back and checked, then
 * renamed (base-backup.ts); the newest BACKUP_KEEP are kept. The day's file is the record that the day is done, so a
 * runner that wakes every minute, or a server restarted that day, makes one backup a day. A failure is logged
 * (`backup.failed`), e-mailed to STAFF_EMAILS once that day, and tried again an hour later; the metric
 * `donation_site_backup_last_success_age_seconds` keeps growing until a backup succeeds.
 */

/** How often the runner looks at the clock, in ms: the backup starts at most a minute after BACKUP_HOUR. */
export const BACKUP_CHECK_INTERVAL_MS = 60 * 1000;
/** How long after a failed backup the next try is made, in ms. */
export const BACKUP_RETRY_AFTER_MS = 60 * 60 * 1000;
/** The name of a day's scheduled backup: `reef-backup-<YYYY-MM-DD>.tgz` (sorts by day). */
const BACKUP_FILE = /^reef-backup-(\d{4}-\d{2}-\d{2})\.tgz$/;
/** What a backup that died with its process (SIGKILL, power cut) left: base-backup.ts's temporary name. */
const PARTIAL_FILE = /^\.reef-backup-.*\.partial-[0-9a-f]+$/;

/** The file name of the scheduled backup of `date`. */
export function backupFileName(date: IsoDate): string {
  return `reef-backup-${date}.tgz`;
}

/**
 * The day (in `timeZone`) whose backup is due at `now`: today there once the hour is `hour` or later, else undefined.
 * Throws a RangeError for an unknown zone.
 */
export function backupDateDue(now: Date, { hour, timeZone }: Pick<BackupSettings, 'hour' | 'timeZone'>): IsoDate | undefined {
  const local = zonedTime(now, timeZone);
  return local.hour >= hour ? local.date : undefined;
}

/** The scheduled backups in `dir`, newest day first (none when the folder does not exist). */
async function backupsIn(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  return names.filter((name) => BACKUP_FILE.test(name)).sort().reverse();
}

/** Deletes the backups of `dir` beyond the newest `keep`, and temporary files left by a killed backup; resolves with the names deleted. */
async function pruneBackups(dir: string, keep: number): Promise<string[]> {
  const stale = [...(await backupsIn(dir)).slice(keep), ...(await readdir(dir)).filter((name) => PARTIAL_FILE.test(name))];
  for (const name of stale) await rm(path.join(dir, name), { force: true });
  return stale;
}

/** What the runner works with. */
export interface BackupRunnerDeps {
  settings: BackupSettings;
  /** DATA_DIR, whose embedded database is backed up. */
  dataDir: string;
  clock: Clock;
  log: FastifyBaseLogger;
  /** STAFF_EMAILS: who is told of a failed backup (none: it is only logged). */
  staffEmails: readonly string[];
  /** MAIL_FROM. */
  from: string;
  /** Where the failure e-mail goes (the app's: SMTP or `.eml` files); read when a failure is reported. */
  transport: () => MailTransport;
}

/** What one check did: nothing due (undefined), or the day's backup written or failed. */
export type BackupRun = { date: IsoDate; outcome: 'written'; file: string; bytes: number; pruned: string[] } | { date: IsoDate; outcome: 'failed'; error: string };

/** The scheduled backups' check and what the metric reads. */
export interface BackupSchedule {
  /** One check at the clock's now (see the module comment); never rejects (a failure is its outcome). */
  check(): Promise<BackupRun | undefined>;
  /** When the last good backup was made: this process's last success, else the newest file's time; undefined when none. */
  lastSuccessAt(): Promise<Date | undefined>;
}

/**
 * E-mails each of `deps.staffEmails` that the backup of `date` failed, with the reason, directly through the
 * transport: a backup can fail because the database does, so the message does not wait in the database's outbox
 * (decision 0100). A message that cannot be sent is logged.
 */
async function reportFailure(deps: BackupRunnerDeps, date: IsoDate, reason: string): Promise<void> {
  if (deps.staffEmails.length === 0) return;
  const now = deps.clock.now();
  const id = `${date}-${randomBytes(6).toString('hex')}`;
  const text =
    `The scheduled backup of the donation database for ${date} failed at ${now.toISOString()}:\n\n${reason}\n\n` +
    `No new backup was written to ${deps.settings.dir}; the newest good one is still there. The server tries again in an hour. ` +
    'Check the disk of that folder and the server log (backup.failed), or make one by hand: npm run db:backup -- <file>.\n';
  try {
    await deps.transport().send({
      from: deps.from,
      to: [...deps.staffEmails],
      subject: `Backup failed: donation database, ${date}`,
      text,
      messageId: `<backup-failed-${id}@${senderDomain(deps.from)}>`,
      date: now,
      fileStem: `${now.toISOString().slice(0, 19).replaceAll(':', '-')}Z-backup_failed-${id}`,
    });
  } catch (error) {
    deps.log.error({ event: 'backup.failure_mail_failed', err: error }, 'Could not e-mail staff that the backup failed');
  }
}

/** Creates the scheduled backups' check (see {@link BackupSchedule}). */
export function createBackupSchedule(deps: BackupRunnerDeps): BackupSchedule {
  let lastSuccess: Date | undefined;
  let lastFailure: Date | undefined;
  let reportedDate: IsoDate | undefined;
  const { dir, keep } = deps.settings;
  return {
    async lastSuccessAt() {
      if (lastSuccess) return lastSuccess;
      const [newest] = await backupsIn(dir);
      return newest ? (await stat(path.join(dir, newest))).mtime : undefined;
    },
    async check() {
      const now = deps.clock.now();
      const date = backupDateDue(now, deps.settings);
      if (date === undefined) return undefined;
      const file = path.join(dir, backupFileName(date));
      const done = await stat(file).then(
        () => true,
        () => false,
      );
      if (done || (lastFailure && now.getTime() - lastFailure.getTime() < BACKUP_RETRY_AFTER_MS)) return undefined;
      try {
        await mkdir(dir, { recursive: true });
        const result = await backUpEmbeddedDatabase({ dataDir: deps.dataDir, file });
        const pruned = await pruneBackups(dir, keep);
        lastSuccess = deps.clock.now();
        lastFailure = undefined;
        deps.log.info({ event: 'backup.written', date, file, bytes: result.bytes, files: Object.keys(result.manifest.files).length, pruned }, 'Scheduled backup written and checked');
        return { date, outcome: 'written', file, bytes: result.bytes, pruned };
      } catch (error) {
        lastFailure = now;
        const reason = error instanceof Error ? error.message : String(error);
        deps.log.error({ event: 'backup.failed', date, err: error }, 'Scheduled backup failed; trying again in an hour');
        if (reportedDate !== date) {
          reportedDate = date;
          await reportFailure(deps, date, reason);
        }
        return { date, outcome: 'failed', error: reason };
      }
    },
  };
}

/**
 * Registers `donation_site_backup_last_success_age_seconds` on `registry`: seconds since the last good backup
 * (`schedule.lastSuccessAt`) at the clock's now, `+Inf` while there is none. Alert on it above a day and some.
 */
export function registerBackupGauge(registry: Registry, { schedule, clock }: { schedule: BackupSchedule; clock: Clock }): void {
  new Gauge({
    name: 'donation_site_backup_last_success_age_seconds',
    help: 'Seconds since the last good scheduled backup of the embedded database was written and checked; +Inf when there is none.',
    registers: [registry],
    async collect() {
      const last = await schedule.lastSuccessAt();
      this.set(last ? Math.max(0, (clock.now().getTime() - last.getTime()) / 1000) : Number.POSITIVE_INFINITY);
    },
  });
}

/** Starts the runner: a check now (a server started after BACKUP_HOUR backs up at once), then one every `intervalMs`. */
export function startBackupRunner(schedule: BackupSchedule, log: FastifyBaseLogger, intervalMs = BACKUP_CHECK_INTERVAL_MS): PeriodicRunner<BackupRun | undefined> {
  return startPeriodicRunner({
    intervalMs,
    run: () => schedule.check(),
    onError: (error) => log.error({ event: 'backup.failed', err: error }, 'Scheduled backup check failed; retrying at the next interval'),
  });
}
