import { defineConfig } from 'drizzle-kit';

/**
 * drizzle-kit configuration: `npx drizzle-kit generate` turns src/server/db/schema.ts into SQL migrations
 * in drizzle/, which the server applies at start-up on the embedded PostgreSQL and on DATABASE_URL's alike (issues #2, #25).
 * No database credentials here: generating needs none, and migrations are applied by the server.
 */
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/server/db/schema.ts',
  out: './drizzle',
  strict: true,
  verbose: true,
});
