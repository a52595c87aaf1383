import closeWithGrace from 'close-with-grace';
import type { Logger } from 'pino';

/**
 * Graceful shutdown of the server process (issue #14; fastify/demo's server.ts, DESIGN.md example 8), with
 * close-with-grace: on SIGTERM or SIGINT (and its other signals: SIGHUP, SIGQUIT, SIGUSR2...), or an uncaught
 * exception or unhandled rejection, `close` runs once, and the process exits 0 when it resolved (1 after an error),
 * or 1 with a logged error when it did not finish within `timeoutMs`. A second signal or error while closing exits 1
 * at once. See docs/decisions/0050-graceful-shutdown.md.
 */

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
 * exits 1.
 */
export function closeOnSignals({ timeoutMs, logger, close }: CloseOnSignalsOptions): void {
  closeWithGrace(
    {
      delay: timeoutMs,
      // NOTE: close-with-grace logs with this only when `close` throws (every other case has its callback below).
      logger: { error: (error: unknown) => logger.error({ event: 'shutdown.failed', err: error }, 'Graceful shutdown failed') },
      onTimeout: (delay) =>
        logger.error(
          { event: 'shutdown.timeout', timeoutMs: delay },
          `Graceful shutdown did not finish within SHUTDOWN_TIMEOUT_MS (${delay} ms); exiting with code 1`,
        ),
      onSecondSignal: (signal) => logger.error({ event: 'shutdown.repeated', signal }, 'Second signal while shutting down; exiting with code 1'),
      onSecondError: (error) => logger.error({ event: 'shutdown.repeated', err: error }, 'Second error while shutting down; exiting with code 1'),
    },
    async ({ signal, err }) => {
      if (err) logger.error({ event: 'shutdown.started', err }, 'Uncaught error; shutting down');
      else logger.info({ event: 'shutdown.started', signal }, 'Shutting down: finishing the requests in flight and the runners\' current items');
      await close();
      logger.info({ event: 'shutdown.finished' }, 'Shut down');
    },
  );
}
