import { startTestPostgres } from './test-database';

/**
 * Vitest's and Playwright's global setup (vitest.config.ts, playwright.config.ts): starts the run's test PostgreSQL
 * and its migrated template (see startTestPostgres) before any worker, and returns the teardown that runs after all.
 */
export default async function setup(): Promise<() => Promise<void>> {
  return startTestPostgres();
}
