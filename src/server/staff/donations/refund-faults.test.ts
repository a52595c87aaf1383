import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { STAFF_API, staffApiPath } from '../../../shared/staff/paths';
import { StaffRefundAnswerSchema } from '../../../shared/staff/donations-api';
import { REFUND_BEING_SETTLED_MESSAGE, REFUND_OUTCOME_UNKNOWN_MESSAGE } from '../../admin/refund-route';
import { adminAuditLog, donationRefunds, donations, mailOutbox } from '../../db/schema';
import { createTestGateway } from '../../payments/test-gateway';
import { signInStaffForTest, type StaffTestSession } from '../identity/testing/staff-session';
import { faultyDatabase, type FaultyDatabase } from '../../testing/faulty-database';
import { faultyGateway, type GatewayFaults } from '../../testing/faulty-gateway';
import { createTestApp, validSubmission, type TestApp } from '../../testing/test-app';
import { DONATION_AUDIT_ACTIONS } from '../shared/donation-audit';

/**
 * A refund is never missing from the ledger (issue #32, part 1; decision 0095), through the real app, the real
 * database and the test gateway, with the fault points of the donation fault tests (faultyGateway, faultyDatabase):
 * the write after the gateway's refund fails, the staff member is told the outcome is unknown, the refund stays
 * pending (counting against what is left, not as refunded money), and the reconciler (run as main's loop runs it:
 * t.reconcile, the pending age on the database's clock) records the gateway's refund exactly once, with its audit
 * entry and the donor's notice; the retry with the same Idempotency-Key then replays it.
 */

const testGateway = createTestGateway();
const faults: GatewayFaults = {};
let database: FaultyDatabase | undefined;
let t: TestApp;
let finance: StaffTestSession;

beforeAll(async () => {
  t = await createTestApp({
    gateway: faultyGateway(testGateway, faults),
    database: (handle) => {
      database = faultyDatabase(handle);
      return database.db;
    },
  });
  finance = await signInStaffForTest(t.app, t.db, { role: 'finance' });
});
afterAll(async () => {
  await t?.close();
});
beforeEach(() => {
  delete faults.afterRefund;
  if (database) database.down = false;
});

/** A succeeded donation of `amount` dollars made through the donor's API; resolves with its id and charge id. */
async function give(amount: number): Promise<{ id: string; transactionId: string }> {
  const answer = await t.postDonation(validSubmission({ amount, donorEmail: `donor-${randomUUID()}@example.org` }));
  expect(answer.statusCode, answer.body).toBe(200);
  const transactionId = answer.json<{ data: { transactionId: string } }>().data.transactionId;
  const [row] = await t.db.select({ id: donations.id }).from(donations).where(eq(donations.gatewayTransactionId, transactionId));
  return { id: row?.id ?? '', transactionId };
}

/** The staff's refund of `id` with `body`, under the Idempotency-Key `key`. */
const refund = (id: string, body: object, key: string) =>
  t.app.inject({ method: 'POST', url: staffApiPath(STAFF_API.donationRefunds, id), headers: { ...finance.headers, 'idempotency-key': key }, payload: body });

const donationRow = async (id: string) => (await t.db.select().from(donations).where(eq(donations.id, id)))[0];
const refundRows = (id: string) => t.db.select().from(donationRefunds).where(eq(donationRefunds.donationId, id));
const refundAudit = (id: string) =>
  t.db.select().from(adminAuditLog).where(and(eq(adminAuditLog.subjectId, id), eq(adminAuditLog.action, DONATION_AUDIT_ACTIONS.refund)));
const gatewayRefundsOf = (transactionId: string) => testGateway.refunds().filter((record) => record.transactionId === transactionId);

/** What the gateway refunded of a charge and what the ledger says was refunded of its donation, in cents. */
async function books(donation: { id: string; transactionId: string }) {
  const gatewayCents = gatewayRefundsOf(donation.transactionId).reduce((sum, record) => sum + record.refund.amountCents, 0);
  const ledgerCents = (await refundRows(donation.id)).filter((row) => row.status === 'succeeded').reduce((sum, row) => sum + row.amountCents, 0);
  return { gatewayCents, ledgerCents, refundedCents: (await donationRow(donation.id))?.refundedCents };
}

describe('the write after the gateway refunded fails (issue #32, part 1)', () => {
  it('503 "unknown"; the refund stays pending; the reconciler records it once with its audit entry and notice; the retry replays it', async () => {
    const donation = await give(40);
    const key = randomUUID();
    faults.afterRefund = () => {
      if (database) database.down = true;
    };
    const lost = await refund(donation.id, { amountCents: 1500, reason: 'Duplicate gift' }, key);
    delete faults.afterRefund;
    if (database) database.down = false;
    expect(lost.statusCode).toBe(503);
    expect(lost.json()).toEqual({ success: false, error: REFUND_OUTCOME_UNKNOWN_MESSAGE });

    // The gateway refunded $15; the ledger holds it as pending: not refunded money yet, but no longer refundable.
    const [made] = gatewayRefundsOf(donation.transactionId);
    expect(made?.refund.amountCents).toBe(1500);
    expect(await refundRows(donation.id)).toEqual([expect.objectContaining({ status: 'pending', amountCents: 1500, gatewayRefundId: null })]);
    expect(await donationRow(donation.id)).toMatchObject({ status: 'succeeded', refundedCents: 0 });
    expect(await refundAudit(donation.id)).toEqual([]);
    const tooMuch = await refund(donation.id, { amountCents: 4000, reason: 'All of it' }, randomUUID());
    expect(tooMuch.statusCode).toBe(400);

    // The retry is told it is being settled, and refunds nothing; a young pending refund is left to its request.
    const settling = await refund(donation.id, { amountCents: 1500, reason: 'Duplicate gift' }, key);
    expect(settling.statusCode).toBe(503);
    expect(settling.json()).toEqual({ success: false, error: REFUND_BEING_SETTLED_MESSAGE });
    expect((await t.reconcile(60_000)).refunds).toEqual({ succeeded: 0, failed: 0, unresolved: 0 });
    expect(gatewayRefundsOf(donation.transactionId)).toHaveLength(1);

    expect((await t.reconcile()).refunds).toEqual({ succeeded: 1, failed: 0, unresolved: 0 });
    expect(await books(donation)).toEqual({ gatewayCents: 1500, ledgerCents: 1500, refundedCents: 1500 });
    expect(await refundRows(donation.id)).toEqual([expect.objectContaining({ status: 'succeeded', gatewayRefundId: made?.refund.refundId, idempotencyKey: key })]);
    const [row] = await refundRows(donation.id);
    const audit = await refundAudit(donation.id);
    expect(audit).toEqual([
      expect.objectContaining({
        actorType: 'staff',
        actorStaffId: finance.staffMember.id,
        details: { amountCents: 1500, reason: 'Duplicate gift', refundId: row?.id, gatewayRefundId: made?.refund.refundId },
      }),
    ]);
    expect(await t.db.select().from(mailOutbox).where(eq(mailOutbox.refundId, row?.id ?? ''))).toHaveLength(1);

    // The retry replays it; nothing is refunded or recorded again, by the retry or by another run.
    const replayed = await refund(donation.id, { amountCents: 1500, reason: 'Duplicate gift' }, key);
    expect(replayed.statusCode).toBe(201);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(StaffRefundAnswerSchema.parse(replayed.json())).toMatchObject({
      refund: { id: row?.id, amountCents: 1500, gatewayRefundId: made?.refund.refundId },
      donation: { status: 'partially_refunded', refundedCents: 1500 },
    });
    expect((await t.reconcile()).refunds).toEqual({ succeeded: 0, failed: 0, unresolved: 0 });
    expect(await books(donation)).toEqual({ gatewayCents: 1500, ledgerCents: 1500, refundedCents: 1500 });
    expect(await refundAudit(donation.id)).toHaveLength(1);
  });

  it("the issue's reason with a NUL: whatever the answer, the books equal the gateway once the reconciler ran", async () => {
    const donation = await give(25);
    const key = randomUUID();
    for (let attempt = 0; attempt < 2; attempt += 1) await refund(donation.id, { amountCents: 100, reason: 'a\u0000b' }, key);
    await t.reconcile();
    const { gatewayCents, ledgerCents, refundedCents } = await books(donation);
    expect(ledgerCents).toBe(gatewayCents);
    expect(refundedCents).toBe(gatewayCents);
  });
});
