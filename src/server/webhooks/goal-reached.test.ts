import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { StaffEndpointWithSecretSchema } from '../../shared/staff/integrations-api';
import { STAFF_API, staffApiPath } from '../../shared/staff/paths';
import { WEBHOOK_DATA_SCHEMAS, webhookPayloadSchema } from '../../shared/webhooks';
import { insertCampaign } from '../campaigns/testing/campaign-rows';
import { campaigns, donations, webhookEndpoints } from '../db/schema';
import { closeDonationDispute, markDonationDisputed } from '../ledger/intent-ledger';
import { signInStaffForTest, type StaffTestSession } from '../staff/identity/testing/staff-session';
import { createTestApp, validSubmission, type TestApp } from '../testing/test-app';
import { startWebhookReceiver, type WebhookReceiver } from '../testing/webhook-receiver';

/**
 * `campaign.goal_reached` (issue #38; decision 0113) through the real app and database, to a real receiving HTTP server
 * that verifies every signature with the Standard Webhooks library: sent once, when a gift makes a campaign's counted
 * raised amount reach its goal (a site gift, a dispute won, an offline gift); never again after a refund below the goal
 * and a gift above it; never for a campaign without a goal; exactly once when two gifts that reach it together are
 * counted at the same time.
 */

const SLUG = 'coral-nursery';
let t: TestApp;
let receiver: WebhookReceiver;
let admin: StaffTestSession;
let finance: StaffTestSession;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  t = await createTestApp({ env: { WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'on', WEBHOOK_TIMEOUT_MS: '2000' } });
  admin = await signInStaffForTest(t.app, t.db, { role: 'admin' });
  finance = await signInStaffForTest(t.app, t.db, { role: 'finance' });
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

beforeEach(async () => {
  await t.reset();
  await t.db.delete(webhookEndpoints);
  await t.db.delete(campaigns);
  receiver.received.length = 0;
  // A $100 goal; the receiver's endpoint subscribed to the campaign event only.
  await insertCampaign(t.db, SLUG, { goalCents: 10_000 });
  const answer = await t.app.inject({
    method: 'POST',
    url: STAFF_API.integrations,
    headers: admin.headers,
    payload: { url: receiver.url, events: ['campaign.goal_reached'], includeContact: true },
  });
  expect(answer.statusCode, answer.body).toBe(201);
  receiver.secrets = [StaffEndpointWithSecretSchema.parse(answer.json()).secret];
});

/** A site gift of `amount` dollars by the campaign link `campaign`; resolves with its id. */
async function give(amount: number, campaign = SLUG): Promise<string> {
  const donorEmail = `donor-${randomUUID()}@example.org`;
  const answer = await t.postDonation(validSubmission({ amount, campaign, donorEmail }));
  expect(answer.statusCode, answer.body).toBe(200);
  const [row] = await t.db.select({ id: donations.id }).from(donations).where(eq(donations.donorEmail, donorEmail));
  return row!.id;
}

/** Records a dispute (chargeback) opened on gift `donationId`: it counts nothing until won. */
const dispute = (donationId: string) => t.db.transaction((tx) => markDonationDisputed(tx, donationId, '', 'needs_response'));

/** Delivers what is due and resolves with the `campaign.goal_reached` messages received so far, each checked whole. */
async function goalEvents() {
  await t.app.webhooks.relayDue();
  const received = receiver.received.filter((message) => message.body.type === 'campaign.goal_reached');
  for (const message of received) {
    expect(message.verifiedWith, 'signed with the endpoint secret').toEqual(receiver.secrets);
    webhookPayloadSchema('campaign.goal_reached', WEBHOOK_DATA_SCHEMAS['campaign.goal_reached']).parse(message.body);
  }
  return received;
}

describe('campaign.goal_reached', () => {
  it('is sent once, by the gift that reaches the goal; not again after a refund below it and a gift above it again', async () => {
    await give(60);
    expect(await goalEvents()).toEqual([]);
    const reaching = await give(50);
    const [sent, ...more] = await goalEvents();
    expect(more).toEqual([]);
    const [campaign] = await t.db.select().from(campaigns).where(eq(campaigns.slug, SLUG));
    expect(sent?.body.data).toEqual({
      campaign: { id: campaign!.id, slug: SLUG, title: 'Spring appeal', goalCents: 10_000, goalDollars: '100.00', raisedCents: 11_000, raisedDollars: '110.00', currency: 'USD' },
    });
    expect(campaign!.goalReachedAt).toBeInstanceOf(Date);

    // $30 refunded: $80 counted, below the goal; a $40 gift takes it to $120 again: nothing more is sent.
    const refund = await t.app.inject({
      method: 'POST',
      url: staffApiPath(STAFF_API.donationRefunds, reaching),
      headers: { ...finance.headers, 'idempotency-key': randomUUID() },
      payload: { amountCents: 3000, reason: 'Asked by the donor' },
    });
    expect(refund.statusCode, refund.body).toBe(201);
    await give(40);
    expect(await goalEvents()).toHaveLength(1);
  });

  it('is never sent for a campaign without a goal, nor by gifts that stay below the goal', async () => {
    await insertCampaign(t.db, 'no-goal', { goalCents: null });
    await give(500, 'no-goal');
    await give(99);
    expect(await goalEvents()).toEqual([]);
    expect((await t.db.select({ goalReachedAt: campaigns.goalReachedAt }).from(campaigns)).map((row) => row.goalReachedAt)).toEqual([null, null]);
  });

  it('is sent by a dispute won, which counts its gift again', async () => {
    const disputed = await give(60);
    await dispute(disputed);
    await give(60);
    expect(await goalEvents()).toEqual([]);
    await t.db.transaction((tx) => closeDonationDispute(tx, disputed, 'won'));
    const sent = await goalEvents();
    expect(sent.map((message) => message.body.data)).toEqual([{ campaign: expect.objectContaining({ raisedCents: 12_000, raisedDollars: '120.00' }) }]);
  });

  it('is sent by an offline gift that reaches the goal (issue #37)', async () => {
    const receivedOn = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
    const answer = await t.app.inject({
      method: 'POST',
      url: STAFF_API.offlineGifts,
      headers: { ...finance.headers, 'idempotency-key': randomUUID() },
      payload: { method: 'cheque', receivedOn, amountCents: 15_000, donor: { name: 'Jane Doe' }, cause: 'research-science', campaign: SLUG, sendReceipt: false },
    });
    expect(answer.statusCode, answer.body).toBe(201);
    const sent = await goalEvents();
    expect(sent.map((message) => message.body.data)).toEqual([{ campaign: expect.objectContaining({ slug: SLUG, raisedCents: 15_000 }) }]);
  });

  it('is sent exactly once when two gifts that reach the goal together are counted at the same time', async () => {
    // Two $60 gifts disputed, then both disputes won in two transactions at once: the first holds its transaction open
    // after its count ($60) until the second is waiting for the campaign's lock or has finished. Counted side by side,
    // each would see $60 and neither would send the event; counted one after the other, the second sees $120.
    const first = await give(60);
    await dispute(first);
    const second = await give(60);
    await dispute(second);
    expect(await goalEvents()).toEqual([]);
    let releaseFirst = () => {};
    const held = new Promise<void>((resolve) => {
      releaseFirst = resolve;
    });
    let firstCounted = () => {};
    const counted = new Promise<void>((resolve) => {
      firstCounted = resolve;
    });
    const firstWon = t.db.transaction(async (tx) => {
      await closeDonationDispute(tx, first, 'won');
      firstCounted();
      await held;
    });
    await counted;
    let secondDone = false;
    const secondWon = t.db.transaction((tx) => closeDonationDispute(tx, second, 'won')).finally(() => {
      secondDone = true;
    });
    const waitingForALock = async () =>
      Number(((await t.db.execute(sql`SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`)) as unknown as { rows: Array<{ n: string }> }).rows[0]?.n);
    await expect.poll(async () => secondDone || (await waitingForALock()) > 0).toBe(true);
    releaseFirst();
    await Promise.all([firstWon, secondWon]);
    const sent = await goalEvents();
    expect(sent.map((message) => message.body.data)).toEqual([{ campaign: expect.objectContaining({ raisedCents: 12_000 }) }]);
  });
});
