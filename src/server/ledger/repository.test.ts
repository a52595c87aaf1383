import { asc, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../db/client';
import { donations, idempotencyKeys, mailOutbox, receiptCounters, receipts, webhookDeliveries, webhookEndpoints } from '../db/schema';
import { clearLedger } from '../testing/clear-ledger';
import { PENDING_TEST_DONATION } from '../testing/pending-donation';
import { openTestDatabase } from '../testing/test-database';
import { formatReceiptNumber } from './receipt-entries';
import {
  claimKeyAndCreatePendingDonation,
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

describe('the success of a gift, in one statement (issue #39, decision 0115)', () => {
  const year = () => new Date().getUTCFullYear();
  const claim = { key: 'key-of-the-success-test', fingerprint: 'f'.repeat(64), ttlHours: 24 };
  const withCard = { ...pending, tribute: { type: 'memory' as const, honoreeName: 'Grandpa Jo', notify: { name: 'Jo Reef', email: 'jo@example.org' } } };
  const outbox = () =>
    database.db.select({ kind: mailOutbox.kind, dedupeKey: mailOutbox.dedupeKey, recipient: mailOutbox.recipient, donationId: mailOutbox.donationId, status: mailOutbox.status }).from(mailOutbox).orderBy(asc(mailOutbox.kind));
  afterEach(async () => {
    await database.db.delete(webhookDeliveries);
    await database.db.delete(webhookEndpoints);
  });

  it('completes the key, numbers the receipt and queues its e-mail and the dedicated gift\'s card, once', async () => {
    const id = await claimKeyAndCreatePendingDonation(database.db, withCard, claim);
    if (!id) throw new Error('the key was not claimed');
    expect(await claimKeyAndCreatePendingDonation(database.db, withCard, claim)).toBeUndefined();
    const answer = { statusCode: 200, body: { success: true, data: { amount: 25 } } };
    const { receiptNumber } = await markDonationSucceeded(database.db, id, success, answer);
    expect(receiptNumber).toBe(formatReceiptNumber(year(), 1));
    expect(await database.db.select({ number: receipts.number, sequence: receipts.sequence }).from(receipts).where(eq(receipts.donationId, id))).toEqual([
      { number: receiptNumber, sequence: 1 },
    ]);
    const [key] = await database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, claim.key));
    expect(key).toMatchObject({ status: 'completed', responseStatus: 200, responseBody: answer.body, donationId: id });
    expect(await outbox()).toEqual([
      { kind: 'receipt', dedupeKey: `receipt:${id}`, recipient: 'ana@example.org', donationId: id, status: 'pending' },
      { kind: 'tribute_card', dedupeKey: `tribute_card:${id}`, recipient: 'jo@example.org', donationId: id, status: 'pending' },
    ]);
    const [row] = await database.db.select().from(donations).where(eq(donations.id, id));
    expect(row).toMatchObject({ status: 'succeeded', gatewayTransactionId: success.transactionId, cardBrand: 'visa', cardLast4: '4242' });

    await expect(markDonationSucceeded(database.db, id, { ...success, transactionId: 'ch_test_again' }, answer)).rejects.toThrow(DonationTransitionError);
    expect(await database.db.select().from(receipts)).toHaveLength(1);
    expect(await outbox()).toHaveLength(2);
  });

  it('numbers receipts past 999,999 as formatReceiptNumber does, and queues no card for a gift not dedicated', async () => {
    await database.db.insert(receiptCounters).values({ year: year(), lastNumber: 999_998 });
    for (const sequence of [999_999, 1_000_000]) {
      const id = await createPendingDonation(database.db, pending);
      const { receiptNumber } = await markDonationSucceeded(database.db, id, { ...success, transactionId: `ch_test_${sequence}` }, ANSWER);
      expect(receiptNumber).toBe(formatReceiptNumber(year(), sequence));
    }
    expect((await outbox()).map((message) => message.kind)).toEqual(['receipt', 'receipt']);
  });

  it('records donation.succeeded for a subscribed active endpoint in the same transaction, and for none other', async () => {
    const endpoint = (eventTypes: string[], status: 'active' | 'paused' = 'active') => ({
      url: 'https://hooks.example.org/reef',
      eventTypes,
      secret: `whsec_${'a'.repeat(32)}`,
      status,
    });
    await database.db.insert(webhookEndpoints).values([endpoint(['donation.refunded']), endpoint(['donation.succeeded'], 'paused')]);
    const first = await createPendingDonation(database.db, pending);
    await markDonationSucceeded(database.db, first, { ...success, transactionId: 'ch_test_first' }, ANSWER);
    expect(await database.db.select().from(webhookDeliveries)).toEqual([]);

    const [subscribed] = await database.db.insert(webhookEndpoints).values(endpoint(['donation.succeeded'])).returning({ id: webhookEndpoints.id });
    const second = await createPendingDonation(database.db, pending);
    const { receiptNumber } = await markDonationSucceeded(database.db, second, { ...success, transactionId: 'ch_test_second' }, ANSWER);
    expect(receiptNumber).toBe(formatReceiptNumber(year(), 2));
    const deliveries = await database.db.select().from(webhookDeliveries);
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({ endpointId: subscribed?.id, eventType: 'donation.succeeded' });
    expect(JSON.parse(deliveries[0]?.body ?? '{}')).toMatchObject({ type: 'donation.succeeded', data: { donation: { id: second, status: 'succeeded' } } });
    expect((await outbox()).filter((message) => message.donationId === second)).toHaveLength(1);

    // A donation that cannot move records nothing, whether an endpoint wants the event or not.
    await expect(markDonationSucceeded(database.db, second, { ...success, transactionId: 'ch_test_third' }, ANSWER)).rejects.toThrow(DonationTransitionError);
    expect(await database.db.select().from(webhookDeliveries)).toHaveLength(1);
    expect(await database.db.select().from(receipts)).toHaveLength(2);
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
