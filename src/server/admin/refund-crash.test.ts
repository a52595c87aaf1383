import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseLedger } from '../payments/charge-ledger';
import { TEST_GATEWAY_REFUNDS_FILE } from '../payments/create-gateway';
import type { TestRefundRecord } from '../payments/test-refunds';
import { postDonation, type SentDonation } from '../testing/donation-burst';
import { csrfHeaders, type ServerProcess } from '../testing/server-process';
import { useServerWorkspace, useWorkspacePool } from '../testing/server-workspace';
import { validSubmission } from '../testing/test-app';
import { adminDonationRefundPath } from './paths';

/**
 * Issue #32, part 1, across a crash: the production server is killed with SIGKILL between the gateway's answer to a
 * refund and the refund's settlement (REFUND_SETTLE_PAUSE=on stops it there), then restarted on the same data. Its
 * reconciler settles the refund left pending by asking the test gateway (whose refund ledger, a file in DATA_DIR,
 * outlives the process): the books equal the gateway, the refund is recorded once, and the operator's retry with the
 * same Idempotency-Key replays it.
 */

const ADMIN_TOKEN = 'refund-crash-test-admin-token-0123456789abcdef';
const workspace = useServerWorkspace('refund-crash');
// NOTE: short reconciler timings so nothing waits minutes (PENDING_TIMEOUT_MS must exceed GATEWAY_TIMEOUT_MS).
const SERVER_ENV = { ADMIN_TOKEN, GATEWAY_TIMEOUT_MS: '8000', PENDING_TIMEOUT_MS: '9000', RECONCILE_INTERVAL_MS: '100' };

const pool = useWorkspacePool(workspace);

/** POSTs the operator's refund of `amount` dollars of `donationId` under `key`; resolves with the answer, or undefined when cut. */
async function refund(server: ServerProcess, donationId: string, amount: number, key: string) {
  try {
    const response = await fetch(`${server.baseUrl}${adminDonationRefundPath(donationId)}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json', 'idempotency-key': key },
      body: JSON.stringify({ amount }),
    });
    return { status: response.status, headers: response.headers, json: (await response.json()) as { refund?: { gatewayRefundId: string; amount: number } } };
  } catch {
    return undefined;
  }
}

/** The test gateway's refunds, from its ledger file in DATA_DIR. */
async function gatewayRefunds(): Promise<TestRefundRecord[]> {
  return parseLedger<TestRefundRecord>(await readFile(path.join(workspace.dataDir, TEST_GATEWAY_REFUNDS_FILE), 'utf8')).records;
}

describe('SIGKILL between the gateway refund and its settlement, then a restart', () => {
  it("the restarted server's reconciler records the refund once; the books equal the gateway; the retry replays it", { timeout: 150_000 }, async () => {
    const first = await workspace.start({ ...SERVER_ENV, REFUND_SETTLE_PAUSE: 'on' });
    const gift: SentDonation = { key: randomUUID(), body: validSubmission({ amount: 40 }), transactionIds: new Set() };
    await postDonation(first, await csrfHeaders(first.baseUrl), gift);
    expect(gift.status).toBe(200);
    const [transactionId] = [...gift.transactionIds];
    const {
      rows: [donation],
    } = await pool().query<{ id: string }>('SELECT id FROM donations WHERE gateway_transaction_id = $1', [transactionId]);
    const donationId = donation?.id ?? '';

    const key = randomUUID();
    const cut = refund(first, donationId, 15, key);
    await first.waitForLine((line) => line.includes('"event":"refund.settle_paused"'), 30_000);
    await first.kill();
    expect(await cut).toBeUndefined();

    // Killed: the gateway refunded $15, and the ledger holds the refund as pending only.
    const [made, ...others] = (await gatewayRefunds()).filter((record) => record.transactionId === transactionId);
    expect(others).toEqual([]);
    expect(made?.refund.amountCents).toBe(1500);
    const pendingRows = await pool().query('SELECT status, amount_cents FROM donation_refunds WHERE donation_id = $1', [donationId]);
    expect(pendingRows.rows).toEqual([{ status: 'pending', amount_cents: 1500 }]);

    const second = await workspace.start(SERVER_ENV);
    await second.waitForLine((line) => line.includes('"event":"refund.reconciled"'), 60_000);

    const { rows: settled } = await pool().query<{ status: string; amount_cents: number; gateway_refund_id: string; idempotency_key: string }>(
      'SELECT status, amount_cents, gateway_refund_id, idempotency_key FROM donation_refunds WHERE donation_id = $1',
      [donationId],
    );
    expect(settled).toEqual([{ status: 'succeeded', amount_cents: 1500, gateway_refund_id: made?.refund.refundId, idempotency_key: key }]);
    const { rows: donationRows } = await pool().query<{ status: string; refunded_cents: number }>('SELECT status, refunded_cents FROM donations WHERE id = $1', [donationId]);
    expect(donationRows).toEqual([{ status: 'succeeded', refunded_cents: 1500 }]);

    const retried = await refund(second, donationId, 15, key);
    expect(retried?.status).toBe(200);
    expect(retried?.headers.get('idempotent-replayed')).toBe('true');
    expect(retried?.json.refund).toMatchObject({ gatewayRefundId: made?.refund.refundId, amount: 15 });
    expect(await second.stop()).toBe(0);

    // The books equal the gateway: what it refunded of the charge is what the ledger counts, once.
    const gatewayCents = (await gatewayRefunds()).filter((record) => record.transactionId === transactionId).reduce((sum, record) => sum + record.refund.amountCents, 0);
    const { rows: ledger } = await pool().query<{ cents: number }>(
      "SELECT coalesce(sum(amount_cents), 0)::int AS cents FROM donation_refunds WHERE donation_id = $1 AND status = 'succeeded'",
      [donationId],
    );
    expect({ gatewayCents, ledgerCents: ledger[0]?.cents }).toEqual({ gatewayCents: 1500, ledgerCents: 1500 });
  });
});
