import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IDEMPOTENCY_KEY_HEADER } from '../../src/shared/api';
import { IDEMPOTENCY_IN_FLIGHT_MESSAGE, PAYMENT_BEING_CONFIRMED_MESSAGE } from '../../src/server/http/errors';
import { TEST_GATEWAY_LEDGER_FILE } from '../../src/server/payments/create-gateway';
import { openTestDatabase } from '../../src/server/testing/test-database';
import { startServerProcess, succeededDonationCount, type ServerProcess } from '../../src/server/testing/server-process';
import { chooseDonation, expect, fillDonorForm, test as base } from './fixtures';
import { ownServerEnv } from './e2e-env';

/**
 * Issue #3, fault 1, in a real browser: the gateway errors, and the donor sees it in the snackbar.
 *
 * The test runs its OWN server process (not the shared e2e server, which other specs use in parallel),
 * with its own DATA_DIR, and injects the fault from outside the code: the test gateway's charge ledger
 * (DATA_DIR/test-gateway-charges.jsonl) is a symlink to /dev/null. The server starts (the file opens and
 * reads as empty), but a charge counts as made only once its line is fdatasync'ed (decision 0010), and
 * Linux refuses fdatasync on /dev/null (EINVAL), so every charge rejects: a gateway error, outcome unknown.
 * NOTE: a directory in the ledger's place is no good: the server then fails to start (EISDIR on open), and
 * GATEWAY_TIMEOUT_MS=1 would race the charge instead of failing it every time.
 */

/** The console error Chromium logs for an API answer with `status` (a failed resource load). */
const failedLoad = (status: number) => new RegExp(`^console: Failed to load resource: .*status of ${status}\\b`);

/**
 * Takes the console errors matching `expected` out of the list the `pageErrors` fixture checks at the
 * end (they are the product answering as it should), after waiting for exactly `count` of them; any
 * other error the page logs still fails the test.
 */
async function acceptConsoleErrors(pageErrors: string[], expected: RegExp, count: number): Promise<void> {
  await expect.poll(() => pageErrors.filter((error) => expected.test(error)).length).toBe(count);
  const others = pageErrors.filter((error) => !expected.test(error));
  pageErrors.splice(0, pageErrors.length, ...others);
}

const test = base.extend<{ faultyServer: ServerProcess }>({
  // A real server whose gateway cannot record a charge, on a test database of its own; stopped, and its DATA_DIR
  // removed and its database dropped, after the test.
  // eslint-disable-next-line no-empty-pattern -- Playwright requires a destructuring pattern, even with no dependencies.
  faultyServer: async ({}, use, testInfo) => {
    const dataDir = await mkdtemp(join(tmpdir(), 'donation-gateway-fault-'));
    const database = await openTestDatabase();
    try {
      await symlink('/dev/null', join(dataDir, TEST_GATEWAY_LEDGER_FILE));
      const server = await startServerProcess(ownServerEnv(dataDir, database.url));
      try {
        await use(server);
      } finally {
        await server.stop();
        if (testInfo.status !== testInfo.expectedStatus) {
          const log = [...server.lines, ...server.stderrLines].join('\n');
          await testInfo.attach('faulty-server.log', { body: log, contentType: 'text/plain' });
        }
      }
    } finally {
      await database.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  },
  baseURL: async ({ faultyServer }, use) => {
    await use(faultyServer.baseUrl);
  },
});

test.describe('when the payment gateway fails', () => {
  test('a donor whose charge the gateway cannot confirm is told so, stays on the form, and is not charged again when she tries once more', async ({
    page,
    pageErrors,
    faultyServer,
  }) => {
    await chooseDonation(page, { preset: '$50', frequency: 'one-time', cause: 'marine-protected-areas' });
    await fillDonorForm(page);
    const submitButton = page.getByRole('button', { name: 'Complete Donation of $50' });

    const firstSent = page.waitForRequest('**/api/process-donation');
    await submitButton.click();
    const firstKey = (await firstSent).headers()[IDEMPOTENCY_KEY_HEADER.toLowerCase()];
    await expect(page.getByRole('alert')).toHaveText(`Error: ${PAYMENT_BEING_CONFIRMED_MESSAGE}`);
    await expect(page).toHaveURL(/\/donate\/form$/);
    await expect(submitButton).toBeEnabled();
    // The 503 came from the injected fault, not from something else going wrong on the server.
    const logged = await faultyServer.waitForLine((line) => line.includes('Charge failed; outcome unknown'), 5_000);
    expect(logged).toContain('fdatasync');
    await acceptConsoleErrors(pageErrors, failedLoad(503), 1);

    // She tries again at once: the same attempt, the same key, and the server will not charge it twice.
    const secondSent = page.waitForRequest('**/api/process-donation');
    await submitButton.click();
    expect((await secondSent).headers()[IDEMPOTENCY_KEY_HEADER.toLowerCase()], 'the retry reuses the key').toBe(firstKey);
    await expect(page.getByRole('alert')).toHaveText(`Error: ${IDEMPOTENCY_IN_FLIGHT_MESSAGE}`);
    await expect(page).toHaveURL(/\/donate\/form$/);
    await expect(submitButton).toBeEnabled();
    await acceptConsoleErrors(pageErrors, failedLoad(409), 1);

    expect(await succeededDonationCount(faultyServer.baseUrl), 'no donation counted as succeeded').toBe(0);
  });
});
