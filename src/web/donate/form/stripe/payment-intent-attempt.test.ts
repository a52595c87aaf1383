import { describe, expect, it, vi } from 'vitest';
import type { CreatePaymentIntentRequest } from '../../../../shared/donation';
import { type CreateIntent, createPaymentIntentAttempt } from './payment-intent-attempt';

const request = (donorEmail: string): CreatePaymentIntentRequest => ({
  amount: 25,
  donation: { frequency: 'one-time', cause: 'research-science', donorName: 'Marisol Chan', donorEmail, paymentMethod: 'credit_card' },
});

function creator() {
  let count = 0;
  return vi.fn<CreateIntent>(async (body) => {
    count += 1;
    return { paymentIntentId: `pi_${count}`, clientSecret: `pi_${count}_secret_x`, amount: body.amount, currency: 'USD' };
  });
}

describe('createPaymentIntentAttempt (issue #11)', () => {
  it('keeps the intent while the request is the same, with one idempotency key', async () => {
    const create = creator();
    const attempt = createPaymentIntentAttempt(create);
    const first = await attempt.intentFor(request('a@example.org'));
    expect(await attempt.intentFor(request('a@example.org'))).toBe(first);
    expect(create).toHaveBeenCalledTimes(1);
    expect(create.mock.calls[0]?.[1]).toMatch(/^[0-9a-f]{32}$/);
  });

  it('creates a new intent, with a new key, when the unpaid request changes or the intent is abandoned', async () => {
    const create = creator();
    const attempt = createPaymentIntentAttempt(create);
    const first = await attempt.intentFor(request('a@example.org'));
    const changed = await attempt.intentFor(request('b@example.org'));
    expect(changed.intent.paymentIntentId).not.toBe(first.intent.paymentIntentId);
    attempt.abandon();
    const renewed = await attempt.intentFor(request('b@example.org'));
    expect(renewed.intent.paymentIntentId).toBe('pi_3');
    expect(new Set(create.mock.calls.map(([, key]) => key)).size).toBe(3);
  });

  it('never leaves a paid intent for a new one, until it is unpaid again', async () => {
    const create = creator();
    const attempt = createPaymentIntentAttempt(create);
    await attempt.intentFor(request('a@example.org'));
    attempt.markPaid();
    const paid = await attempt.intentFor(request('changed@example.org'));
    expect(paid).toMatchObject({ paid: true, intent: { paymentIntentId: 'pi_1' } });
    attempt.markUnpaid();
    expect((await attempt.intentFor(request('changed@example.org'))).intent.paymentIntentId).toBe('pi_2');
  });
});
