import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { API_PATHS, IDEMPOTENCY_KEY_HEADER } from '../../shared/api';
import { confirmDonation, createPaymentIntent, type CardlessSubmission } from './payment-intents';

const submission: CardlessSubmission = {
  amount: 25,
  frequency: 'one-time',
  cause: 'research-science',
  donorName: 'Marisol Chan',
  donorEmail: 'marisol@example.org',
  paymentMethod: 'credit_card',
  isAnonymous: false,
};

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

describe('the payment-intent calls (issue #11)', () => {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => {
    vi.stubGlobal('document', { cookie: 'XSRF-TOKEN=token' });
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  it('create-payment-intent sends the amount and details with the key, and returns the intent', async () => {
    const data = { paymentIntentId: 'pi_1', clientSecret: 'pi_1_secret_x', amount: 25, currency: 'USD' };
    fetchMock.mockResolvedValue(jsonResponse(200, { success: true, data }));
    const { amount, ...donation } = submission;
    await expect(createPaymentIntent({ amount, donation }, 'key-1')).resolves.toEqual(data);
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe(API_PATHS.createPaymentIntent);
    expect(JSON.parse(String(init?.body))).toEqual({ amount, donation });
    expect(new Headers(init?.headers).get(IDEMPOTENCY_KEY_HEADER)).toBe('key-1');
  });

  it('confirm-donation returns the result, and names field errors by the submission paths', async () => {
    const result = { amount: 25, donorName: 'Marisol Chan', transactionId: 'ch_1', isTestPayment: true };
    fetchMock.mockResolvedValueOnce(jsonResponse(200, { success: true, data: result }));
    await expect(confirmDonation('pi_1', submission, 'key-2')).resolves.toEqual(result);
    expect(JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body))).toEqual({ paymentIntentId: 'pi_1', donationData: submission });

    const fieldErrors = { 'donationData.donorEmail': 'Please enter a valid email address', paymentIntentId: 'bad id' };
    fetchMock.mockResolvedValueOnce(jsonResponse(400, { success: false, error: 'Please check the highlighted fields.', fieldErrors }));
    await expect(confirmDonation('pi_1', submission, 'key-2')).rejects.toMatchObject({
      status: 400,
      retryable: false,
      fieldErrors: { donorEmail: 'Please enter a valid email address', paymentIntentId: 'bad id' },
    });
  });

  it('a decline of confirm-donation is a 402 with the decline message, not to be retried with the same key', async () => {
    fetchMock.mockResolvedValue(jsonResponse(402, { success: false, error: 'Your card has insufficient funds.' }));
    await expect(confirmDonation('pi_1', submission, 'key-3')).rejects.toMatchObject({
      message: 'Your card has insufficient funds.',
      status: 402,
      retryable: false,
    });
  });
});
