import type { FastifyBaseLogger } from 'fastify';
import type { DigestSettings } from '../platform/config';
import type { Database } from '../db/client';
import type { Clock } from '../platform/clock';
import { enqueueMail } from '../mail/outbox';
import { startPeriodicRunner } from '../platform/periodic-runner';
import type { IsoDate } from '../recurring/calendar';
import { previousDate, zonedTime } from './time-zone';

/**
 * When the staff's daily digest is queued (issue #14; decision 0062): from DIGEST_HOUR in TZ, the digest of the day
 * before (in TZ) is queued through the transactional outbox, one message per STAFF_EMAILS address, by a runner in
 * each server process on the injected clock (DESIGN.md, "Time"). The outbox's unique dedupe key
 * (`staff_digest:<date>:<address>`) makes it once per day and address whoever queues it: two processes, a restart,
 * or a server that comes back after the hour (it queues it at its first check, the same day).
 */

/** How often the runner looks at the clock, in ms: the digest leaves at most a minute after DIGEST_HOUR. */
export const DIGEST_CHECK_INTERVAL_MS = 60 * 1000;

/** The outbox dedupe key of `address`'s digest of `date`: `staff_digest:<date>:<address, lower case>`. */
export function staffDigestDedupeKey(date: IsoDate, address: string): string {
  return `staff_digest:${date}:${address.toLowerCase()}`;
}

/**
 * The day whose digest is due at `now`: the day before today in `timeZone` once the hour there is `hour` or later (an
 * hour a daylight-saving change skips counts as reached when the clocks jump past it), else undefined. Throws a
 * RangeError for an unknown zone.
 */
export function digestDateDue(now: Date, { hour, timeZone }: Pick<DigestSettings, 'hour' | 'timeZone'>): IsoDate | undefined {
  const local = zonedTime(now, timeZone);
  return local.hour >= hour ? previousDate(local.date) : undefined;
}

/**
 * Queues the digest of `date` for each of `staffEmails` (idempotent: see staffDigestDedupeKey). Resolves with how many
 * this call queued: 0 for the addresses whose digest of that day was queued before, sent or not.
 */
export async function queueStaffDigests(db: Database, date: IsoDate, staffEmails: readonly string[]): Promise<number> {
  let queued = 0;
  for (const address of staffEmails) {
    const id = await enqueueMail(db, { kind: 'staff_digest', dedupeKey: staffDigestDedupeKey(date, address), recipient: address, digestDate: date });
    if (id !== undefined) queued += 1;
  }
  return queued;
}

/** What a digest check works with: the database, the clock, a logger, and the settings (undefined: no digest). */
export interface DigestCheckDeps {
  db: Database;
  clock: Clock;
  log: FastifyBaseLogger;
  settings: DigestSettings | undefined;
}

/** What one check queued: the day, and how many messages this check wrote (0 when queued before). */
export interface DigestRun {
  date: IsoDate;
  queued: number;
}

/**
 * One check at the clock's now (see digestDateDue and queueStaffDigests): resolves with the day it queued and the count,
 * or undefined when no digest is due (before the hour; STAFF_EMAILS unset) or this check function queued that day
 * already. Logs `digest.queued` with the day and the count (never an address). Rejects when the database fails.
 */
export function createDigestCheck(deps: DigestCheckDeps): () => Promise<DigestRun | undefined> {
  let doneDate: IsoDate | undefined;
  return async () => {
    if (!deps.settings) return undefined;
    const date = digestDateDue(deps.clock.now(), deps.settings);
    if (date === undefined || date === doneDate) return undefined;
    const queued = await queueStaffDigests(deps.db, date, deps.settings.staffEmails);
    doneDate = date;
    deps.log.info({ event: 'digest.queued', date, queued }, 'Staff digest queued');
    return { date, queued };
  };
}

/** A running digest runner. */
export interface DigestRunner {
  /** Runs one check now (after the current one); resolves with what it queued, or undefined (see createDigestCheck). */
  runNow(): Promise<DigestRun | undefined>;
  /** Stops the runner; resolves once its current check is over. */
  stop(): Promise<void>;
}

/**
 * Starts the digest runner: a check now (so a server started after DIGEST_HOUR queues the day's digest at once), then
 * one every `intervalMs`, on the shared loop (periodic-runner.ts). A failed check is logged and tried again at the
 * next interval.
 */
export function startDigestRunner(deps: DigestCheckDeps, intervalMs = DIGEST_CHECK_INTERVAL_MS): DigestRunner {
  return startPeriodicRunner({
    intervalMs,
    run: createDigestCheck(deps),
    onError: (error) => deps.log.error({ err: error }, 'Staff digest check failed; retrying at the next interval'),
  });
}
