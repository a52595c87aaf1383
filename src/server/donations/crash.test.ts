import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../db/client';
import { donations } from '../db/schema';
import { parseLedger } from '../payments/charge-ledger';
import { TEST_GATEWAY_LEDGER_FILE } from '../payments/create-gateway';
import { gatewayIdempotencyKey } from '../payments/gateway';
import { burstThenKill, postDonation, reconciledEverything, type SentDonation } from '../testing/donation-burst';
import { csrfHeaders, succeededDonationCount } from '../testing/server-process';
import { useServerWorkspace } from '../testing/server-workspace';
import { validSubmission } from '../testing/test-app';
import { ABANDONED_DECLINE_CODE } from '../ledger/answers';

/**
 * Fault 4 of issue #3: the production server is killed with SIGKILL in the middle of a batch of concurrent
 * donations sent over real HTTP, then restarted on the same data (DATA_DIR, or the same PostgreSQL database
 * when DATABASE_URL is set). Once its reconciler has run, every charge the test gateway recorded (its ledger
 * file outlives the process) has exactly one succeeded row, and no row is left pending.
 */

const CONCURRENT_DONORS = 16;
/** The server is killed once this many answers have come back, with the other requests still in flight. */
const KILL_AFTER_ANSWERS = 40;
/** Most bursts killed before one leaves the reconciler a pending donation (see the test's note). */
const MAX_ROUNDS = 3;

const CARDS = ['4242424242424242', '5555555555554444', '4000000000000002', '378282246310005', '4000000000009995'];

const workspace = useServerWorkspace('donation-crash');

/**
 * The server on the shared data (the workspace's RATE_LIMITS=off: the batch sends far more than 5 attempts from one
 * IP), with short reconciler timings so the test need not wait minutes.
 */
// NOTE: a gateway timeout of 8 s, not 2 s: on a loaded 2-core CI machine a retried charge (a ledger append and its
// fdatasync) took over 2 s and answered 503, which is not what this test is about.
const start = () => workspace.start({ GATEWAY_TIMEOUT_MS: '8000', PENDING_TIMEOUT_MS: '9000', RECONCILE_INTERVAL_MS: '100' });

describe('fault 4: SIGKILL in the middle of a batch of donations, then a restart', () => {
  it('leaves every charge the gateway made with exactly one succeeded row, and no row pending', { timeout: 240_000 }, async () => {
    // NOTE: the kill lands wherever the requests in flight are; rarely (a slow machine, seen once on Node 22 with
    // PostgreSQL 15) none of them has written its pending row yet, and such a round leaves the reconciler nothing to do.
    // The burst is then repeated on the restarted server, at most MAX_ROUNDS times, until a killed process left one.
    let server = await start();
    const sent: SentDonation[] = [];
    const cut: SentDonation[] = [];
    let reconciled = 0;
    for (let round = 1; round <= MAX_ROUNDS && reconciled === 0; round += 1) {
      const killed = server;
      const batch = await burstThenKill(killed, await csrfHeaders(killed.baseUrl), {
        donors: CONCURRENT_DONORS,
        killAfterAnswers: KILL_AFTER_ANSWERS,
        // Every fifth request has no Idempotency-Key: those must be safe too.
        next: (donor, i) => ({
          key: i % 5 === 4 ? undefined : randomUUID(),
          body: validSubmission({ amount: 10 + donor }, { number: CARDS[(donor + i) % CARDS.length] ?? '4242424242424242' }),
        }),
      });
      sent.push(...batch);
      const roundCut = batch.filter((donation) => donation.status === undefined);
      expect(roundCut.length, 'requests in flight when the server was killed').toBeGreaterThan(0);
      cut.push(...roundCut);

      // Restart on the same data; the reconciler resolves what the killed process left pending.
      server = await start();
      await server.waitForLine(reconciledEverything, 60_000);
      reconciled = server.lines.filter((line) => line.includes('"msg":"Reconciled a pending donation"')).length;
    }
    expect(reconciled, 'donations the killed process left pending').toBeGreaterThan(0);

    // A donor retrying a cut request with its key gets a final answer, never a second charge.
    const retryHeaders = await csrfHeaders(server.baseUrl);
    for (const donation of cut.filter((s) => s.key !== undefined)) {
      await postDonation(server, retryHeaders, donation);
      expect([200, 402]).toContain(donation.status);
    }
    const succeededOverHttp = await succeededDonationCount(server.baseUrl);
    expect(await server.stop()).toBe(0);

    const { records: charges } = parseLedger(await readFile(path.join(workspace.dataDir, TEST_GATEWAY_LEDGER_FILE), 'utf8'));
    const database: DatabaseHandle = workspace.postgres ?? (await openDatabase({ dataDir: workspace.dataDir, databaseUrl: undefined }));
    try {
      const rows = await database.db
        .select({ id: donations.id, status: donations.status, transactionId: donations.gatewayTransactionId, declineCode: donations.declineCode })
        .from(donations);
      const rowByGatewayKey = new Map(rows.map((row) => [gatewayIdempotencyKey(row.id), row]));

      expect(rows.filter((row) => row.status === 'pending')).toEqual([]);
      for (const charge of charges) {
        const row = rowByGatewayKey.get(charge.idempotencyKey);
        if (charge.result.status === 'succeeded') {
          expect(row).toMatchObject({ status: 'succeeded', transactionId: charge.result.transactionId });
        } else {
          expect(row).toMatchObject({ status: 'failed', declineCode: charge.result.declineCode });
        }
      }
      const succeededCharges = charges.filter((charge) => charge.result.status === 'succeeded');
      const succeededRows = rows.filter((row) => row.status === 'succeeded');
      expect(succeededRows).toHaveLength(succeededCharges.length);
      expect(succeededOverHttp).toBe(succeededCharges.length);

      const chargedKeys = new Set(charges.map((charge) => charge.idempotencyKey));
      for (const row of rows.filter((r) => r.declineCode === ABANDONED_DECLINE_CODE)) {
        expect(chargedKeys.has(gatewayIdempotencyKey(row.id))).toBe(false);
      }
      const succeededIds = new Set(succeededRows.map((row) => row.transactionId));
      for (const donation of sent.filter((s) => s.status === 200)) expect(succeededIds).toContain([...donation.transactionIds][0]);
    } finally {
      if (!workspace.postgres) await database.close();
    }
  });
});
