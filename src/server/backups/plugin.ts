import type { FastifyInstance } from 'fastify';
import { Registry } from 'prom-client';
import type { Clock } from '../platform/clock';
import type { ServerConfig } from '../platform/config';
import type { PeriodicRunner } from '../platform/periodic-runner';
import { createBackupSchedule, registerBackupGauge, startBackupRunner, type BackupRun } from './runner';

/** What registerBackups gives the app: the metrics registry of the scheduled backups (empty when there are none). */
export interface AppBackups {
  /** `donation_site_backup_last_success_age_seconds` when BACKUP_DIR is set on the embedded database; merged into /metrics. */
  registry: Registry;
}

/**
 * Registers the scheduled backups (issue #33, part 2; decision 0100): with BACKUP_DIR set and the embedded database,
 * the runner (runner.ts), started when the server listens and stopped when the app closes, and its metric. With
 * DATABASE_URL set, no backup is made: the server logs once, at start, to use the provider's backups or pg_dump.
 * The failure e-mail goes through `app.mail.transport` (registerMail must run before the server listens).
 */
export function registerBackups(app: FastifyInstance, { config, clock }: { config: ServerConfig; clock: Clock }): AppBackups {
  const registry = new Registry();
  const settings = config.backup;
  if (!settings) return { registry };
  if (config.databaseUrl) {
    app.addHook('onListen', async () => {
      app.log.warn(
        { event: 'backup.disabled' },
        "BACKUP_DIR is set, but DATABASE_URL is too: scheduled backups are made of the embedded database only. Use your PostgreSQL provider's backups or pg_dump.",
      );
    });
    return { registry };
  }
  const schedule = createBackupSchedule({
    settings,
    dataDir: config.dataDir,
    clock,
    log: app.log,
    staffEmails: config.digest?.staffEmails ?? [],
    from: config.mail.from,
    transport: () => app.mail.transport,
  });
  registerBackupGauge(registry, { schedule, clock });
  let running: PeriodicRunner<BackupRun | undefined> | undefined;
  app.addHook('onListen', async () => {
    running ??= startBackupRunner(schedule, app.log);
  });
  app.addHook('onClose', async () => {
    await running?.stop();
  });
  return { registry };
}
