import { buildApp } from './app';
import { loadConfig, type ServerConfig } from './config';
import { openDatabase } from './db/client';
import { startReconciler } from './donations/reconciler';
import { createLogger } from './logger';
import { createGateway } from './payments/create-gateway';

/**
 * Starts the server (issue #2: "One process serves the built site and /api on PORT"): reads the
 * configuration, opens the database and applies migrations, opens the payment gateway, starts the
 * reconciler (issue #3: a run at start-up, then every RECONCILE_INTERVAL_MS), builds the app, listens on
 * HOST:PORT and prints `Donation site running at http://localhost:<port>`. On SIGINT/SIGTERM closes the app,
 * stops the reconciler, then closes the gateway and the database (fastify/demo's server.ts, DESIGN.md
 * example 8). Exits 1 on a bad configuration or a failed start, with the reason on stderr.
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
    { driver: database.driver, dataDir: database.driver === 'pglite' ? config.dataDir : undefined },
    'Database ready',
  );
  const { gateway, close: closeGateway } = await createGateway(config);
  const reconciler = startReconciler(
    { db: database.db, gateway, log: logger },
    { pendingTimeoutMs: config.pendingTimeoutMs, intervalMs: config.reconcileIntervalMs },
  );
  const app = await buildApp({ config, db: database.db, gateway, logger });
  const closeAll = async () => {
    await app.close();
    await reconciler.stop();
    await closeGateway();
    await database.close();
  };

  let closing = false;
  const shutdown = async (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'Shutting down');
    try {
      await closeAll();
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, 'Error while shutting down');
      process.exit(1);
    }
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);

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
