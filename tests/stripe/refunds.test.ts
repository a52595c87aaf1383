import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import { beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS, CreatePaymentIntentSuccessSchema } from '../../src/shared/api';
import { adminDonationRefundPath } from '../../src/server/admin/paths';
import { RefundAnswerSchema } from '../../src/server/admin/refund-route';
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

  it("Stripe's refusal (refunded in the Dashboard already; disputed) is a 409 with Stripe's code, and nothing is recorded", async () => {
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

    expect(await t.db.select().from(donationRefunds)).toEqual([]);
    expect((await t.db.select({ refundedCents: donations.refundedCents }).from(donations)).map((row) => row.refundedCents)).toEqual([0, 0]);
  });
});
