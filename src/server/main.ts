import { buildApp } from './app';
import { loadConfig, type ServerConfig } from './platform/config';
import { openDatabase } from './db/client';
import { createLogger } from './platform/logger';
import { createGateway } from './payments/create-gateway';
import { pausingAfterRefunds } from './payments/refund-settle-pause';
import { closeOnSignals } from './platform/close-on-signals';

/**
 * Starts the server (issue #2: "One process serves the built site and /api on PORT"): reads the
 * configuration, opens the database (DATABASE_URL's, or the embedded PostgreSQL server of DATA_DIR, started or
 * adopted; a second API process on one DATA_DIR refuses to start, issue #25) and applies migrations, opens the payment gateway, builds the app, listens on
 * HOST:PORT (which starts the app's runners: the reconciler, issue #3; the mail relay and year-end statements,
 * issue #12; billing, issue #13) and prints `Donation site running at http://localhost:<port>`.
 * On SIGTERM or SIGINT shuts down gracefully (issue #14; closeOnSignals): the app stops accepting connections,
 * finishes the requests in flight and the runners' current items, then the gateway and the database close (the
 * embedded server stops last); exit 0,
 * or 1 with a logged error past SHUTDOWN_TIMEOUT_MS. Exits 1 on a bad configuration or a failed start, with the
 * reason on stderr.
 */
async function main(): Promise<void> {
  let config: ServerConfig;
  try {
    config = loadConfig();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }

  const logger = createLogger(config);
  const database = await openDatabase(config);
  logger.info(
    database.embedded
      ? { database: 'embedded', clusterDir: database.embedded.clusterDir, adopted: !database.embedded.started }
      : { database: 'DATABASE_URL' },
    'Database ready',
  );
  const { gateway: madeGateway, close: closeGateway } = await createGateway(config);
  const gateway = config.refundSettlePause ? pausingAfterRefunds(madeGateway, logger) : madeGateway;
  const app = await buildApp({ config, db: database.db, databaseReadiness: database.readiness, gateway, logger });
  const closeAll = async () => {
    await app.close();
    await closeGateway();
    await database.close();
  };
  closeOnSignals({ timeoutMs: config.shutdownTimeoutMs, logger, close: closeAll });

  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    logger.error({ err: error }, 'Could not start listening');
    await closeAll();
    process.exit(1);
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  console.log(`Donation site running at http://localhost:${port}`);
}

main().catch((error: unknown) => {
  console.error('Failed to start:', error instanceof Error ? error.message : error);
  process.exit(1);
});
