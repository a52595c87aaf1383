import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import type Stripe from 'stripe';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS, CreatePaymentIntentSuccessSchema } from '../../src/shared/api';
import { adminDonationRefundPath } from '../../src/server/admin/paths';
import { gatewayRefundKey } from '../../src/server/admin/refund';
import { RefundAnswerSchema } from '../../src/server/admin/refund-route';
import { REFUND_NOT_MADE_CODE } from '../../src/server/donations/reconciler';
import { donationRefunds, donations, mailOutbox, receipts } from '../../src/server/db/schema';
import { cardlessDetails, validSubmission, type TestApp } from '../../src/server/testing/test-app';
import type { StripeApiStandIn } from '../stand-ins/stripe-api/index.js';
import { confirmInBrowser, useStripeModeApp } from './stripe-mode';

/**
 * An operator's refund in Stripe mode against the Stripe API stand-in (issue #14; decision 0058): the route refunds the
 * donation's charge (`charge=ch_...`) under an idempotency key derived from the operator's, in part then the rest; a
 * repeated key asks Stripe nothing more; Stripe's refusals (refunded in the Dashboard already, disputed) are a 409 with
 * Stripe's code, and nothing is recorded. Runs on the embedded PostgreSQL test server, and on DATABASE_URL's when it is set.
 */

const ADMIN_TOKEN = 'correct-horse-battery-staple-0123456789';
const app = useStripeModeApp({ webhookSecret: 'whsec_test_reef_donations_refunds', env: { ADMIN_TOKEN } });
let standIn: StripeApiStandIn;
let t: TestApp;
let stripe: Stripe;
beforeAll(() => {
  ({ standIn, t, stripe } = app);
});

/** A gift of `amount` dollars paid in the browser and confirmed by the page; resolves with its donation row. */
async function give(amount: number) {
  const submission = validSubmission({ amount });
  const created = await app.post(API_PATHS.createPaymentIntent, { amount, donation: cardlessDetails(submission) });
  const { paymentIntentId, clientSecret } = CreatePaymentIntentSuccessSchema.parse(created.json()).data;
  await confirmInBrowser(standIn, paymentIntentId, clientSecret, '4242424242424242');
  const confirmed = await app.post(API_PATHS.confirmDonation, { paymentIntentId, donationData: { ...cardlessDetails(submission), amount } });
  expect(confirmed.statusCode).toBe(200);
  const [donation] = await t.db.select().from(donations).where(eq(donations.paymentIntentId, paymentIntentId));
  if (!donation?.gatewayTransactionId) throw new Error('The donation was not recorded as paid');
  return { ...donation, transactionId: donation.gatewayTransactionId };
}

/** POSTs a refund of `donationId` (`body` `{}`: all that is left) with the Idempotency-Key `key`. */
const refund = (donationId: string, body: object = {}, key = randomUUID()) =>
  t.app.inject({
    method: 'POST',
    url: adminDonationRefundPath(donationId),
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'idempotency-key': key },
    payload: body,
  });

const stripeRefundsOf = (chargeId: string) => standIn.refunds.filter((made) => made.charge === chargeId);

describe('a refund in Stripe mode', () => {
  it("refunds the charge in part then the rest, once per key; the donation ends refunded with its receipt void", async () => {
    const donation = await give(40);
    const key = randomUUID();
    const part = await refund(donation.id, { amount: 15 }, key);
    expect(part.statusCode).toBe(200);
    const partBody = RefundAnswerSchema.parse(part.json());
    expect(partBody).toMatchObject({ refund: { amount: 15 }, donation: { status: 'succeeded', refunded: 15 } });
    expect(stripeRefundsOf(donation.transactionId)).toEqual([expect.objectContaining({ id: partBody.refund.gatewayRefundId, amount: 1500, status: 'succeeded' })]);

    const again = await refund(donation.id, { amount: 15 }, key);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(stripeRefundsOf(donation.transactionId)).toHaveLength(1);
    expect((await t.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'partial_refund'))).map((row) => row.refundId)).toEqual([partBody.refund.id]);

    const rest = await refund(donation.id);
    expect(rest.json()).toMatchObject({ refund: { amount: 25 }, donation: { status: 'refunded', amount: 40, refunded: 40 } });
    expect(stripeRefundsOf(donation.transactionId).map((made) => made.amount)).toEqual([1500, 2500]);
    expect(await stripe.charges.retrieve(donation.transactionId)).toMatchObject({ amount_refunded: 4000, refunded: true });
    const [receipt] = await t.db.select().from(receipts).where(eq(receipts.donationId, donation.id));
    expect(receipt?.voidedAt).toBeInstanceOf(Date);
  });

  it("Stripe's refusal (refunded in the Dashboard already; disputed) is a 409 with Stripe's code, recorded as failed refunds that count for nothing", async () => {
    const dashboard = await give(20);
    await stripe.refunds.create({ charge: dashboard.transactionId });
    const refused = await refund(dashboard.id, { amount: 5 });
    expect(refused.statusCode).toBe(409);
    expect(refused.json<{ error: string }>().error).toMatch(/^The payment gateway refused the refund \(charge_already_refunded\): /);

    const disputed = await give(20);
    standIn.createDispute(disputed.paymentIntentId ?? '');
    const refusedDispute = await refund(disputed.id);
    expect(refusedDispute.statusCode).toBe(409);
    expect(refusedDispute.json<{ error: string }>().error).toContain('(charge_disputed)');

    expect((await t.db.select().from(donationRefunds)).map((row) => [row.status, row.failureCode]).sort()).toEqual([
      ['failed', 'charge_already_refunded'],
      ['failed', 'charge_disputed'],
    ]);
    expect((await t.db.select({ refundedCents: donations.refundedCents }).from(donations)).map((row) => row.refundedCents)).toEqual([0, 0]);
  });
});

describe('a refund whose settlement fails after Stripe made it (issue #32, part 1; decision 0095)', () => {
  /** Makes every settlement of a refund fail (a trigger refusing the pending row's update) while `during` runs. */
  async function settlementsFailing<T>(during: () => Promise<T>): Promise<T> {
    await t.db.execute(
      sql.raw(`CREATE FUNCTION refuse_refund_settlement() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'settlement refused for the test'; END $$;
      CREATE TRIGGER refuse_refund_settlement BEFORE UPDATE ON donation_refunds FOR EACH ROW EXECUTE FUNCTION refuse_refund_settlement();`),
    );
    try {
      return await during();
    } finally {
      await t.db.execute(sql.raw('DROP TRIGGER refuse_refund_settlement ON donation_refunds; DROP FUNCTION refuse_refund_settlement();'));
    }
  }
  const rowsOf = (donationId: string) => t.db.select().from(donationRefunds).where(eq(donationRefunds.donationId, donationId));

  it("is pending; the reconciler finds Stripe's refund by its metadata and records it once; its refund.created changes nothing; the retry replays it", async () => {
    const donation = await give(30);
    const key = randomUUID();
    const lost = await settlementsFailing(() => refund(donation.id, { amount: 10 }, key));
    expect(lost.statusCode).toBe(503);
    const [made] = stripeRefundsOf(donation.transactionId);
    expect(made?.metadata).toMatchObject({ refund_key: gatewayRefundKey(donation.id, key, 1000), idempotency_key: key });
    expect(await rowsOf(donation.id)).toEqual([expect.objectContaining({ status: 'pending', amountCents: 1000 })]);

    expect((await t.reconcile()).refunds).toEqual({ succeeded: 1, failed: 0, unresolved: 0 });
    expect(await rowsOf(donation.id)).toEqual([expect.objectContaining({ status: 'succeeded', gatewayRefundId: made?.id, idempotencyKey: key })]);
    await app.deliverEvent('refund.created', donation.paymentIntentId ?? '');
    await app.deliverEvent('charge.refunded', donation.paymentIntentId ?? '');
    expect(await rowsOf(donation.id)).toHaveLength(1);
    expect((await t.db.select().from(donations).where(eq(donations.id, donation.id)))[0]).toMatchObject({ status: 'succeeded', refundedCents: 1000 });

    const retried = await refund(donation.id, { amount: 10 }, key);
    expect(retried.statusCode).toBe(200);
    expect(retried.json()).toMatchObject({ refund: { gatewayRefundId: made?.id, amount: 10 }, donation: { refunded: 10 } });
    expect(stripeRefundsOf(donation.transactionId)).toHaveLength(1);
  });

  it('is settled by its refund.created when that comes first; the reconciler then has nothing to do', async () => {
    const donation = await give(30);
    const key = randomUUID();
    expect((await settlementsFailing(() => refund(donation.id, { amount: 12 }, key))).statusCode).toBe(503);
    await app.deliverEvent('refund.created', donation.paymentIntentId ?? '');
    const [made] = stripeRefundsOf(donation.transactionId);
    expect(await rowsOf(donation.id)).toEqual([expect.objectContaining({ status: 'succeeded', gatewayRefundId: made?.id, idempotencyKey: key, amountCents: 1200 })]);
    expect((await t.reconcile()).refunds).toEqual({ succeeded: 0, failed: 0, unresolved: 0 });
    expect((await t.db.select().from(donations).where(eq(donations.id, donation.id)))[0]).toMatchObject({ refundedCents: 1200 });
    expect((await refund(donation.id, { amount: 12 }, key)).headers['idempotent-replayed']).toBe('true');
  });

  it('a refund Stripe never made (its request cut before Stripe) is settled failed by the reconciler, and nothing is counted', async () => {
    const donation = await give(30);
    const key = randomUUID();
    // NOTE: a pending row whose request never reached Stripe, as a crash right after its commit leaves it.
    await t.db.insert(donationRefunds).values({
      donationId: donation.id,
      amountCents: 500,
      gateway: 'stripe',
      idempotencyKey: key,
      gatewayIdempotencyKey: gatewayRefundKey(donation.id, key, 500),
      status: 'pending',
    });
    expect((await t.reconcile()).refunds).toEqual({ succeeded: 0, failed: 1, unresolved: 0 });
    expect(await rowsOf(donation.id)).toEqual([expect.objectContaining({ status: 'failed', failureCode: REFUND_NOT_MADE_CODE })]);
    expect((await refund(donation.id, { amount: 5 }, key)).statusCode).toBe(409);
    expect(stripeRefundsOf(donation.transactionId)).toEqual([]);
  });
});
