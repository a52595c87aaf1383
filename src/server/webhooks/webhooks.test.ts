import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CSRF_HEADER_NAME } from '../../shared/api';
import { StaffDeliveryLogSchema, StaffEndpointWithSecretSchema, type StaffEndpointInput } from '../../shared/staff/integrations-api';
import { STAFF_API, staffApiPath } from '../../shared/staff/paths';
import { WEBHOOK_EVENT_TYPES, WEBHOOK_DATA_SCHEMAS, webhookPayloadSchema, type WebhookEventType } from '../../shared/webhooks';
import { insertCampaign } from '../campaigns/testing/campaign-rows';
import { adminAuditLog, campaigns, donations, mailOutbox, recurringPlans, webhookAttempts, webhookDeliveries, webhookEndpoints } from '../db/schema';
import { markDonationDisputed } from '../ledger/intent-ledger';
import { recordRefund } from '../ledger/refund-ledger';
import { METRICS_PATH } from '../metrics/plugin';
import { ATTACHES_THEN_DECLINES_CARD } from '../payments/test-vault';
import { manualClock } from '../platform/clock';
import { cardColumnsOf } from '../recurring/plans';
import { signInStaffForTest, type StaffTestSession } from '../staff/identity/testing/staff-session';
import { startSmtpTestServer, type SmtpTestServer } from '../testing/smtp-test-server';
import { createTestApp, FUTURE_EXPIRY_YEAR, validSubmission, type TestApp } from '../testing/test-app';
import { startWebhookReceiver, type WebhookReceiver } from '../testing/webhook-receiver';
import { ANSWER_START_CHARS } from './deliver';
import { claimDueDeliveries, pruneWebhookLog, WEBHOOK_CLAIM_LEASE_MS, WEBHOOK_RETRY_WINDOW_MS } from './relay';

/**
 * Outgoing webhooks through the real app, database and a real receiving HTTP server that verifies every signature with
 * the Standard Webhooks library (issue #38, "Must be shown"): each event type delivered once, validly signed; 500, 500,
 * 200 gets one webhook-id three times; a receiver that never answers is paused after three days (the injected clock)
 * and the admins e-mailed; a rolled-back refund sends nothing; a rotated secret verifies with both during the overlap;
 * answers read up to 64 kB; the page's API for admins only, every change audited; the metrics.
 */

const ADMIN_TOKEN = 'webhooks-test-admin-token-0123456789abcdef';
const clock = manualClock(new Date('2027-03-01T12:00:00Z'));
let t: TestApp;
let smtp: SmtpTestServer;
let receiver: WebhookReceiver;
let admin: StaffTestSession;
let finance: StaffTestSession;

beforeAll(async () => {
  smtp = await startSmtpTestServer();
  receiver = await startWebhookReceiver();
  t = await createTestApp({
    clock,
    env: { ADMIN_TOKEN, SMTP_URL: smtp.url, WEBHOOKS_ALLOW_PRIVATE_TARGETS: 'on', WEBHOOK_TIMEOUT_MS: '2000' },
  });
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
  await smtp?.close();
});

/** Signs an admin and a finance member in at the clock's now (a staff refund needs a sign-in within 15 minutes). */
async function signIn() {
  admin = await signInStaffForTest(t.app, t.db, { role: 'admin', now: clock.now() });
  finance = await signInStaffForTest(t.app, t.db, { role: 'finance', now: clock.now() });
}

beforeEach(async () => {
  await t.reset();
  await t.db.delete(webhookEndpoints);
  await t.db.delete(campaigns);
  receiver.received.length = 0;
  receiver.answers = [];
  receiver.fallback = { status: 200, body: 'ok' };
  clock.set(new Date('2027-03-01T12:00:00Z'));
  await signIn();
});

/** A staff request as `session`. */
function staff(method: 'GET' | 'POST', url: string, session: StaffTestSession, payload?: object, headers: Record<string, string> = {}) {
  return t.app.inject({ method, url, headers: { ...session.headers, ...headers }, ...(payload ? { payload } : {}) });
}

/** Adds an endpoint to the receiver through the admin API and gives the receiver its secret. */
async function addEndpoint(input: Partial<StaffEndpointInput> = {}) {
  const answer = await staff('POST', STAFF_API.integrations, admin, { url: receiver.url, events: [...WEBHOOK_EVENT_TYPES], includeContact: true, ...input });
  expect(answer.statusCode, answer.body).toBe(201);
  const created = StaffEndpointWithSecretSchema.parse(answer.json());
  receiver.secrets = [created.secret];
  return created;
}

const sendTest = (endpointId: string) => staff('POST', staffApiPath(STAFF_API.integrationTest, endpointId), admin);
const deliveryLog = async (endpointId: string) => StaffDeliveryLogSchema.parse((await staff('GET', staffApiPath(STAFF_API.integrationDeliveries, endpointId), admin)).json());

/** A one-time gift through the donor API; resolves with its id. */
async function give(overrides: Parameters<typeof validSubmission>[0] = {}) {
  const donorEmail = overrides.donorEmail ?? `donor-${randomUUID()}@example.org`;
  const answer = await t.postDonation(validSubmission({ ...overrides, donorEmail }));
  expect(answer.statusCode, answer.body).toBe(200);
  const [row] = await t.db.select().from(donations).where(eq(donations.donorEmail, donorEmail));
  return row!;
}

describe('events', () => {
  it('delivers each event type once, signed as the Standard Webhooks library verifies, with the record as staff see it', async () => {
    await addEndpoint();
    const gift = await give({ amount: 40, donorName: 'Ana Reef', donorAddress: { street: '1 Coral Way', city: 'Belize City', state: '', zipCode: '', country: 'BZ' } });
    const refund = (id: string, amountCents: number) =>
      staff('POST', staffApiPath(STAFF_API.donationRefunds, id), finance, { amountCents, reason: 'Asked by the donor' }, { 'idempotency-key': randomUUID() });
    expect((await refund(gift.id, 1000)).statusCode).toBe(201);
    expect((await refund(gift.id, 3000)).statusCode).toBe(201);
    const disputed = await give();
    await t.db.transaction((tx) => markDonationDisputed(tx, disputed.id, disputed.gatewayTransactionId ?? '', 'needs_response'));
    expect((await staff('POST', staffApiPath(STAFF_API.donationEmail, disputed.id), finance, { email: 'fixed@example.org', resend: false })).statusCode).toBe(200);
    // Plans: one changed, paused and cancelled by staff; one whose renewal is declined by the billing runner.
    const first = await give({ frequency: 'monthly', amount: 30 });
    const [plan] = await t.db.select().from(recurringPlans).where(eq(recurringPlans.firstDonationId, first.id));
    const change = (body: object) => staff('POST', staffApiPath(STAFF_API.planChanges, plan!.id), finance, body);
    expect((await change({ action: 'change_amount', amountCents: 3500 })).statusCode).toBe(200);
    expect((await change({ action: 'pause' })).statusCode).toBe(200);
    expect((await change({ action: 'cancel' })).statusCode).toBe(200);
    // An offline gift recorded twice by mistake, voided by finance (issue #37).
    const offline = await staff('POST', STAFF_API.offlineGifts, finance, { method: 'cash', receivedOn: '2027-02-27', amountCents: 1500, donor: { name: 'Cash Donor' }, cause: 'research-science', sendReceipt: false }, { 'idempotency-key': randomUUID() });
    expect(offline.statusCode, offline.body).toBe(201);
    const offlineId = offline.json<{ donationId: string }>().donationId;
    expect((await staff('POST', staffApiPath(STAFF_API.offlineGiftVoid, offlineId), finance, { reason: 'Recorded twice' })).statusCode).toBe(200);
    // A gift that takes a $25 campaign to its goal (decision 0113).
    await insertCampaign(t.db, 'reef-2027', { goalCents: 2500 });
    const campaignGift = await give({ amount: 25, campaign: 'reef-2027' });
    await t.app.webhooks.relayDue();
    // The renewal: a card that attaches but declines, charged on the next charge day by the billing runner.
    const renewing = await give({ frequency: 'monthly', amount: 20 });
    const [renewingPlan] = await t.db.select().from(recurringPlans).where(eq(recurringPlans.firstDonationId, renewing.id));
    const saved = await t.gateway.savePaymentMethod({ number: ATTACHES_THEN_DECLINES_CARD, expiryMonth: 12, expiryYear: Number(FUTURE_EXPIRY_YEAR), cvc: '123' });
    if (saved.status !== 'saved') throw new Error('card not saved');
    await t.db.update(recurringPlans).set(cardColumnsOf(saved.paymentMethod)).where(eq(recurringPlans.id, renewingPlan!.id));
    clock.set(new Date(`${renewingPlan!.nextChargeOn}T01:00:00Z`));
    expect(await t.app.billing.run()).toMatchObject({ failed: 1 });
    await t.app.webhooks.relayDue();

    const got = receiver.received;
    expect(got.every((message) => message.verifiedWith.length === 1)).toBe(true);
    // Each message once: one webhook-id per event, never twice.
    expect(new Set(got.map((message) => message.id)).size).toBe(got.length);
    const types = new Set(got.map((message) => message.body.type));
    expect([...types].sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
    for (const message of got) {
      const type = message.body.type as WebhookEventType;
      expect(() => webhookPayloadSchema(type, WEBHOOK_DATA_SCHEMAS[type]).parse(message.body), type).not.toThrow();
      expect(JSON.stringify(message.body)).not.toContain('4242424242424242');
    }
    const of = (type: WebhookEventType) => got.filter((message) => message.body.type === type).map((message) => message.body.data);
    // NOTE: the relay sends 4 at a time, so messages arrive in any order: each is found by its record.
    expect(of('donation.succeeded').find((data) => (data.donation as { id: string }).id === gift.id)).toMatchObject({
      donation: { id: gift.id, amountCents: 4000, amountDollars: '40.00', currency: 'USD', cause: 'research-science', frequency: 'one-time', cardBrand: 'visa', last4: '4242', donor: { name: 'Ana Reef', address: { street: '1 Coral Way', city: 'Belize City', country: 'BZ' } } },
    });
    const refunds = of('donation.refunded').map((data) => data.refund);
    expect(refunds).toHaveLength(2);
    expect(refunds).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ amountCents: 1000, amountDollars: '10.00', full: false }),
        expect.objectContaining({ amountCents: 3000, amountDollars: '30.00', full: true }),
      ]),
    );
    expect(of('donation.disputed')[0]).toMatchObject({ disputeStatus: 'needs_response', donation: { id: disputed.id, status: 'disputed' } });
    expect(of('donor.email_corrected')[0]).toMatchObject({ previousEmail: disputed.donorEmail, donation: { donor: { email: 'fixed@example.org' } } });
    expect(of('plan.changed')).toContainEqual(expect.objectContaining({ change: 'change_amount', plan: expect.objectContaining({ id: plan!.id, amountCents: 3500 }) }));
    expect(of('plan.paused')[0]).toMatchObject({ reason: 'staff', plan: { id: plan!.id, status: 'paused' } });
    expect(of('plan.cancelled')[0]).toMatchObject({ plan: { id: plan!.id, status: 'cancelled' } });
    expect(of('plan.renewal_failed')[0]).toMatchObject({ plan: { id: renewingPlan!.id, status: 'past_due' }, declineCode: 'card_declined' });
    expect(of('donation.voided')).toEqual([expect.objectContaining({ reason: 'Recorded twice', donation: expect.objectContaining({ id: offlineId, status: 'refunded', gateway: 'offline' }) })]);
    expect(of('campaign.goal_reached')).toEqual([
      { campaign: expect.objectContaining({ slug: 'reef-2027', title: 'Spring appeal', goalCents: 2500, goalDollars: '25.00', raisedCents: 2500, raisedDollars: '25.00', currency: 'USD' }) },
    ]);
    expect(of('donation.succeeded').map((data) => (data.donation as { id: string }).id)).toContain(campaignGift.id);
    // The log shows the tries of the last 30 days (the renewal's, a month after the others), each answered 200.
    const [endpoint] = await t.db.select().from(webhookEndpoints);
    await signIn();
    const log = await deliveryLog(endpoint!.id);
    expect(log.attempts.map((attempt) => attempt.eventType)).toContain('plan.renewal_failed');
    expect(log.attempts.every((attempt) => attempt.statusCode === 200 && attempt.deliveryStatus === 'delivered' && attempt.responseStart === 'ok')).toBe(true);
  }, 60_000);

  it('leaves donor contact out for an endpoint that asked so, and sends only the events it chose', async () => {
    await addEndpoint({ events: ['donation.succeeded'], includeContact: false });
    await give({ frequency: 'monthly' });
    await t.app.webhooks.relayDue();
    expect(receiver.received.map((message) => message.body.type)).toEqual(['donation.succeeded']);
    expect(receiver.received[0]?.body.data).toMatchObject({ donation: { donor: null, last4: '4242' } });
    expect(JSON.stringify(receiver.received[0]?.body)).not.toContain('@example.org');
  });

  it('sends nothing of a refund whose transaction rolled back, and the refund once it commits', async () => {
    await addEndpoint({ events: ['donation.refunded'] });
    const gift = await give();
    const refund = { donationId: gift.id, amountCents: 500, gateway: 'test', gatewayRefundId: `re_${randomUUID()}`, idempotencyKey: randomUUID() };
    await expect(
      t.db.transaction(async (tx) => {
        await recordRefund(tx, refund);
        throw new Error('rolled back after the refund was recorded');
      }),
    ).rejects.toThrow('rolled back');
    expect(await t.db.select().from(webhookDeliveries)).toEqual([]);
    await t.app.webhooks.relayDue();
    expect(receiver.received).toEqual([]);
    await t.db.transaction((tx) => recordRefund(tx, refund));
    await t.app.webhooks.relayDue();
    expect(receiver.received.map((message) => message.body.data.refund)).toEqual([expect.objectContaining({ amountCents: 500, full: false })]);
  });
});

describe('delivery', () => {
  it('counts a delivery as waiting until its first try is written, while the relay is trying it too', async () => {
    const { endpoint } = await addEndpoint();
    expect((await sendTest(endpoint.id)).statusCode).toBe(202);
    await signIn();
    expect(await deliveryLog(endpoint.id)).toEqual({ attempts: [], waiting: 1 });
    // The relay's claim (its lease, and one more attempt counted before the request); the try is not written yet.
    expect(await claimDueDeliveries(t.db, { now: clock.now(), leaseMs: WEBHOOK_CLAIM_LEASE_MS, limit: 10 })).toHaveLength(1);
    expect(await deliveryLog(endpoint.id)).toEqual({ attempts: [], waiting: 1 });
    // Once the lease ends the relay tries it: the try is in the log, and nothing waits any more.
    clock.advance(WEBHOOK_CLAIM_LEASE_MS);
    expect(await t.app.webhooks.relayDue()).toMatchObject({ delivered: 1 });
    const log = await deliveryLog(endpoint.id);
    expect([log.waiting, log.attempts.map((attempt) => attempt.eventType)]).toEqual([0, ['webhook.test']]);
  });

  it('retries 500, 500 then 200 under the same webhook-id, and logs each try', async () => {
    const { endpoint } = await addEndpoint();
    receiver.answers = [{ status: 500, body: 'down' }, { status: 500, body: 'still down' }];
    expect((await sendTest(endpoint.id)).statusCode).toBe(202);
    expect(await t.app.webhooks.relayDue()).toMatchObject({ retried: 1 });
    clock.advance(60 * 60 * 1000);
    expect(await t.app.webhooks.relayDue()).toMatchObject({ retried: 1 });
    clock.advance(60 * 60 * 1000);
    expect(await t.app.webhooks.relayDue()).toMatchObject({ delivered: 1 });
    await signIn();
    expect(receiver.received).toHaveLength(3);
    expect(new Set(receiver.received.map((message) => message.id)).size).toBe(1);
    expect(receiver.received.every((message) => message.verifiedWith.length === 1 && message.body.type === 'webhook.test')).toBe(true);
    const log = await deliveryLog(endpoint.id);
    expect(log.attempts.map((attempt) => [attempt.statusCode, attempt.responseStart])).toEqual([[200, 'ok'], [500, 'still down'], [500, 'down']]);
    expect(log.attempts.every((attempt) => attempt.messageId === receiver.received[0]?.id && attempt.latencyMs >= 0)).toBe(true);
    // Resend: due again now, same webhook-id, audited.
    const resent = await staff('POST', staffApiPath(STAFF_API.integrationResend, endpoint.id).replace(':deliveryId', log.attempts[0]!.deliveryId), admin);
    expect(resent.statusCode, resent.body).toBe(202);
    await t.app.webhooks.relayDue();
    expect(receiver.received.map((message) => message.id)).toEqual(Array(4).fill(receiver.received[0]?.id));
    const audited = await t.db.select().from(adminAuditLog).where(and(eq(adminAuditLog.action, 'webhook_endpoint.resend'), eq(adminAuditLog.actorStaffId, admin.staffMember.id)));
    expect(audited.map((entry) => entry.subjectId)).toEqual([endpoint.id]);
    // Metrics: tries by endpoint and outcome; nothing left undelivered.
    const metrics = await t.app.inject({ method: 'GET', url: METRICS_PATH, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(metrics.body).toContain(`donation_site_webhook_deliveries_total{endpoint="${endpoint.id}",outcome="retried"} 2`);
    expect(metrics.body).toContain(`donation_site_webhook_deliveries_total{endpoint="${endpoint.id}",outcome="delivered"} 2`);
    expect(metrics.body).toContain('donation_site_webhook_oldest_pending_age_seconds 0');
  });

  it('keeps the delivery log 30 days: older tries and settled deliveries are pruned, newer ones and an unsettled one stay', async () => {
    const { endpoint } = await addEndpoint();
    for (let sent = 0; sent < 3; sent += 1) expect((await sendTest(endpoint.id)).statusCode).toBe(202);
    expect(await t.app.webhooks.relayDue()).toMatchObject({ delivered: 3 });
    receiver.answers = [{ status: 500, body: 'down' }];
    expect((await sendTest(endpoint.id)).statusCode).toBe(202);
    expect(await t.app.webhooks.relayDue()).toMatchObject({ retried: 1 });
    // NOTE: a delivery's creation time is the database's clock and a try's the app's: both set here, explicitly.
    const now = clock.now();
    const daysAgo = (days: number) => new Date(now.getTime() - days * 86_400_000);
    const rows = await t.db.select({ id: webhookDeliveries.id, status: webhookDeliveries.status }).from(webhookDeliveries).orderBy(webhookDeliveries.createdAt);
    const [oldDelivered, agedDelivered, recentDelivered, oldPending] = [rows[0]!, rows[1]!, rows[2]!, rows[3]!];
    expect([oldDelivered.status, agedDelivered.status, recentDelivered.status, oldPending.status]).toEqual(['delivered', 'delivered', 'delivered', 'pending']);
    for (const [row, days] of [[oldDelivered, 31], [agedDelivered, 29], [recentDelivered, 1], [oldPending, 31]] as const) {
      await t.db.update(webhookDeliveries).set({ createdAt: daysAgo(days) }).where(eq(webhookDeliveries.id, row.id));
      await t.db.update(webhookAttempts).set({ attemptedAt: daysAgo(days) }).where(eq(webhookAttempts.deliveryId, row.id));
    }
    await pruneWebhookLog(t.db, now);
    const kept = await t.db.select({ id: webhookDeliveries.id }).from(webhookDeliveries);
    expect(kept.map((row) => row.id).sort()).toEqual([agedDelivered.id, recentDelivered.id, oldPending.id].sort());
    const triesLeft = await t.db.select({ deliveryId: webhookAttempts.deliveryId }).from(webhookAttempts);
    expect(triesLeft.map((row) => row.deliveryId).sort()).toEqual([agedDelivered.id, recentDelivered.id].sort());
    // The log the admin reads shows what is kept.
    expect((await deliveryLog(endpoint.id)).attempts.map((attempt) => attempt.deliveryId).sort()).toEqual([agedDelivered.id, recentDelivered.id].sort());
  });

  it('reads at most 64 kB of an answer: an answer that never ends is a 200 once 64 kB came, its start in the log', async () => {
    // A receiver that answers 200 and then sends text forever: read whole, the try would end only at the timeout.
    const endless = http.createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/plain' });
      const write = () => {
        while (!response.destroyed && response.write('x'.repeat(16 * 1024))) {
          // NOTE: until the socket's buffer is full; 'drain' writes more.
        }
      };
      response.on('drain', write);
      write();
    });
    await new Promise<void>((resolve) => endless.listen(0, '127.0.0.1', resolve));
    try {
      const { endpoint } = await addEndpoint({ url: `http://127.0.0.1:${(endless.address() as AddressInfo).port}/hook` });
      await sendTest(endpoint.id);
      expect(await t.app.webhooks.relayDue()).toMatchObject({ delivered: 1 });
      const [attempt] = (await deliveryLog(endpoint.id)).attempts;
      expect(attempt).toMatchObject({ statusCode: 200, error: null, responseStart: 'x'.repeat(ANSWER_START_CHARS) });
    } finally {
      endless.closeAllConnections();
      await new Promise<void>((resolve) => endless.close(() => resolve()));
    }
  });

  it('does not retry a 4xx other than 429', async () => {
    const { endpoint } = await addEndpoint();
    receiver.answers = [{ status: 429 }, { status: 410, body: 'gone' }];
    await sendTest(endpoint.id);
    expect(await t.app.webhooks.relayDue()).toMatchObject({ retried: 1 });
    clock.advance(60 * 60 * 1000);
    expect(await t.app.webhooks.relayDue()).toMatchObject({ failed: 1 });
    clock.advance(24 * 60 * 60 * 1000);
    expect(await t.app.webhooks.relayDue()).toEqual({ delivered: 0, retried: 0, failed: 0, paused: 0 });
    expect(receiver.received).toHaveLength(2);
  });

  it('pauses an endpoint that never answers for three days, by the injected clock, and e-mails the admins', async () => {
    const { endpoint } = await addEndpoint();
    receiver.fallback = 'never';
    await sendTest(endpoint.id);
    expect(await t.app.webhooks.relayDue()).toMatchObject({ retried: 1 });
    const [log] = (await deliveryLog(endpoint.id)).attempts;
    expect(log).toMatchObject({ statusCode: null, error: 'No answer within 2000 ms' });
    const metrics = await t.app.inject({ method: 'GET', url: METRICS_PATH, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(metrics.body).toMatch(/donation_site_webhook_oldest_pending_age_seconds [1-9]/);
    clock.advance(WEBHOOK_RETRY_WINDOW_MS);
    expect(await t.app.webhooks.relayDue()).toMatchObject({ paused: 1 });
    const [row] = await t.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id));
    expect(row).toMatchObject({ status: 'paused', pausedReason: 'failing' });
    // Nothing more is tried while paused.
    clock.advance(60 * 60 * 1000);
    expect(await t.app.webhooks.relayDue()).toEqual({ delivered: 0, retried: 0, failed: 0, paused: 0 });
    const queued = await t.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'webhook_endpoint_paused'));
    expect(queued.map((message) => message.recipient)).toContain(admin.staffMember.email);
    expect(queued.map((message) => message.recipient)).not.toContain(finance.staffMember.email);
    await t.app.mail.relayDue();
    const mail = smtp.received.find((message) => message.subject === 'A webhook endpoint was paused after three days of failures');
    expect(mail?.text).toContain(receiver.url);
    expect(mail?.text).toContain('/staff/integrations');
  });

  it('signs with the old and the new secret for 24 hours after a rotation, then with the new one only', async () => {
    const { endpoint, secret: oldSecret } = await addEndpoint();
    const rotated = StaffEndpointWithSecretSchema.parse((await staff('POST', staffApiPath(STAFF_API.integrationRotate, endpoint.id), admin)).json());
    expect(rotated.secret).not.toBe(oldSecret);
    expect(rotated.secret).toMatch(/^whsec_/);
    receiver.secrets = [oldSecret, rotated.secret];
    await sendTest(endpoint.id);
    await t.app.webhooks.relayDue();
    expect(receiver.received[0]?.signature.split(' ')).toHaveLength(2);
    expect(receiver.received[0]?.verifiedWith).toEqual([oldSecret, rotated.secret]);
    clock.advance(24 * 60 * 60 * 1000 + 1000);
    await signIn();
    await sendTest(endpoint.id);
    await t.app.webhooks.relayDue();
    expect(receiver.received[1]?.verifiedWith).toEqual([rotated.secret]);
  });
});

describe('the integrations API', () => {
  it('is for admins only: viewer and finance get 403', async () => {
    const viewer = await signInStaffForTest(t.app, t.db, { role: 'viewer', now: clock.now() });
    for (const session of [viewer, finance]) {
      expect((await staff('GET', STAFF_API.integrations, session)).statusCode).toBe(403);
      expect((await staff('POST', STAFF_API.integrations, session, { url: receiver.url, events: ['donation.succeeded'], includeContact: true })).statusCode).toBe(403);
    }
    expect(await t.db.select().from(webhookEndpoints)).toEqual([]);
    const anonymous = await t.csrf();
    expect((await t.app.inject({ method: 'GET', url: STAFF_API.integrations, headers: { cookie: anonymous.cookie, [CSRF_HEADER_NAME]: anonymous.token } })).statusCode).toBe(401);
  });

  it('audits every change, lists endpoints without their secret, pauses and resumes', async () => {
    const { endpoint, secret } = await addEndpoint({ description: 'CRM' });
    await staff('POST', staffApiPath(STAFF_API.integrationRotate, endpoint.id), admin);
    expect((await staff('POST', staffApiPath(STAFF_API.integrationPause, endpoint.id), admin)).json()).toMatchObject({ status: 'paused', pausedReason: 'staff' });
    expect((await sendTest(endpoint.id)).statusCode).toBe(409);
    expect((await staff('POST', staffApiPath(STAFF_API.integrationResume, endpoint.id), admin)).json()).toMatchObject({ status: 'active', pausedReason: null });
    await sendTest(endpoint.id);
    const listed = await staff('GET', STAFF_API.integrations, admin);
    expect(listed.json()).toMatchObject({ endpoints: [{ id: endpoint.id, description: 'CRM', status: 'active' }] });
    expect(listed.body).not.toContain('whsec_');
    const audit = await t.db.select().from(adminAuditLog).where(and(eq(adminAuditLog.subjectId, endpoint.id), eq(adminAuditLog.actorStaffId, admin.staffMember.id)));
    expect(audit.map((entry) => entry.action).sort()).toEqual(
      ['webhook_endpoint.create', 'webhook_endpoint.pause', 'webhook_endpoint.resume', 'webhook_endpoint.rotate_secret', 'webhook_endpoint.test'].sort(),
    );
    expect(JSON.stringify(audit)).not.toContain(secret);
  });

  it('refuses bad input with 400 and writes nothing', async () => {
    for (const body of [
      { url: 'ftp://crm.example.org/hook', events: ['donation.succeeded'], includeContact: true },
      { url: receiver.url, events: [], includeContact: true },
      { url: receiver.url, events: ['donation.exploded'], includeContact: true },
      { url: receiver.url, events: ['donation.succeeded'] },
      { url: 'not a url', events: ['donation.succeeded'], includeContact: true },
    ]) {
      const answer = await staff('POST', STAFF_API.integrations, admin, body);
      expect(answer.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect(await t.db.select().from(webhookEndpoints)).toEqual([]);
  });
});
