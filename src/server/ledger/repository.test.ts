import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../db/client';
import { donations } from '../db/schema';
import { clearLedger } from '../testing/clear-ledger';
import { PENDING_TEST_DONATION } from '../testing/pending-donation';
import { openTestDatabase } from '../testing/test-database';
import {
  createPendingDonation,
  DonationTransitionError,
  markDonationFailed,
  markDonationSucceeded,
  type PendingDonation,
} from './repository';
import { getDonationStatsCents } from './stats';

/** The donation repository and the database's own rules (issue #2: pending → succeeded | failed only). */

let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});
beforeEach(async () => {
  await clearLedger(database.db);
});

const pending = PENDING_TEST_DONATION;
/** The answer stored with a donation's Idempotency-Key, if it had one (these have none). */
const ANSWER = { statusCode: 200, body: {} };
const success = { transactionId: 'ch_test_aaaaaaaaaaaaaaaaaaaaaaaa', cardBrand: 'visa', last4: '4242', isTestPayment: true } as const;

const statusOf = async (id: string) =>
  (await database.db.select({ status: donations.status }).from(donations).where(eq(donations.id, id)))[0]?.status;

describe('donation status transitions', () => {
  it('writes pending, then moves to succeeded once', async () => {
    const id = await createPendingDonation(database.db, pending);
    expect(await statusOf(id)).toBe('pending');
    await markDonationSucceeded(database.db, id, success, ANSWER);
    expect(await statusOf(id)).toBe('succeeded');
    await expect(markDonationSucceeded(database.db, id, success, ANSWER)).rejects.toThrow(DonationTransitionError);
    await expect(markDonationFailed(database.db, id, { declineCode: 'card_declined' }, ANSWER)).rejects.toThrow(
      DonationTransitionError,
    );
    expect(await statusOf(id)).toBe('succeeded');
  });

  it('moves pending to failed, and never from failed to succeeded', async () => {
    const id = await createPendingDonation(database.db, pending);
    await markDonationFailed(database.db, id, { declineCode: 'card_declined' }, ANSWER);
    await expect(markDonationSucceeded(database.db, id, success, ANSWER)).rejects.toThrow(DonationTransitionError);
    expect(await statusOf(id)).toBe('failed');
  });

  it('refuses to change a donation that does not exist', async () => {
    await expect(
      markDonationFailed(database.db, '00000000-0000-4000-8000-000000000000', { declineCode: 'x' }, ANSWER),
    ).rejects.toThrow(DonationTransitionError);
  });
});

describe('database constraints', () => {
  it.each<[string, Partial<PendingDonation>]>([
    ['a zero amount', { amountCents: 0 }],
    ['a negative amount', { amountCents: -100 }],
    ['last4 that is not 4 digits', { cardLast4: '42a2' }],
    ['an unknown cause', { cause: 'whales' as PendingDonation['cause'] }],
    ['an unknown frequency', { frequency: 'weekly' as PendingDonation['frequency'] }],
  ])('reject %s', async (_name, change) => {
    await expect(createPendingDonation(database.db, { ...pending, ...change })).rejects.toThrow();
    expect(await database.db.select().from(donations)).toEqual([]);
  });

  it('reject a status outside pending, succeeded, failed, refunded, disputed', async () => {
    const id = await createPendingDonation(database.db, pending);
    await expect(
      database.db
        .update(donations)
        .set({ status: 'chargeback' as 'failed' })
        .where(eq(donations.id, id)),
    ).rejects.toThrow();
  });

  it('reject a succeeded donation without a transaction id, and a transaction id used twice', async () => {
    const first = await createPendingDonation(database.db, pending);
    await expect(database.db.update(donations).set({ status: 'succeeded' }).where(eq(donations.id, first))).rejects.toThrow();
    await markDonationSucceeded(database.db, first, success, ANSWER);
    const second = await createPendingDonation(database.db, pending);
    await expect(markDonationSucceeded(database.db, second, success, ANSWER)).rejects.toThrow();
  });
});

describe('getDonationStatsCents', () => {
  it('sums cents exactly', async () => {
    for (const amountCents of [10, 20, 30_000_00, 99_999_999]) {
      const id = await createPendingDonation(database.db, { ...pending, amountCents });
      await markDonationSucceeded(database.db, id, { ...success, transactionId: `ch_test_${amountCents}` }, ANSWER);
    }
    const stats = await getDonationStatsCents(database.db);
    expect(stats).toMatchObject({ totalCents: 10 + 20 + 30_000_00 + 99_999_999, donationCount: 4, donorCount: 1 });
  });
});
