import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client';
import type { Clock } from '../platform/clock';
import { enqueueMail } from '../mail/outbox';
import { listStatementRecipients } from './repository';
import { startPeriodicRunner } from '../platform/periodic-runner';

/**
 * Year-end statements (issue #12; decision 0044): one e-mail per donor (address, case-insensitive) per calendar
 * year, listing each date and amount of that year (refunded gifts left out: void receipts), queued by a runner
 * in the server process in January for the year before, and by an operator (POST /api/admin/statements/run).
 * The outbox's unique `dedupe_key` (`year_end_statement:<year>:<address>`) makes queueing idempotent per
 * (donor, year): two processes, a restart, or an operator's run after the runner's, never send a second one.
 */

/** How often the runner looks at the clock, in ms: hourly, so a server running over New Year starts on 1 January. */
export const STATEMENT_CHECK_INTERVAL_MS = 60 * 60 * 1000;

/** The outbox dedupe key of `address`'s statement for `year`: `year_end_statement:<year>:<address, lower case>`. */
export function statementDedupeKey(year: number, address: string): string {
  return `year_end_statement:${year}:${address.toLowerCase()}`;
}

/**
 * Queues the statement of `year` for every address with a receipt of that year that is not void (see
 * listStatementRecipients; years in UTC, as receipt numbers). Resolves with the number of statements queued by
 * this call: 0 for the donors whose statement of that year was queued before (sent or not).
 */
export async function queueYearEndStatements(db: Database, year: number): Promise<number> {
  let queued = 0;
  for (const address of await listStatementRecipients(db, year)) {
    const id = await enqueueMail(db, { kind: 'year_end_statement', dedupeKey: statementDedupeKey(year, address), recipient: address, statementYear: year });
    if (id !== undefined) queued += 1;
  }
  return queued;
}

/** The year whose statements are due at `now`: the year before during January (UTC), else undefined. */
export function statementYearDue(now: Date): number | undefined {
  return now.getUTCMonth() === 0 ? now.getUTCFullYear() - 1 : undefined;
}

/** The last calendar year (UTC) that is over at `now`: the latest year an operator may ask statements for. */
export function lastCompletedYear(now: Date): number {
  return now.getUTCFullYear() - 1;
}

/** What the January runner works with: the database, the injected clock (DESIGN.md, "Time") and a logger. */
export interface StatementRunnerDeps {
  db: Database;
  clock: Clock;
  log: FastifyBaseLogger;
}

/** A running January runner. */
export interface YearEndStatementRunner {
  /** Runs one check now (after the current one); resolves with what it queued, or undefined outside January. */
  runNow(): Promise<{ year: number; queued: number } | undefined>;
  /** Stops the runner; resolves once its current check is over. */
  stop(): Promise<void>;
}

/**
 * Starts the runner: a check now, then one every `intervalMs`. A check in January (by `deps.clock`) queues the
 * statements of the year before, once per year per process (idempotent anyway; see queueYearEndStatements), and
 * logs `statements.queued` with the year and the count (never an address). A failed check is logged and tried
 * again at the next interval.
 */
export function startYearEndStatementRunner(deps: StatementRunnerDeps, intervalMs = STATEMENT_CHECK_INTERVAL_MS): YearEndStatementRunner {
  let doneYear: number | undefined;
  return startPeriodicRunner({
    intervalMs,
    run: async () => {
      const year = statementYearDue(deps.clock.now());
      if (year === undefined || year === doneYear) return undefined;
      const queued = await queueYearEndStatements(deps.db, year);
      doneYear = year;
      deps.log.info({ event: 'statements.queued', year, queued, by: 'january-runner' }, 'Year-end statements queued');
      return { year, queued };
    },
    onError: (error) => deps.log.error({ err: error }, 'Year-end statement check failed; retrying at the next interval'),
  });
}
