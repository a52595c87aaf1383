import closeWithGrace from 'close-with-grace';
import type { Logger } from 'pino';

/**
 * Graceful shutdown of the server process (issue #14; fastify/demo's server.ts, DESIGN.md example 8), with
 * close-with-grace: on SIGTERM or SIGINT (and its other signals: SIGHUP, SIGQUIT, SIGUSR2...), or an uncaught
 * exception or unhandled rejection, `close` runs once, and the process exits 0 when it resolved (1 after an error),
 * or 1 with a logged error when it did not finish within `timeoutMs`. A second signal or error while closing exits 1
 * at once, but a SIGTERM or SIGINT within {@link SAME_SIGNAL_WINDOW_MS} of the first is the same signal (issue #33:
 * sent to `npm start`'s process group, it reaches the server directly and again relayed by npm). See
 * docs/decisions/0050-graceful-shutdown.md and 0099-one-built-server-process.md.
 */

/**
 * A SIGTERM or SIGINT this many ms after the first is the same one delivered twice, not an operator's second: npm
 * relays both to the script it runs, within milliseconds of the group's own delivery (issue #33). An operator's second
 * Ctrl-C or `kill`, a second or more later, still exits at once.
 */
export const SAME_SIGNAL_WINDOW_MS = 500;

/** The signals npm relays to its script: those this module handles itself, to tell a relayed one from a second one. */
const RELAYED_SIGNALS = ['SIGTERM', 'SIGINT'] as const satisfies readonly NodeJS.Signals[];

/** What {@link closeOnSignals} needs. */
export interface CloseOnSignalsOptions {
  /** SHUTDOWN_TIMEOUT_MS: how long `close` may take, in ms, before the process exits with code 1. */
  timeoutMs: number;
  /** The server's pino logger: every step of the shutdown is logged (`shutdown.*` events). */
  logger: Logger;
  /** Closes everything: the app (requests in flight and runners finish first), then the gateway and the database. */
  close: () => Promise<void>;
}

/**
 * Installs the handlers (once per process). Logs `shutdown.started` with the signal (or the uncaught error), then
 * `shutdown.finished` before exiting 0; `shutdown.timeout` (error) when `close` is still running after `timeoutMs`,
 * `shutdown.failed` (error) when it threw, `shutdown.repeated` (error) on a second signal or error; each of those
 * exits 1. A SIGTERM or SIGINT within SAME_SIGNAL_WINDOW_MS of the first logs `shutdown.same-signal` and changes
 * nothing.
 */
export function closeOnSignals({ timeoutMs, logger, close }: CloseOnSignalsOptions): void {
  const exitOnSecondSignal = (signal: NodeJS.Signals) => {
    logger.error({ event: 'shutdown.repeated', signal }, 'Second signal while shutting down; exiting with code 1');
    process.exit(1);
  };
  /** The SIGTERM or SIGINT that started the shutdown, and when (ms since the epoch); undefined before one came. */
  let firstSignal: { signal: NodeJS.Signals; atMs: number } | undefined;
  let closing = false;
  const grace = closeWithGrace(
    {
      delay: timeoutMs,
      // NOTE: SIGTERM and SIGINT are handled below; close-with-grace keeps its other signals, the errors and the timer.
      skip: [...RELAYED_SIGNALS],
      // NOTE: close-with-grace logs with this only when `close` throws (every other case has its callback below).
      logger: { error: (error: unknown) => logger.error({ event: 'shutdown.failed', err: error }, 'Graceful shutdown failed') },
      onTimeout: (delay) =>
        logger.error(
          { event: 'shutdown.timeout', timeoutMs: delay },
          `Graceful shutdown did not finish within SHUTDOWN_TIMEOUT_MS (${delay} ms); exiting with code 1`,
        ),
      onSecondSignal: exitOnSecondSignal,
      onSecondError: (error) => logger.error({ event: 'shutdown.repeated', err: error }, 'Second error while shutting down; exiting with code 1'),
    },
    async ({ signal, err }) => {
      closing = true;
      if (err) logger.error({ event: 'shutdown.started', err }, 'Uncaught error; shutting down');
      else logger.info({ event: 'shutdown.started', signal: signal ?? firstSignal?.signal }, 'Shutting down: finishing the requests in flight and the runners\' current items');
      await close();
      logger.info({ event: 'shutdown.finished' }, 'Shut down');
    },
  );
  const onRelayedSignal = (signal: NodeJS.Signals) => {
    if (!closing) {
      firstSignal = { signal, atMs: Date.now() };
      grace.close();
    } else if (firstSignal !== undefined && Date.now() - firstSignal.atMs < SAME_SIGNAL_WINDOW_MS) {
      logger.info({ event: 'shutdown.same-signal', signal, afterMs: Date.now() - firstSignal.atMs }, 'The same signal again (a process group\'s, relayed by npm); still shutting down');
    } else {
      exitOnSecondSignal(signal);
    }
  };
  for (const signal of RELAYED_SIGNALS) process.on(signal, onRelayedSignal);
}
