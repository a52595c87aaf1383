import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { API_PATHS } from '../../shared/api';
import { parseLedger } from '../payments/charge-ledger';
import { TEST_GATEWAY_LEDGER_FILE } from '../payments/create-gateway';
import { csrfHeaders, succeededDonationCount, type ServerProcess } from '../testing/server-process';
import { useServerWorkspace } from '../testing/server-workspace';
import { validSubmission } from '../testing/test-app';
import { BILLING_LEASE_MS } from './plans';
import { ADMIN_BILLING_RUN_PATH } from './plugin';

/**
 * Issue #13, "SIGKILL in the middle of a run, restart: no period charged twice, none skipped." The production server
 * (test gateway, its charge ledger on disk) bills 16 monthly plans as of a month later and is killed with SIGKILL
 * after a few renewals; restarted on the same data, a run after the dead run's lease charges the rest: every plan's
 * first renewal is charged exactly once, by the gateway and in the ledger.
 */

const PLANS = 16;
const ADMIN_TOKEN = 'crash-test-admin-token-0123456789abcdef';
const workspace = useServerWorkspace('billing-crash');

// The runner's own start-up run finds nothing due (plans renew a month on); only the operator's runs bill.
const start = () => workspace.start({ ADMIN_TOKEN, BILLING_INTERVAL_MS: String(24 * 60 * 60 * 1000) });

const billAsOf = (server: ServerProcess, asOf: Date) =>
  fetch(`${server.baseUrl}${ADMIN_BILLING_RUN_PATH}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ asOf: asOf.toISOString() }),
  });

/** The renewal charges the test gateway made (its ledger file), by idempotency key. */
async function renewalCharges(): Promise<string[]> {
  const { records } = parseLedger(await readFile(path.join(workspace.dataDir, TEST_GATEWAY_LEDGER_FILE), 'utf8'));
  return records.map((record) => record.idempotencyKey).filter((key) => key.startsWith('renewal-'));
}

describe('a billing run killed midway', () => {
  it('charges every period once after the restart: none twice, none skipped', async () => {
    const first = await start();
    const headers = { 'content-type': 'application/json', ...(await csrfHeaders(first.baseUrl)) };
    for (let index = 0; index < PLANS; index += 1) {
      const answer = await fetch(`${first.baseUrl}${API_PATHS.processDonation}`, {
        method: 'POST',
        headers,
        body: JSON.stringify(validSubmission({ amount: 30, frequency: 'monthly', donorEmail: `crash-${index}@example.org` })),
      });
      expect(answer.status).toBe(200);
    }
    const asOf = new Date(Date.now() + 40 * 24 * 60 * 60 * 1000);
    void billAsOf(first, asOf).catch(() => undefined);
    // Killed once a few renewals were charged: the run is midway.
    await expect.poll(() => first.lines.filter((line) => line.includes('Renewal charged')).length, { timeout: 30_000, interval: 5 }).toBeGreaterThanOrEqual(3);
    await first.kill();
    const chargedBeforeCrash = (await renewalCharges()).length;
    expect(chargedBeforeCrash).toBeLessThan(PLANS);

    const second = await start();
    // After the dead run's lease: the plans it claimed are billed again, under the same keys.
    const run = await billAsOf(second, new Date(asOf.getTime() + BILLING_LEASE_MS));
    expect(run.status).toBe(200);
    const report = (await run.json()) as { charged: number; failed: number; skipped: number };
    expect(report.failed).toBe(0);
    const keys = await renewalCharges();
    expect(keys).toHaveLength(PLANS);
    expect(new Set(keys).size).toBe(PLANS);
    expect(await succeededDonationCount(second.baseUrl)).toBe(2 * PLANS);
    // Billing again charges nothing more.
    expect(await (await billAsOf(second, new Date(asOf.getTime() + 2 * BILLING_LEASE_MS))).json()).toEqual({ charged: 0, failed: 0, skipped: 0 });
    await second.stop();
  }, 180_000);
});
