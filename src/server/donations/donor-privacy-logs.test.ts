import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { donations } from '../db/schema';
import { PAYMENT_BEING_CONFIRMED_MESSAGE, SERVICE_UNAVAILABLE_MESSAGE } from '../http/errors';
import { createLogger } from '../platform/logger';
import { createTestApp, validSubmission, type TestApp } from '../testing/test-app';

/**
 * Issue #10, part 3: "logs never carry a donor's name, e-mail, phone, address or message, in any error path".
 * Real database failures, raised by triggers of the test database itself (so the error comes back through the
 * driver and Drizzle, which put every SQL parameter in its message): one on the pending INSERT, one on the
 * outcome UPDATE. Runs on the embedded PostgreSQL test server, and on DATABASE_URL's when it is set.
 */

const lines: string[] = [];
const memory = new Writable({
  write(chunk: Buffer, _encoding, callback) {
    lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    callback();
  },
});

/** Donor details that must never reach a log line; each e-mail domain makes one trigger fire. */
const DONOR = {
  donorName: 'Quintessa Marlowe-Ybarra',
  donorPhone: '+501 555 0199 321',
  message: 'For the manatees of Swallow Caye',
  donorAddress: { street: '17 Barrier Reef Drive', city: 'Placencia Village', state: 'Stann Creek', zipCode: 'PV-8842', country: 'Belize' },
  // A dedicated gift (issue #23): the honoree and the person to notify are as private as the donor.
  tribute: { type: 'memory' as const, honoreeName: 'Ottoline Featherstonehaugh', notify: { name: 'Ximena Quillfeather', email: 'ximena@quillfeather.test', message: 'For the egrets of Bird Caye' } },
};
const INSERT_FAILS_EMAIL = 'quintessa.insert@fails-on-insert.test';
const UPDATE_FAILS_EMAIL = 'quintessa.update@fails-on-update.test';
const SECRETS = [DONOR.donorName, DONOR.donorPhone, DONOR.message, ...Object.values(DONOR.donorAddress), 'quintessa', 'fails-on-', 'Featherstonehaugh', 'Quillfeather', 'egrets'];

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ logger: createLogger({ logLevel: 'trace' }, memory) });
  // NOTE: the triggers are the fault points; production code and schema are unchanged.
  await t.db.execute(sql`
    CREATE FUNCTION injected_fault() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION 'injected fault on %', TG_OP; END $$`);
  await t.db.execute(sql`
    CREATE TRIGGER fail_insert BEFORE INSERT ON donations FOR EACH ROW
    WHEN (NEW.donor_email LIKE '%@fails-on-insert.test') EXECUTE FUNCTION injected_fault()`);
  await t.db.execute(sql`
    CREATE TRIGGER fail_update BEFORE UPDATE ON donations FOR EACH ROW
    WHEN (NEW.donor_email LIKE '%@fails-on-update.test' AND NEW.status <> OLD.status) EXECUTE FUNCTION injected_fault()`);
});
afterAll(async () => {
  await t?.close();
});
beforeEach(async () => {
  lines.length = 0;
  await t.reset();
});

/** Every log line holds none of the donor's details, and at least one error line names the failing query. */
function expectErrorLoggedWithoutDonorDetails(query: RegExp): Record<string, unknown> {
  expect(lines.length).toBeGreaterThan(0);
  for (const line of lines) {
    for (const secret of SECRETS) expect(line.toLowerCase(), 'a log line holds a donor detail').not.toContain(secret.toLowerCase());
  }
  const errors = lines.map((line) => JSON.parse(line) as { level: number; err?: { message: string } }).filter((entry) => entry.err);
  expect(errors.length).toBeGreaterThan(0);
  const [entry] = errors;
  expect(entry?.err?.message).toMatch(query);
  expect(entry?.err?.message).toContain('injected fault');
  expect(entry?.err?.message).not.toContain('params');
  return entry as Record<string, unknown>;
}

describe('a database failure is logged without the donor details', () => {
  for (const idempotencyKey of [undefined, 'privacy-test-key']) {
    const request = idempotencyKey ? 'with an Idempotency-Key' : 'without an Idempotency-Key';

    it(`on the pending INSERT (${request}): 503, the query's text and the donation id, no parameters`, async () => {
      const response = await t.postDonation(
        validSubmission({ ...DONOR, donorEmail: INSERT_FAILS_EMAIL }),
        undefined,
        idempotencyKey && `${idempotencyKey}-${randomUUID()}`,
      );
      expect(response.statusCode).toBe(503);
      expect(response.json()).toMatchObject({ error: SERVICE_UNAVAILABLE_MESSAGE });
      expect(await t.countDonations()).toBe(0);
      const entry = expectErrorLoggedWithoutDonorDetails(/Failed query: (insert into|WITH claim)/i);
      expect(entry.donationId).toMatch(/^[0-9a-f-]{36}$/);
    });
  }

  it('on the outcome UPDATE after a successful charge: 503, the query and the donation id, no parameters', async () => {
    const response = await t.postDonation(validSubmission({ ...DONOR, donorEmail: UPDATE_FAILS_EMAIL }));
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ error: PAYMENT_BEING_CONFIRMED_MESSAGE });
    const [row] = await t.db.select().from(donations);
    expect(row?.status).toBe('pending');
    const entry = expectErrorLoggedWithoutDonorDetails(/Failed query: (update|with)/i);
    expect(entry.donation).toMatchObject({ donationId: row?.id, recorded: false });
  });
});
