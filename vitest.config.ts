import { readFileSync } from 'node:fs';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { catalogues } from './scripts/vite-catalogues';

/** Every test file Vitest runs: next to their code (the scripts' too), the stand-ins' own tests, and the server's tests on the stand-ins. */
const ALL_TESTS = ['src/**/*.test.ts', 'scripts/**/*.test.ts', 'tests/stand-ins/**/*.test.ts', 'tests/stripe/**/*.test.ts'];
/**
 * Files that replace a module (`vi.mock`) or a global (`vi.stubGlobal`): each gets fresh modules of its own, or a
 * module another file loaded first would miss the mock.
 */
const NEEDS_FRESH_MODULES = ['src/web/**/*.test.ts', 'src/server/admin/admin.test.ts'];

/** What a test file calls when it starts server processes or the SMTP test server: its tests wait on them for seconds. */
const STARTS_SERVERS = /\b(useServerWorkspace|startServerProcess|spawnServerProcess|startSmtpTestServer)\(/;

/**
 * Vitest's order (by the durations of the last run, or on a fresh clone by file size, largest first), except that
 * the files that start servers go first: they are the longest and spend their time waiting, so the others fill the
 * workers around them instead of one of them running alone at the end (issue #19, decision 0066).
 */
class ServerFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const startsServers = (file: TestSpecification) => STARTS_SERVERS.test(readFileSync(file.moduleId, 'utf8'));
    return [...sorted.filter(startsServers), ...sorted.filter((file) => !startsServers(file))];
  }
}

/**
 * Unit and API tests (Vitest). They sit next to their code as `*.test.ts`; the browser suite is
 * Playwright's (tests/e2e); the stand-ins of Stripe test themselves (tests/stand-ins), and the server's tests that need
 * them live outside src/ (tests/stripe), which never imports a stand-in. Two workers at most: the machine has two cores.
 * NOTE: the server's tests share their worker's modules (`isolate: false`): importing the app and the mail renderer
 * afresh for each file was a third of the suite's time (docs/decisions/0064-ci-time-budget.md). Each file still
 * opens its own database and app: a copy of one migrated template on the run's PostgreSQL server, which the global
 * setup starts (the embedded server, or DATABASE_URL's; issue #25).
 */
export default defineConfig({
  plugins: [catalogues()],
  test: {
    environment: 'node',
    pool: 'forks',
    maxWorkers: 2,
    globalSetup: ['src/server/testing/test-postgres-setup.ts', 'src/server/testing/server-bundle-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    sequence: { sequencer: ServerFilesFirst },
    projects: [
      { extends: true, test: { name: 'fresh-modules', include: NEEDS_FRESH_MODULES } },
      { extends: true, test: { name: 'shared-modules', include: ALL_TESTS, exclude: NEEDS_FRESH_MODULES, isolate: false } },
    ],
  },
});
