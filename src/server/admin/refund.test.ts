import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { API_PATHS } from '../../shared/api';
import { donationRefunds, donations, mailOutbox, receipts } from '../db/schema';
import { createPendingDonation } from '../ledger/repository';
import type { PaymentGateway } from '../payments/gateway';
import { createTestGateway } from '../payments/test-gateway';
import { PENDING_TEST_DONATION } from '../testing/pending-donation';
import { createTestApp, validSubmission, type TestApp } from '../testing/test-app';
import { ADMIN_UNAUTHORIZED_MESSAGE } from '../http/operator-auth';
import { adminDonationRefundPath } from './paths';
import { gatewayRefundKey } from './refund';
import {
  amountTooLargeMessage,
  DONATION_NOT_FOUND_MESSAGE,
  NOT_REFUNDABLE_MESSAGES,
  REFUND_IDEMPOTENCY_KEY_MESSAGE,
  REFUND_BEING_SETTLED_MESSAGE,
  REFUND_KEY_REUSED_MESSAGE,
  REFUND_OUTCOME_UNKNOWN_MESSAGE,
  RefundAnswerSchema,
} from './refund-route';

/**
 * An operator's refund through the real app and the test gateway (issue #14; decision 0058):
 * POST /api/admin/donations/:id/refund, full or partial, once per Idempotency-Key, never more than the donation
 * whatever runs at once; the receipt voided or corrected, the donor's notice queued and sent, the totals lowered.
 * Runs on the embedded PostgreSQL test server, and on DATABASE_URL's when it is set.
 */

const ADMIN_TOKEN = 'correct-horse-battery-staple-0123456789';
const testGateway = createTestGateway();
/** When set, the next refund is made by the test gateway but its answer is lost (a connection reset after it). */
let loseNextRefundAnswer = false;
const gateway: PaymentGateway = {
  ...testGateway,
  async refund(request) {
    const refund = await testGateway.refund(request);
    if (loseNextRefundAnswer) {
      loseNextRefundAnswer = false;
      throw new Error('socket hang up');
    }
    return refund;
  },
};

let t: TestApp;
let mailDir: string;
beforeAll(async () => {
  mailDir = await mkdtemp(path.join(tmpdir(), 'refund-mail-'));
  t = await createTestApp({ gateway, env: { ADMIN_TOKEN, MAIL_DIR: mailDir, PUBLIC_URL: 'https://give.example.org' } });
});
afterAll(async () => {
  await t?.close();
  await rm(mailDir, { recursive: true, force: true });
});
beforeEach(async () => {
  await t.reset();
});

/** A succeeded donation of `amount` dollars made through the API; resolves with its id and charge id. */
async function give(amount = 25, cardNumber = '4242424242424242'): Promise<{ id: string; transactionId: string }> {
  const answer = await t.postDonation(validSubmission({ amount }, { number: cardNumber }));
  const transactionId = answer.json<{ data?: { transactionId: string } }>().data?.transactionId ?? '';
  const [row] = await t.db.select({ id: donations.id }).from(donations).where(eq(donations.gatewayTransactionId, transactionId));
  return { id: row?.id ?? '', transactionId };
}

/** POSTs a refund of `donationId` with `body` (`{}`: all that is left), the Idempotency-Key `key` (none when null) and the token. */
function refund(donationId: string, body: object = {}, key: string | null = randomUUID(), token = ADMIN_TOKEN) {
  return t.app.inject({
    method: 'POST',
    url: adminDonationRefundPath(donationId),
    headers: { authorization: `Bearer ${token}`, ...(key === null ? {} : { 'idempotency-key': key }) },
    payload: body,
  });
}

const donationRow = async (id: string) => (await t.db.select().from(donations).where(eq(donations.id, id)))[0];
const receiptOf = async (id: string) => (await t.db.select().from(receipts).where(eq(receipts.donationId, id)))[0];
const refundRows = (id: string) => t.db.select().from(donationRefunds).where(eq(donationRefunds.donationId, id));
const mailKinds = async () => (await t.db.select({ kind: mailOutbox.kind }).from(mailOutbox)).map((row) => row.kind).sort();
const stats = async () => (await t.app.inject({ method: 'GET', url: API_PATHS.donationStats })).json<{ totalRaised: number; donationCount: number }>();
const gatewayRefundsOf = (transactionId: string) => testGateway.refunds().filter((record) => record.transactionId === transactionId);

describe('a full refund', () => {
  it('refunds all through the gateway, moves the donation to refunded, voids the receipt, queues the void notice, and leaves the totals', async () => {
    const { id, transactionId } = await give(25);
    const answer = await refund(id);
    expect(answer.statusCode).toBe(200);
    const body = RefundAnswerSchema.parse(answer.json());
    expect(body).toMatchObject({ refund: { amount: 25 }, donation: { id, status: 'refunded', amount: 25, refunded: 25 } });
    expect(body.refund.gatewayRefundId).toMatch(/^re_test_/);

    expect(await donationRow(id)).toMatchObject({ status: 'refunded', refundedCents: 2500 });
    expect((await receiptOf(id))?.voidedAt).toBeInstanceOf(Date);
    expect(await mailKinds()).toEqual(['receipt', 'receipt_void']);
    expect(await refundRows(id)).toMatchObject([{ amountCents: 2500, gateway: 'test', gatewayRefundId: body.refund.gatewayRefundId }]);
    expect(gatewayRefundsOf(transactionId).map((record) => record.refund)).toEqual([
      { refundId: body.refund.gatewayRefundId, amountCents: 2500, status: 'succeeded' },
    ]);
    expect(await stats()).toMatchObject({ totalRaised: 0, donationCount: 0 });
  });
});

describe('a partial refund', () => {
  it('records the refund, lowers the totals, keeps the receipt for the rest and e-mails the donor the corrected amount', async () => {
    const { id, transactionId } = await give(25);
    await give(10);
    const answer = await refund(id, { amount: 10.5 });
    expect(answer.statusCode).toBe(200);
    const body = RefundAnswerSchema.parse(answer.json());
    expect(body).toMatchObject({ refund: { amount: 10.5 }, donation: { status: 'succeeded', amount: 25, refunded: 10.5 } });

    expect(await donationRow(id)).toMatchObject({ status: 'succeeded', refundedCents: 1050 });
    expect((await receiptOf(id))?.voidedAt).toBeNull();
    const [notice] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'partial_refund'));
    expect(notice).toMatchObject({ refundId: body.refund.id, donationId: null, recipient: 'ana@example.org' });
    expect(gatewayRefundsOf(transactionId).map((record) => record.refund.amountCents)).toEqual([1050]);
    expect(await stats()).toMatchObject({ totalRaised: 24.5, donationCount: 2 });

    await t.app.mail.relayDue();
    const files = (await readdir(mailDir)).filter((file) => file.endsWith('.eml'));
    const mails = await Promise.all(files.map(async (file) => simpleParser(await readFile(path.join(mailDir, file)))));
    const sent = mails.find((mail) => mail.messageId?.startsWith('<partial_refund.') && mail.text?.includes(transactionId));
    const receiptNumber = (await receiptOf(id))?.number ?? '';
    expect(sent?.subject).toBe(`Refund of $10.50 USD: receipt ${receiptNumber} corrected`);
    expect(sent?.text).toContain(`refunded $10.50 USD of your donation of $25.00 USD`);
    expect(sent?.text).toContain(`Receipt ${receiptNumber} now stands for $14.50 USD`);
    expect(sent?.html).toContain('https://give.example.org/api/receipts/pdf/');
  });

  it('each partial refund gets its own notice, stating what the receipt stands for after that refund', async () => {
    const { id, transactionId } = await give(25);
    await refund(id, { amount: 5 });
    await refund(id, { amount: 4 });
    await t.app.mail.relayDue();
    const files = (await readdir(mailDir)).filter((file) => file.endsWith('.eml'));
    const mails = await Promise.all(files.map(async (file) => simpleParser(await readFile(path.join(mailDir, file)))));
    const notices = mails.filter((mail) => mail.messageId?.startsWith('<partial_refund.') && mail.text?.includes(transactionId));
    const standsFor = notices.map((mail) => /now stands for (\$[\d.]+ USD)/.exec(mail.text ?? '')?.[1]).sort();
    expect(standsFor).toEqual(['$16.00 USD', '$20.00 USD']);
  });

  it('two partial refunds up to the amount make it refunded (receipt void); a third is refused and changes nothing', async () => {
    const { id, transactionId } = await give(25);
    expect((await refund(id, { amount: 10 })).json()).toMatchObject({ donation: { status: 'succeeded', refunded: 10 } });
    expect((await refund(id, { amount: 15 })).json()).toMatchObject({ donation: { status: 'refunded', refunded: 25 } });
    expect((await receiptOf(id))?.voidedAt).toBeInstanceOf(Date);
    expect(await mailKinds()).toEqual(['partial_refund', 'receipt', 'receipt_void']);

    const third = await refund(id, { amount: 1 });
    expect(third.statusCode).toBe(409);
    expect(third.json()).toEqual({ success: false, error: NOT_REFUNDABLE_MESSAGES.refunded });
    expect(await refund(id)).toMatchObject({ statusCode: 409 });
    expect((await refundRows(id)).map((row) => row.amountCents).sort()).toEqual([1000, 1500]);
    expect(gatewayRefundsOf(transactionId)).toHaveLength(2);
  });

  it('refuses an amount over what is left with 400 (fieldErrors.amount) and refunds nothing', async () => {
    const { id, transactionId } = await give(25);
    await refund(id, { amount: 20 });
    const over = await refund(id, { amount: 5.01 });
    expect(over.statusCode).toBe(400);
    expect(over.json()).toMatchObject({ fieldErrors: { amount: amountTooLargeMessage(500) } });
    expect(amountTooLargeMessage(500)).toBe('At most $5 is left to refund.');
    expect(await donationRow(id)).toMatchObject({ refundedCents: 2000 });
    expect(gatewayRefundsOf(transactionId)).toHaveLength(1);
  });
});

describe('bad requests change nothing', () => {
  it('answers 400 for a bad amount or body, a missing or bad Idempotency-Key; 404 for an unknown or malformed id; 401 without the token', async () => {
    const { id, transactionId } = await give(25);
    for (const body of [{ amount: 0 }, { amount: 1e-9 }, { amount: -5 }, { amount: 10.001 }, { amount: '10' }, { amount: 1e9 }, { amount: null }, { amount: 5, reason: 'x' }, []]) {
      const answer = await refund(id, body);
      expect(answer.statusCode, JSON.stringify(body)).toBe(400);
      expect(answer.json()).toMatchObject({ success: false });
    }
    expect((await refund(id, { amount: 0 })).json()).toMatchObject({ fieldErrors: { amount: 'The amount must be at least $0.01' } });
    for (const key of [null, '', 'é'.repeat(3), 'k'.repeat(256)]) {
      const answer = await refund(id, { amount: 5 }, key);
      expect(answer.statusCode, String(key)).toBe(400);
      expect(answer.json()).toEqual({ success: false, error: REFUND_IDEMPOTENCY_KEY_MESSAGE });
    }
    for (const unknown of [randomUUID(), 'not-a-uuid', "1' OR '1'='1"]) {
      const answer = await refund(unknown, { amount: 5 });
      expect(answer.statusCode, unknown).toBe(404);
      expect(answer.json()).toEqual({ success: false, error: DONATION_NOT_FOUND_MESSAGE });
    }
    const unauthorized = await refund(id, { amount: 5 }, randomUUID(), 'x'.repeat(40));
    expect(unauthorized.statusCode).toBe(401);
    expect(unauthorized.json()).toEqual({ success: false, error: ADMIN_UNAUTHORIZED_MESSAGE });

    expect(await donationRow(id)).toMatchObject({ status: 'succeeded', refundedCents: 0 });
    expect(await refundRows(id)).toEqual([]);
    expect(gatewayRefundsOf(transactionId)).toEqual([]);
    expect(await mailKinds()).toEqual(['receipt']);
  });

  it('answers 409 for a pending or a declined donation, with nothing asked of the gateway', async () => {
    const pendingId = randomUUID();
    await createPendingDonation(t.db, PENDING_TEST_DONATION, pendingId);
    const pending = await refund(pendingId);
    expect(pending.statusCode).toBe(409);
    expect(pending.json()).toEqual({ success: false, error: NOT_REFUNDABLE_MESSAGES.pending });

    await t.postDonation(validSubmission({}, { number: '4000000000000002' }));
    const [declined] = await t.db.select({ id: donations.id }).from(donations).where(eq(donations.status, 'failed'));
    const failed = await refund(declined?.id ?? '');
    expect(failed.statusCode).toBe(409);
    expect(failed.json()).toEqual({ success: false, error: NOT_REFUNDABLE_MESSAGES.failed });
    expect(await t.db.select().from(donationRefunds)).toEqual([]);
  });
});

describe('idempotency and concurrency', () => {
  it('a repeat with the same Idempotency-Key answers the first refund (Idempotent-Replayed) and refunds once; the key with another amount or donation is 422', async () => {
    const { id, transactionId } = await give(25);
    const key = randomUUID();
    const first = await refund(id, { amount: 5 }, key);
    const again = await refund(id, { amount: 5 }, key);
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json<{ refund: unknown }>().refund).toEqual(first.json<{ refund: unknown }>().refund);
    expect((await refund(id, {}, key)).json<{ refund: unknown }>().refund).toEqual(first.json<{ refund: unknown }>().refund);

    const other = await give(30);
    for (const reused of [await refund(id, { amount: 6 }, key), await refund(other.id, { amount: 5 }, key)]) {
      expect(reused.statusCode).toBe(422);
      expect(reused.json()).toEqual({ success: false, error: REFUND_KEY_REUSED_MESSAGE });
    }
    expect(gatewayRefundsOf(transactionId)).toHaveLength(1);
    expect(await donationRow(id)).toMatchObject({ refundedCents: 500 });
  });

  it('requests at once never refund more than the donation: with different keys, only what fits is refunded; with one key, once', async () => {
    const { id, transactionId } = await give(25);
    const answers = await Promise.all(Array.from({ length: 6 }, () => refund(id, { amount: 10 })));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 200, 400, 400, 400, 400]);
    expect(await donationRow(id)).toMatchObject({ status: 'succeeded', refundedCents: 2000 });
    expect(gatewayRefundsOf(transactionId).map((record) => record.refund.amountCents)).toEqual([1000, 1000]);

    const other = await give(25);
    const key = randomUUID();
    const same = await Promise.all(Array.from({ length: 4 }, () => refund(other.id, {}, key)));
    expect(same.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200]);
    expect(new Set(same.map((answer) => answer.json<{ refund: { id: string } }>().refund.id)).size).toBe(1);
    expect(gatewayRefundsOf(other.transactionId)).toHaveLength(1);
    expect(await donationRow(other.id)).toMatchObject({ status: 'refunded', refundedCents: 2500 });

    // One key for two donations at once: one is refunded, the other answered 422, and nothing is refunded unrecorded.
    const [first, second] = [await give(25), await give(25)];
    const shared = randomUUID();
    const both = await Promise.all([refund(first.id, { amount: 5 }, shared), refund(second.id, { amount: 5 }, shared)]);
    expect(both.map((answer) => answer.statusCode).sort()).toEqual([200, 422]);
    expect([...gatewayRefundsOf(first.transactionId), ...gatewayRefundsOf(second.transactionId)]).toHaveLength(1);
  });

  it("a lost gateway answer is a 503 that leaves the refund pending; a retry says it is being settled; the reconciler records the gateway's refund once, and the retry replays it", async () => {
    const { id, transactionId } = await give(25);
    const key = randomUUID();
    loseNextRefundAnswer = true;
    const lost = await refund(id, { amount: 7 }, key);
    expect(lost.statusCode).toBe(503);
    expect(lost.json()).toEqual({ success: false, error: REFUND_OUTCOME_UNKNOWN_MESSAGE });
    expect(await refundRows(id)).toEqual([expect.objectContaining({ status: 'pending', amountCents: 700, gatewayRefundId: null, idempotencyKey: key })]);
    expect(await donationRow(id)).toMatchObject({ status: 'succeeded', refundedCents: 0 });
    expect(gatewayRefundsOf(transactionId)).toHaveLength(1);

    // Pending, it is no refunded money but counts against what is left; the retry is told it is being settled.
    const settling = await refund(id, { amount: 7 }, key);
    expect(settling.statusCode).toBe(503);
    expect(settling.json()).toEqual({ success: false, error: REFUND_BEING_SETTLED_MESSAGE });
    expect((await refund(id, { amount: 25 })).json()).toMatchObject({ fieldErrors: { amount: amountTooLargeMessage(1800) } });
    expect(await stats()).toMatchObject({ totalRaised: 25 });

    expect((await t.reconcile()).refunds).toEqual({ succeeded: 1, failed: 0, unresolved: 0 });
    const retried = await refund(id, { amount: 7 }, key);
    expect(retried.statusCode).toBe(200);
    expect(retried.headers['idempotent-replayed']).toBe('true');
    const [made] = gatewayRefundsOf(transactionId);
    expect(made?.idempotencyKey).toBe(gatewayRefundKey(id, key, 700));
    expect(retried.json()).toMatchObject({ refund: { gatewayRefundId: made?.refund.refundId, amount: 7 }, donation: { refunded: 7 } });
    expect(gatewayRefundsOf(transactionId)).toHaveLength(1);
    expect(await donationRow(id)).toMatchObject({ status: 'succeeded', refundedCents: 700 });
    expect((await t.reconcile()).refunds).toEqual({ succeeded: 0, failed: 0, unresolved: 0 });
  });

  it("the gateway's refusal (refunded already outside the site) is a 409 with its code, recorded as a failed refund that counts for nothing; the same key answers it again", async () => {
    const { id, transactionId } = await give(25);
    await testGateway.refund({ transactionId, idempotencyKey: `dashboard-${transactionId}` });
    const key = randomUUID();
    const refused = await refund(id, { amount: 5 }, key);
    expect(refused.statusCode).toBe(409);
    expect(refused.json<{ error: string }>().error).toMatch(/^The payment gateway refused the refund \(charge_already_refunded\): /);
    expect(await donationRow(id)).toMatchObject({ status: 'succeeded', refundedCents: 0 });
    expect(await refundRows(id)).toEqual([expect.objectContaining({ status: 'failed', failureCode: 'charge_already_refunded', gatewayRefundId: null })]);
    expect((await refund(id, { amount: 5 }, key)).json()).toEqual(refused.json());
    expect(gatewayRefundsOf(transactionId)).toHaveLength(1);
  });
});
