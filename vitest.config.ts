import { defineConfig } from 'vitest/config';

/**
 * Unit and API tests (Vitest). They sit next to their code as `*.test.ts`; the browser suite is
 * Playwright's (tests/e2e); the stand-ins of Stripe test themselves (tests/stand-ins), and the server's tests that need
 * them live outside src/ (tests/stripe), which never imports a stand-in. Two workers at most: the machine has two cores.
 */
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'tests/stand-ins/**/*.test.ts', 'tests/stripe/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
