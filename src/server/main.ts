import { buildApp } from './app';
import { loadConfig, type ServerConfig } from './config';
import { openDatabase } from './db/client';
import { createLogger } from './logger';
import { createGateway } from './payments/create-gateway';

/**
 * Starts the server (issue #2: "One process serves the built site and /api on PORT"): reads the
 * configuration, opens the database and applies migrations, builds the app, listens on HOST:PORT and
 * prints `Donation site running at http://localhost:<port>`. Closes the app, then the database, on
 * SIGINT/SIGTERM (fastify/demo's server.ts, DESIGN.md example 8). Exits 1 on a bad configuration or a
 * failed start, with the reason on stderr.
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
  const app = await buildApp({ config, db: database.db, gateway: createGateway(config), logger });

  let closing = false;
  const shutdown = async (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'Shutting down');
    try {
      await app.close();
      await database.close();
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
    await database.close();
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
