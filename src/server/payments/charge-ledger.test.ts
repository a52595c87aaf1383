import { randomUUID } from 'node:crypto';
import { appendFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openFileChargeLedger, parseLedger } from './charge-ledger';
import { GatewayTimeoutError, type ChargeRequest, type PaymentGateway } from './gateway';
import { createTestGateway } from './test-gateway';
import { withGatewayTimeout } from './with-timeout';

/** The test gateway's durable charge ledger (issue #3: its record of charges outlives the API process). */

let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'charge-ledger-'));
  file = path.join(dir, 'charges.jsonl');
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const PAN = '4242424242424242';
const request = (idempotencyKey: string): ChargeRequest => ({
  amountCents: 2500,
  currency: 'USD',
  card: { number: PAN, expiryMonth: 12, expiryYear: new Date().getFullYear() + 1, cvc: '739' },
  description: 'Donation (one-time): Research and Science',
  idempotencyKey,
});

describe('a file ledger', () => {
  it('keeps charges across a reopen, as if the process had restarted: same key, same result, no new charge', async () => {
    const key = randomUUID();
    const ledger = await openFileChargeLedger(file);
    const first = await createTestGateway({ ledger }).charge(request(key));
    await ledger.close();

    const reopened = await openFileChargeLedger(file);
    const gateway = createTestGateway({ ledger: reopened });
    expect(await gateway.retrieveCharge(key)).toEqual(first);
    expect(await gateway.charge(request(key))).toEqual(first);
    expect(gateway.charges()).toHaveLength(1);
    await reopened.close();
    expect(parseLedger(await readFile(file, 'utf8')).records).toHaveLength(1);
  });

  it('writes concurrent charges in group commits, each line whole, never the card number or CVC', async () => {
    const ledger = await openFileChargeLedger(file);
    const gateway = createTestGateway({ ledger });
    await Promise.all(Array.from({ length: 100 }, () => gateway.charge(request(randomUUID()))));
    await ledger.close();
    const text = await readFile(file, 'utf8');
    const { records } = parseLedger(text);
    expect(records).toHaveLength(100);
    expect(text).not.toContain(PAN);
    // NOTE: the CVC's digits may well appear in a random transaction id or a timestamp; what matters is that no field holds it.
    const fields = ['amountCents', 'chargedAt', 'currency', 'idempotencyKey', 'last4', 'result'];
    for (const record of records) expect(Object.keys(record).sort()).toEqual(fields);
  });

  it('drops an unfinished last line (a write cut by a kill: never acknowledged) and appends after it cleanly', async () => {
    const ledger = await openFileChargeLedger(file);
    await createTestGateway({ ledger }).charge(request(randomUUID()));
    await ledger.close();
    await appendFile(file, '{"idempotencyKey":"donation-cut","amou');

    const reopened = await openFileChargeLedger(file);
    expect(reopened.get('donation-cut')).toBeUndefined();
    await createTestGateway({ ledger: reopened }).charge(request(randomUUID()));
    await reopened.close();
    expect(parseLedger(await readFile(file, 'utf8')).records).toHaveLength(2);
  });

  it('refuses to open a ledger with a corrupt line in the middle', async () => {
    await appendFile(file, 'not json\n{}\n');
    await expect(openFileChargeLedger(file)).rejects.toThrow(/corrupt at line 1/);
  });
});

describe('withGatewayTimeout', () => {
  it('rejects a call that takes longer than the timeout with GatewayTimeoutError, and passes quick ones through', async () => {
    const never = () => new Promise<never>(() => {});
    const hanging: PaymentGateway = {
      ...createTestGateway(),
      charge: never,
      createPaymentIntent: never,
      retrievePaymentIntent: never,
      confirmPaymentIntent: never,
      refund: never,
    };
    const gateway = withGatewayTimeout(hanging, 20);
    await expect(gateway.charge(request(randomUUID()))).rejects.toBeInstanceOf(GatewayTimeoutError);
    await expect(gateway.createPaymentIntent({ ...request('k'), metadata: {} })).rejects.toBeInstanceOf(GatewayTimeoutError);
    await expect(gateway.retrievePaymentIntent('pi_x')).rejects.toBeInstanceOf(GatewayTimeoutError);
    await expect(gateway.confirmPaymentIntent('pi_x', request('k').card)).rejects.toBeInstanceOf(GatewayTimeoutError);
    await expect(gateway.refund({ transactionId: 'ch_x', idempotencyKey: 'k' })).rejects.toBeInstanceOf(GatewayTimeoutError);
    expect(await gateway.retrieveCharge('x')).toEqual({ status: 'not_found' });
  });
});
