import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { detectCardBrand } from '../../shared/card';
import { createGateway } from './create-gateway';
import type { ChargeRequest } from './gateway';
import { createTestGateway, IdempotencyKeyReuseError } from './test-gateway';

// The tables of /shared/test-cards.md, written out again here so the test checks the implementation against the document.
const SUCCESS_NUMBERS = [
  '4242 4242 4242 4242',
  '4000 0566 5566 5556',
  '5555 5555 5555 4444',
  '2223 0031 2200 3222',
  '5200 8282 8282 8210',
  '5105 1051 0510 5100',
  '3782 822463 10005',
  '3714 496353 98431',
  '6011 1111 1111 1117',
  '6011 0009 9013 9424',
  '3056 9300 0902 0004',
  '3566 0020 2036 0505',
  '6200 0000 0000 0005',
].map((n) => n.replaceAll(' ', ''));

const DECLINES: Array<[number: string, declineCode: string, message: string]> = [
  ['4000000000000002', 'card_declined', 'Your card was declined.'],
  ['4000000000009995', 'insufficient_funds', 'Your card has insufficient funds.'],
  ['4000000000009987', 'lost_card', 'Your card was declined.'],
  ['4000000000009979', 'stolen_card', 'Your card was declined.'],
  ['4000000000000069', 'expired_card', 'Your card has expired.'],
  ['4000000000000127', 'incorrect_cvc', "Your card's security code is incorrect."],
  ['4000000000000119', 'processing_error', 'An error occurred while processing your card. Try again in a little bit.'],
];

const nextYear = new Date().getFullYear() + 1;
const request = (number: string, card: Partial<ChargeRequest['card']> = {}): ChargeRequest => ({
  amountCents: 2500,
  currency: 'USD',
  card: { number, expiryMonth: 12, expiryYear: nextYear, cvc: '123', ...card },
  description: 'Donation (one-time): Research and Science',
  idempotencyKey: `donation-${randomUUID()}`,
});

describe('createTestGateway', () => {
  const gateway = createTestGateway();

  it('is named test and is in test mode', () => {
    expect(gateway.name).toBe('test');
    expect(gateway.isTestMode).toBe(true);
  });

  it.each(SUCCESS_NUMBERS)('charges the success card %s', async (number) => {
    const result = await gateway.charge(request(number));
    expect(result).toEqual({
      status: 'succeeded',
      transactionId: expect.stringMatching(/^ch_test_[0-9A-Za-z]{24}$/),
      cardBrand: detectCardBrand(number),
      last4: number.slice(-4),
      isTestPayment: true,
    });
  });

  it('takes a 4-digit CVC', async () => {
    const result = await gateway.charge(request('378282246310005', { cvc: '1234' }));
    expect(result.status).toBe('succeeded');
  });

  it.each(DECLINES)('declines %s with %s', async (number, declineCode, message) => {
    expect(await gateway.charge(request(number))).toEqual({ status: 'declined', declineCode, message, isTestPayment: true });
  });

  it('declines any card that is not a test card, saying the site is in test mode', async () => {
    const result = await gateway.charge(request('4111111111111111'));
    expect(result).toMatchObject({ status: 'declined', declineCode: 'test_mode_live_card', isTestPayment: true });
    expect(result.status === 'declined' && result.message).toMatch(/test mode.*only test cards/i);
  });

  it('declines a number that fails Luhn as incorrect_number', async () => {
    expect(await gateway.charge(request('4242424242424241'))).toMatchObject({
      declineCode: 'incorrect_number',
      message: 'Your card number is incorrect.',
    });
  });

  it('declines an expired card and a malformed CVC even for a success number', async () => {
    const now = () => new Date(2030, 5, 15);
    const clocked = createTestGateway({ now });
    expect(await clocked.charge(request('4242424242424242', { expiryMonth: 5, expiryYear: 2030 }))).toMatchObject({
      declineCode: 'expired_card',
    });
    expect(await clocked.charge(request('4242424242424242', { expiryMonth: 6, expiryYear: 2030 }))).toMatchObject({
      status: 'succeeded',
    });
    expect(await gateway.charge(request('4242424242424242', { cvc: '12' }))).toMatchObject({ declineCode: 'incorrect_cvc' });
  });

  it('gives every charge its own transaction id', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 200; i += 1) {
      const result = await gateway.charge(request('4242424242424242'));
      if (result.status === 'succeeded') ids.add(result.transactionId);
    }
    expect(ids.size).toBe(200);
  });

  it.each([0, -100, 12.5, Number.NaN])('refuses an amount of %s cents', async (amountCents) => {
    await expect(gateway.charge({ ...request('4242424242424242'), amountCents })).rejects.toThrow(RangeError);
  });
});

describe('idempotency, as Stripe (issue #3)', () => {
  it('answers a second charge with the same key with the first result, and charges once', async () => {
    const gateway = createTestGateway();
    const first = request('4242424242424242');
    const result = await gateway.charge(first);
    expect(await gateway.charge(first)).toEqual(result);
    expect(gateway.charges()).toHaveLength(1);
  });

  it('charges once for 20 concurrent charges with one key', async () => {
    const gateway = createTestGateway();
    const same = request('4242424242424242');
    const results = await Promise.all(Array.from({ length: 20 }, () => gateway.charge(same)));
    expect(new Set(results.map((r) => (r.status === 'succeeded' ? r.transactionId : r.status)))).toHaveLength(1);
    expect(gateway.charges()).toHaveLength(1);
  });

  it('refuses a key reused with another amount or card, charging nothing', async () => {
    const gateway = createTestGateway();
    const first = request('4242424242424242');
    await gateway.charge(first);
    await expect(gateway.charge({ ...first, amountCents: 9900 })).rejects.toBeInstanceOf(IdempotencyKeyReuseError);
    await expect(gateway.charge({ ...first, card: { ...first.card, number: '5555555555554444' } })).rejects.toBeInstanceOf(
      IdempotencyKeyReuseError,
    );
    expect(gateway.charges()).toHaveLength(1);
  });

  it('says what became of a key: the result, a decline, or not_found', async () => {
    const gateway = createTestGateway();
    const charged = request('4242424242424242');
    const declined = request('4000000000009995');
    const result = await gateway.charge(charged);
    await gateway.charge(declined);
    expect(await gateway.retrieveCharge(charged.idempotencyKey)).toEqual(result);
    expect(await gateway.retrieveCharge(declined.idempotencyKey)).toMatchObject({ status: 'declined', declineCode: 'insufficient_funds' });
    expect(await gateway.retrieveCharge('donation-never-charged')).toEqual({ status: 'not_found' });
  });
});

describe('createGateway', () => {
  it('builds the test gateway for PAYMENT_GATEWAY=test', async () => {
    const { gateway, close } = await createGateway({ paymentGateway: 'test', dataDir: 'memory://', gatewayTimeoutMs: 1000, stripe: undefined });
    expect(gateway.name).toBe('test');
    await close();
  });
});
