import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS, CSRF_HEADER_NAME } from '../../shared/api';
import { createLogger } from './logger';
import { createTestApp, validSubmission, type TestApp } from '../testing/test-app';

/**
 * Issue #2: "The full card number and the CVV are never stored and never logged (pino redaction on
 * request bodies), not even in test mode." The app logs at trace level into memory, and no line may
 * hold a card number or the CVV.
 */

const lines: string[] = [];
const memory = new Writable({
  write(chunk: Buffer, _encoding, callback) {
    lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    callback();
  },
});
const logger = createLogger({ logLevel: 'trace' }, memory);

const PANS = ['4242424242424242', '4000000000000002', '4242424242424241', '4111111111111111'];
const CVV = '7391';
// The CVV as a value of its own, not digits inside a timestamp or a duration.
const CVV_PATTERN = new RegExp(`(?<![\\d.])${CVV}(?!\\d)`);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ logger });
});
afterAll(async () => {
  await t?.close();
});

function expectNoCardData(logLines: readonly string[]) {
  for (const line of logLines) {
    for (const pan of PANS) expect(line, 'a log line holds a card number').not.toContain(pan);
    expect(line, 'a log line holds the CVV').not.toMatch(CVV_PATTERN);
  }
}

describe('logs', () => {
  it('never hold the card number or CVV of any request, whatever its outcome', async () => {
    lines.length = 0;
    const csrf = await t.csrf();
    const outcomes = [
      await t.postDonation(validSubmission({}, { number: PANS[0], cvv: CVV })),
      await t.postDonation(validSubmission({}, { number: PANS[1], cvv: CVV })),
      await t.postDonation(validSubmission({}, { number: PANS[2], cvv: CVV })),
      await t.postDonation(validSubmission({}, { number: PANS[3], cvv: CVV })),
      await t.postDonation({ ...validSubmission({}, { cvv: CVV }), [PANS[0] ?? '']: CVV }),
      await t.postDonation(validSubmission({}, { cvv: CVV }), null),
      await t.app.inject({
        method: 'POST',
        url: API_PATHS.processDonation,
        headers: { cookie: csrf.cookie, [CSRF_HEADER_NAME]: csrf.token, 'content-type': 'application/json' },
        payload: `{"creditCard":{"number":"${PANS[0]}","cvv":"${CVV}"`,
      }),
    ].map((response) => response.statusCode);
    expect(outcomes).toEqual([200, 402, 400, 402, 400, 403, 400]);

    expect(lines.length).toBeGreaterThan(10);
    expectNoCardData(lines);
  });

  it('record one structured event per donation outcome, with brand and last4 but no card data', async () => {
    lines.length = 0;
    await t.postDonation(validSubmission({ amount: 12.5 }, { number: PANS[0], cvv: CVV }));
    await t.postDonation(validSubmission({ amount: 30 }, { number: PANS[1], cvv: CVV }));
    const events = lines.map((line) => JSON.parse(line)).filter((entry) => entry.donation);
    expect(events).toHaveLength(2);
    expect(events[0]).toMatchObject({
      msg: 'Donation succeeded',
      donation: { status: 'succeeded', amountCents: 1250, cardBrand: 'visa', last4: '4242', isTestPayment: true },
    });
    expect(events[0].donation.donationId).toMatch(/^[0-9a-f-]{36}$/);
    expect(events[1]).toMatchObject({
      msg: 'Donation declined',
      donation: { status: 'failed', amountCents: 3000, declineCode: 'card_declined', last4: '0002' },
    });
    expectNoCardData(lines);
  });

  it('redact card fields even when code logs a submission body directly', () => {
    lines.length = 0;
    const body = validSubmission({}, { number: PANS[0], cvv: CVV });
    logger.info({ req: { body } }, 'request body');
    logger.info({ request: { body } }, 'request body');
    logger.info({ body }, 'body');
    logger.info(body, 'submission');
    logger.info({ submission: body }, 'nested submission');
    logger.info({ charge: { card: { number: PANS[0], cvc: CVV } } }, 'charge');
    logger.info({ card: { number: PANS[0], cvc: CVV } }, 'card');
    expect(lines).toHaveLength(7);
    expectNoCardData(lines);
    for (const line of lines) expect(line).toContain('[Redacted]');
  });
});

describe('the links that work without an account (receipts, manage links)', () => {
  it('are logged with their token masked, whatever the answer', async () => {
    lines.length = 0;
    const token = 'Zm9vYmFy.1795000000.c2VjcmV0LXNpZ25hdHVyZS12YWx1ZQ';
    const urls = [`/donate/manage/${token}`, `/api/recurring/manage/${token}`, `/api/recurring/manage/${token}/confirm-payment`, `/api/receipts/pdf/${token}?download=1`];
    for (const url of urls) await t.app.inject({ method: 'GET', url });
    const requests = lines.filter((line) => line.includes('"msg":"incoming request"'));
    expect(requests).toHaveLength(urls.length);
    for (const line of lines) expect(line, 'a log line holds a token').not.toContain(token);
    expect(requests.map((line) => (JSON.parse(line) as { req: { url: string } }).req.url)).toEqual([
      '/donate/manage/[token]',
      '/api/recurring/manage/[token]',
      '/api/recurring/manage/[token]/confirm-payment',
      '/api/receipts/pdf/[token]?download=1',
    ]);
  });
});
