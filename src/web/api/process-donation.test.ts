import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  API_PATHS,
  CSRF_HEADER_NAME,
  DONATION_FAILED_FALLBACK,
  IDEMPOTENCY_KEY_HEADER,
  TOO_MANY_ATTEMPTS_MESSAGE,
} from '../../shared/api';
import { type DonationSubmission, EMPTY_DONATION_FORM, toDonationSubmission } from '../../shared/donation';
import { apiFetch, isRelativeUrl } from './api-client';
import { processDonation } from './process-donation';

const submission: DonationSubmission = toDonationSubmission(
  { amount: 25, frequency: 'monthly', cause: 'research-science' },
  { ...EMPTY_DONATION_FORM, donorName: 'Jane', donorEmail: 'jane@example.org', cardNumber: '4242 4242 4242 4242' },
);

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

describe('web API client', () => {
  const fetchMock = vi.fn<typeof fetch>();

  beforeEach(() => {
    vi.stubGlobal('document', { cookie: 'theme=dark; XSRF-TOKEN=token%2Fvalue' });
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    fetchMock.mockReset();
  });

  function sentHeaders(call = 0): Headers {
    return new Headers(fetchMock.mock.calls[call]?.[1]?.headers);
  }

  it('tells relative URLs from absolute and protocol-relative ones', () => {
    expect(isRelativeUrl('/api/process-donation')).toBe(true);
    expect(isRelativeUrl('api/x')).toBe(true);
    expect(isRelativeUrl('https://evil.example/api')).toBe(false);
    expect(isRelativeUrl('//evil.example/api')).toBe(false);
  });

  it('echoes the XSRF-TOKEN cookie on a relative POST with a JSON body', async () => {
    fetchMock.mockResolvedValue(jsonResponse(200, {}));
    await apiFetch('/api/x', { method: 'post', json: { a: 1 } });
    const init = fetchMock.mock.calls[0]?.[1];
    expect(init?.method).toBe('POST');
    expect(init?.body).toBe('{"a":1}');
    expect(sentHeaders().get(CSRF_HEADER_NAME)).toBe('token/value');
    expect(sentHeaders().get('Content-Type')).toBe('application/json');
  });

  it('sends no CSRF header on GET/HEAD or to an absolute URL', async () => {
    fetchMock.mockImplementation(async () => jsonResponse(200, {}));
    await apiFetch('/api/x');
    await apiFetch('/api/x', { method: 'HEAD' });
    await apiFetch('https://other.example/api/x', { method: 'POST' });
    for (const call of [0, 1, 2]) expect(sentHeaders(call).has(CSRF_HEADER_NAME)).toBe(false);
  });

  it('returns the donation result on success', async () => {
    const data = { amount: 25, donorName: 'Jane', transactionId: 'txn_1', isTestPayment: true };
    fetchMock.mockResolvedValue(jsonResponse(200, { success: true, data }));
    await expect(processDonation(submission, 'key-1')).resolves.toEqual(data);
    expect(fetchMock.mock.calls[0]?.[0]).toBe(API_PATHS.processDonation);
    expect(sentHeaders().get(IDEMPOTENCY_KEY_HEADER)).toBe('key-1');
  });

  it('says which failures may be retried with the same idempotency key', async () => {
    const outcomes: Array<[number, boolean]> = [
      [400, false], [402, false], [403, false], [422, false], [409, true], [500, true], [503, true],
    ];
    for (const [status, retryable] of outcomes) {
      fetchMock.mockResolvedValueOnce(jsonResponse(status, { success: false, error: `status ${status}` }));
      await expect(processDonation(submission, 'key-1')).rejects.toMatchObject({ message: `status ${status}`, retryable });
    }
  });

  it("throws the server's error text on failure", async () => {
    fetchMock.mockResolvedValue(jsonResponse(402, { success: false, error: 'Your card was declined.' }));
    await expect(processDonation(submission, 'key-1')).rejects.toThrow('Your card was declined.');
  });

  it("carries a 400 answer's field errors; malformed ones never cost the message (issue #2)", async () => {
    const fieldErrors = { 'creditCard.number': 'Please enter a valid card number' };
    fetchMock.mockResolvedValueOnce(jsonResponse(400, { success: false, error: 'Please check the highlighted fields.', fieldErrors }));
    await expect(processDonation(submission, 'key-1')).rejects.toMatchObject({
      message: 'Please check the highlighted fields.',
      retryable: false,
      fieldErrors,
    });
    fetchMock.mockResolvedValueOnce(jsonResponse(400, { success: false, error: 'Please check the highlighted fields.', fieldErrors: ['x'] }));
    await expect(processDonation(submission, 'key-1')).rejects.toMatchObject({ message: 'Please check the highlighted fields.', fieldErrors: {} });
  });

  it('throws the card-testing 429 message, not to be retried with the same key (issue #4)', async () => {
    fetchMock.mockResolvedValue(jsonResponse(429, { success: false, error: TOO_MANY_ATTEMPTS_MESSAGE }));
    await expect(processDonation(submission, 'key-1')).rejects.toMatchObject({ message: TOO_MANY_ATTEMPTS_MESSAGE, retryable: false });
  });

  it('throws the fallback when there is no body or no message', async () => {
    fetchMock.mockResolvedValueOnce(new Response(null, { status: 500 }));
    await expect(processDonation(submission, 'key-1')).rejects.toThrow(DONATION_FAILED_FALLBACK);
    fetchMock.mockResolvedValueOnce(jsonResponse(200, { success: false }));
    await expect(processDonation(submission, 'key-1')).rejects.toThrow(DONATION_FAILED_FALLBACK);
  });

  it('lets network errors propagate', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    await expect(processDonation(submission, 'key-1')).rejects.toThrow('Failed to fetch');
  });
});
