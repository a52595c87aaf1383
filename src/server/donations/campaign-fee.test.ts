import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { API_PATHS, CreatePaymentIntentSuccessSchema, ProcessDonationSuccessSchema } from '../../shared/api';
import { DEFAULT_FEE_COVERAGE, totalCoveringFeeCents } from '../../shared/fee-coverage';
import { formatDollars } from '../../shared/money';
import { serverI18n } from '../i18n/catalogues';
import { donations } from '../db/schema';
import { AMOUNT_MISMATCH_MESSAGE } from '../http/errors';
import type { ChargeRequest, PaymentGateway } from '../payments/gateway';
import { createTestGateway } from '../payments/test-gateway';
import { loadConfig } from '../platform/config';
import { cardlessDetails, createTestApp, validSubmission, type TestApp } from '../testing/test-app';

/**
 * Campaign links and fee coverage on the donation routes (issue #23, sections 1 and 2), through app.inject on the real
 * app, database and test gateway: the fee's rounding at the amounts, the total the gateway is asked to charge,
 * a fee or total sent by the browser ignored, and a campaign recorded only when known (CAMPAIGNS, made live campaigns at start: decision 0101).
 */

/** The amounts each charge of the test gateway was asked for, in cents, in order. */
const chargedCents: number[] = [];

/** The real test gateway, noting the amount of each charge and intent it is asked for. */
function notingGateway(): PaymentGateway {
  const inner = createTestGateway();
  return Object.assign(Object.create(inner) as PaymentGateway, {
    charge: (request: ChargeRequest) => {
      chargedCents.push(request.amountCents);
      return inner.charge(request);
    },
  });
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ gateway: notingGateway(), env: { CAMPAIGNS: 'spring-appeal, Reef-Week-2026' } });
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  await t.reset();
  chargedCents.length = 0;
});

/** The only donation row. */
async function onlyDonation() {
  const rows = await t.db.select().from(donations);
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

describe('the fee a donor covers (issue #23: total = (gift + 30 cents) / (1 - 2.9 %), rounded up to the cent)', () => {
  it.each([
    [1, 134],
    [5, 546],
    [50, 5181],
    [999.99, 103017],
    [100_000, 10298693],
  ])('a gift of $%d is charged %d cents, and the covered fee is recorded beside it', async (giftDollars, totalCents) => {
    const giftCents = Math.round(giftDollars * 100);
    expect(totalCoveringFeeCents(giftCents, DEFAULT_FEE_COVERAGE)).toBe(totalCents);
    // What the charity receives after the processor's fee is at least the gift, and one cent less would not be.
    expect(totalCents - (totalCents * 2.9) / 100 - 30).toBeGreaterThanOrEqual(giftCents);
    expect(totalCents - 1 - ((totalCents - 1) * 2.9) / 100 - 30).toBeLessThan(giftCents);

    const response = await t.postDonation(validSubmission({ amount: giftDollars, coverFee: true }));
    expect(response.statusCode, response.body).toBe(200);
    expect(ProcessDonationSuccessSchema.parse(response.json()).data).toMatchObject({
      amount: totalCents / 100,
      feeCovered: (totalCents - giftCents) / 100,
    });
    expect(chargedCents).toEqual([totalCents]);
    expect(await onlyDonation()).toMatchObject({ status: 'succeeded', amountCents: totalCents, feeCoveredCents: totalCents - giftCents });
  });

  it('is not added unless the donor asks: coverFee defaults to false', async () => {
    const response = await t.postDonation(validSubmission({ amount: 50 }));
    expect(response.statusCode).toBe(200);
    expect(ProcessDonationSuccessSchema.parse(response.json()).data).not.toHaveProperty('feeCovered');
    expect(chargedCents).toEqual([5000]);
    expect(await onlyDonation()).toMatchObject({ amountCents: 5000, feeCoveredCents: 0 });
  });

  it("labels the checkbox with the fee, as the issue words it: 'Add $1.81 to cover the card processing fee'", () => {
    // The form's label comes from the catalogue (fee.coverLabel); the English one keeps the words.
    const i18n = serverI18n('en');
    expect(i18n._('fee.coverLabel', { fee: formatDollars(1.81) })).toBe('Add $1.81 to cover the card processing fee');
  });

  it('is offered as FEE_COVERAGE_PERCENT and FEE_COVERAGE_FIXED_CENTS say, and not at all with FEE_COVERAGE=off', () => {
    expect(loadConfig({}).site.feeCoverage).toEqual({ percent: 2.9, fixedCents: 30 });
    expect(loadConfig({ FEE_COVERAGE_PERCENT: '2.2', FEE_COVERAGE_FIXED_CENTS: '0' }).site.feeCoverage).toEqual({ percent: 2.2, fixedCents: 0 });
    expect(loadConfig({ FEE_COVERAGE: 'off' }).site.feeCoverage).toBeNull();
    expect(() => loadConfig({ FEE_COVERAGE_PERCENT: '100' })).toThrow(/FEE_COVERAGE_PERCENT/);
    expect(() => loadConfig({ FEE_COVERAGE_FIXED_CENTS: '0.5' })).toThrow(/FEE_COVERAGE_FIXED_CENTS/);
  });
});

describe('a fee or total sent by the browser (issue #23: the server computes the fee itself)', () => {
  it('is ignored on process-donation: the gift alone without coverFee, the computed total with it', async () => {
    const tampered = { ...validSubmission({ amount: 50 }), fee: 0, feeCoveredCents: 5000, total: 0.5, totalCents: 50, amountCents: 1 };
    expect((await t.postDonation(tampered)).statusCode).toBe(200);
    expect(await onlyDonation()).toMatchObject({ amountCents: 5000, feeCoveredCents: 0 });

    await t.reset();
    const covering = { ...validSubmission({ amount: 50, coverFee: true }), feeCovered: 0.01, totalAmount: 50 };
    expect((await t.postDonation(covering)).statusCode).toBe(200);
    expect(chargedCents).toEqual([5000, 5181]);
    expect(await onlyDonation()).toMatchObject({ amountCents: 5181, feeCoveredCents: 181 });
  });

  it('is ignored on create-payment-intent: the intent is of the total the server computes', async () => {
    const { coverFee: _choice, ...details } = cardlessDetails(validSubmission({ amount: 50 }));
    const response = await t.post(API_PATHS.createPaymentIntent, { amount: 50, coverFee: true, total: 50, fee: 0, donation: { ...details, feeCoveredCents: 0 } });
    expect(response.statusCode, response.body).toBe(200);
    expect(CreatePaymentIntentSuccessSchema.parse(response.json()).data.amount).toBe(51.81);
    expect(await onlyDonation()).toMatchObject({ status: 'pending', amountCents: 5181, feeCoveredCents: 181 });
  });

  it('cannot make confirm-donation record a total the intent was not made for: 400, nothing recorded', async () => {
    const { coverFee: _choice, ...details } = cardlessDetails(validSubmission({ amount: 50 }));
    const created = await t.post(API_PATHS.createPaymentIntent, { amount: 50, coverFee: false, donation: details });
    const { paymentIntentId } = CreatePaymentIntentSuccessSchema.parse(created.json()).data;
    const refused = await t.post(API_PATHS.confirmDonation, {
      paymentIntentId,
      donationData: { ...validSubmission({ amount: 50, coverFee: true }), feeCoveredCents: 0, total: 50 },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ success: false, error: AMOUNT_MISMATCH_MESSAGE });
    expect(await onlyDonation()).toMatchObject({ status: 'pending', amountCents: 5000 });

    const confirmed = await t.post(API_PATHS.confirmDonation, { paymentIntentId, donationData: { ...validSubmission({ amount: 50 }), total: 51.81 } });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(await onlyDonation()).toMatchObject({ status: 'succeeded', amountCents: 5000, feeCoveredCents: 0 });
  });

  it('is recorded on the donation when the intent covered it: confirm-donation with coverFee records the same total', async () => {
    const { coverFee: _choice, ...details } = cardlessDetails(validSubmission({ amount: 5 }));
    const created = await t.post(API_PATHS.createPaymentIntent, { amount: 5, coverFee: true, donation: details });
    const { paymentIntentId } = CreatePaymentIntentSuccessSchema.parse(created.json()).data;
    const confirmed = await t.post(API_PATHS.confirmDonation, { paymentIntentId, donationData: validSubmission({ amount: 5, coverFee: true }) });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(ProcessDonationSuccessSchema.parse(confirmed.json()).data).toMatchObject({ amount: 5.46, feeCovered: 0.46 });
    expect(await onlyDonation()).toMatchObject({ status: 'succeeded', amountCents: 546, feeCoveredCents: 46 });
  });
});

describe("the campaign of the donor's link (issue #23: an unknown or malformed slug is recorded as none)", () => {
  it.each([
    ['spring-appeal', 'spring-appeal'],
    ['Spring-Appeal', 'spring-appeal'],
    ['reef-week-2026', 'reef-week-2026'],
    ['autumn-gala', null],
    ['spring appeal', null],
    ['spring_appeal', null],
    ['<script>', null],
    ['a'.repeat(65), null],
    ['', null],
  ])('%j is recorded as %j, and the gift goes through', async (campaign, recorded) => {
    const response = await t.postDonation(validSubmission({ campaign }));
    expect(response.statusCode, response.body).toBe(200);
    expect(await onlyDonation()).toMatchObject({ status: 'succeeded', campaign: recorded });
  });

  it('is none when the link had no campaign', async () => {
    expect((await t.postDonation(validSubmission())).statusCode).toBe(200);
    expect((await onlyDonation()).campaign).toBeNull();
  });

  it('is recorded through the payment-intent routes too', async () => {
    const details = cardlessDetails(validSubmission({ campaign: 'SPRING-appeal' }));
    const created = await t.post(API_PATHS.createPaymentIntent, { amount: 25, donation: details });
    expect(created.statusCode, created.body).toBe(200);
    const [row] = await t.db.select().from(donations).where(eq(donations.status, 'pending'));
    expect(row?.campaign).toBe('spring-appeal');
  });

  it('longer than 200 characters is bad input: 400 with fieldErrors, nothing written or charged', async () => {
    const response = await t.postDonation(validSubmission({ campaign: 'x'.repeat(201) }));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, fieldErrors: { campaign: expect.any(String) } });
    expect(await t.countDonations()).toBe(0);
    expect(chargedCents).toEqual([]);
  });

  it('CAMPAIGNS refuses a slug that is not letters, digits and dashes', () => {
    expect(loadConfig({ CAMPAIGNS: 'spring-appeal' }).campaigns).toEqual(['spring-appeal']);
    expect(loadConfig({}).campaigns).toEqual([]);
    expect(() => loadConfig({ CAMPAIGNS: 'spring appeal' })).toThrow(/CAMPAIGNS/);
  });
});

describe('with FEE_COVERAGE=off (issue #23: the box is hidden)', () => {
  let off: TestApp;
  beforeAll(async () => {
    off = await createTestApp({ env: { FEE_COVERAGE: 'off' } });
  });
  afterAll(async () => {
    await off?.close();
  });

  it('tells the page no fee is offered, and charges the gift alone even when coverFee is sent', async () => {
    const page = await off.app.inject({ method: 'GET', url: '/donate' });
    const meta = /<meta name="site-config" content="([^"]*)">/.exec(page.body)?.[1] ?? '';
    expect(JSON.parse(meta.replaceAll('&quot;', '"'))).toMatchObject({ feeCoverage: null });

    const response = await off.postDonation(validSubmission({ amount: 50, coverFee: true }));
    expect(response.statusCode).toBe(200);
    expect(ProcessDonationSuccessSchema.parse(response.json()).data).toMatchObject({ amount: 50 });
    const [row] = await off.db.select().from(donations);
    expect(row).toMatchObject({ amountCents: 5000, feeCoveredCents: 0 });
  });
});
