import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { API_PATHS, CreatePaymentIntentSuccessSchema, ProcessDonationSuccessSchema } from '../../src/shared/api';
import { testDatabaseUrl } from '../../src/server/platform/config';
import { openDatabase } from '../../src/server/db/client';
import { CLUSTER_DIR_NAME, runningServerOf } from '../../src/server/db/embedded-postgres';
import { donations } from '../../src/server/db/schema';
import { HEALTH_PATHS } from '../../src/server/health/health-routes';
import { SAME_SIGNAL_WINDOW_MS } from '../../src/server/platform/close-on-signals';
import { csrfHeaders, type ServerProcess } from '../../src/server/testing/server-process';
import { useServerWorkspace } from '../../src/server/testing/server-workspace';
import { cardlessDetails, validSubmission } from '../../src/server/testing/test-app';
import { startStripeApiStandIn, type HeldRequests, type StripeApiStandIn } from '../stand-ins/stripe-api/index.js';
import { confirmInBrowser } from './stripe-mode';

/**
 * Graceful shutdown (issue #14): the production server (main.ts) as a process, sent SIGTERM while a donation is in
 * flight. The donation is held in flight by the Stripe API stand-in, which keeps its answer to the server's retrieval
 * of the payment intent (confirm-donation) until the test releases it: no sleep decides what is in flight. Runs on the
 * embedded default (DATA_DIR: the server drains, then stops its PostgreSQL, issue #25; the test opens it again after
 * the exit), and on a test database of DATABASE_URL's server when it is set.
 */

/** Time of each test, in ms: a server process starts in seconds, but in up to a minute on a busy 2-core machine. */
const PROCESS_TEST_TIMEOUT_MS = 150_000;

const workspace = useServerWorkspace('shutdown', { embedded: testDatabaseUrl() === undefined });
let standIn: StripeApiStandIn;
beforeAll(async () => {
  standIn = await startStripeApiStandIn();
});
afterAll(async () => {
  await standIn?.close();
});

/** The server in Stripe mode on the stand-in, with `env` over it. */
const start = (env: Record<string, string> = {}) =>
  workspace.start({
    PAYMENT_GATEWAY: 'stripe',
    STRIPE_SECRET_KEY: standIn.secretKey,
    STRIPE_PUBLISHABLE_KEY: standIn.publishableKey,
    STRIPE_WEBHOOK_SECRET: 'whsec_test_reef_donations_shutdown',
    STRIPE_API_URL: standIn.url,
    STRIPE_JS_URL: standIn.stripeJsUrl,
    ...env,
  });

/** A donation whose confirm-donation request is in flight: the server waits for the stand-in's held answer. */
interface InFlightDonation {
  paymentIntentId: string;
  held: HeldRequests;
  /** The confirm-donation request: its status, Connection header and body once answered. */
  answer: Promise<{ status: number; connection: string | null; body: unknown }>;
}

/**
 * Pays $25 in the browser's way (create-payment-intent with the donor, Stripe.js confirms the card with the stand-in),
 * then sends confirm-donation with the stand-in holding the server's retrieval of the intent; resolves once the
 * server is waiting for it.
 */
async function donationInFlight(server: ServerProcess): Promise<InFlightDonation> {
  const headers = { ...(await csrfHeaders(server.baseUrl)), 'content-type': 'application/json' };
  const submission = validSubmission({ amount: 25 });
  const created = await fetch(`${server.baseUrl}${API_PATHS.createPaymentIntent}`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ amount: submission.amount, donation: cardlessDetails(submission) }),
  });
  const { paymentIntentId, clientSecret } = CreatePaymentIntentSuccessSchema.parse(await created.json()).data;
  await confirmInBrowser(standIn, paymentIntentId, clientSecret, '4242424242424242');

  const held = standIn.holdNextRequests(1, { match: ({ method, path }) => method === 'GET' && path === `/v1/payment_intents/${paymentIntentId}` });
  const { creditCard: _card, ...donationData } = submission;
  const answer = fetch(`${server.baseUrl}${API_PATHS.confirmDonation}`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ paymentIntentId, donationData }),
  }).then(async (response) => ({ status: response.status, connection: response.headers.get('connection'), body: await response.json() }));
  await held.arrived;
  return { paymentIntentId, held, answer };
}

/** True for the server's log line of shutdown event `event` (close-on-signals.ts). */
const shutdownEvent = (event: string) => (line: string) => line.includes(`"event":"${event}"`);

describe('SIGTERM while a donation is in flight', () => {
  it('stops accepting connections, answers the donation, records it succeeded, and exits 0', { timeout: PROCESS_TEST_TIMEOUT_MS }, async () => {
    const server = await start();
    const donation = await donationInFlight(server);

    const exitCode = server.stop();
    await server.waitForLine(shutdownEvent('shutdown.started'), 10_000);
    // No new connection is accepted once the app closes (a load balancer's next request goes elsewhere).
    await vi.waitFor(() => expect(fetch(`${server.baseUrl}${HEALTH_PATHS.live}`)).rejects.toThrow(), { timeout: 5_000 });
    expect(server.child.exitCode, 'the server waits for the donation in flight').toBeNull();

    donation.held.release();
    const { status, connection, body } = await donation.answer;
    expect(status, JSON.stringify(body)).toBe(200);
    // Its keep-alive connection ends with the answer, so it cannot hold the exit (drain-connections.ts).
    expect(connection).toBe('close');
    expect(ProcessDonationSuccessSchema.parse(body).data).toMatchObject({ amount: 25, isTestPayment: true });
    expect(await exitCode).toBe(0);
    expect(server.lines.some(shutdownEvent('shutdown.finished'))).toBe(true);

    if (!workspace.postgres) {
      // The embedded server stopped after the API drained: nothing runs on the folder any more.
      expect(await runningServerOf(path.join(workspace.dataDir, CLUSTER_DIR_NAME))).toBeUndefined();
    }
    const database = workspace.postgres ?? (await openDatabase({ dataDir: workspace.dataDir, databaseUrl: undefined }));
    try {
      const rows = await database.db
        .select({ status: donations.status, amountCents: donations.amountCents, cardLast4: donations.cardLast4 })
        .from(donations)
        .where(eq(donations.paymentIntentId, donation.paymentIntentId));
      expect(rows).toEqual([{ status: 'succeeded', amountCents: 2500, cardLast4: '4242' }]);
    } finally {
      if (!workspace.postgres) await database.close();
    }
  });
});

describe('SIGTERM while a request cannot finish within SHUTDOWN_TIMEOUT_MS', () => {
  it('exits 1 after SHUTDOWN_TIMEOUT_MS with a logged error', { timeout: PROCESS_TEST_TIMEOUT_MS }, async () => {
    const server = await start({ SHUTDOWN_TIMEOUT_MS: '1000' });
    const donation = await donationInFlight(server);
    try {
      const cut = expect(donation.answer, 'the request is cut by the exit').rejects.toThrow();
      expect(await server.stop()).toBe(1);
      await cut;
      const timeout = server.lines.find(shutdownEvent('shutdown.timeout'));
      expect(timeout, server.lines.slice(-5).join('\n')).toBeDefined();
      expect(JSON.parse(timeout ?? '{}')).toMatchObject({ level: 50, timeoutMs: 1000 });
      expect(server.lines.some(shutdownEvent('shutdown.finished'))).toBe(false);
    } finally {
      donation.held.release();
    }
  });
});

describe('a second SIGTERM a second or more after the first, while a request is in flight', () => {
  it('exits 1 at once with a logged error (issue #33: only a signal within SAME_SIGNAL_WINDOW_MS is the same one)', { timeout: PROCESS_TEST_TIMEOUT_MS }, async () => {
    const server = await start();
    const donation = await donationInFlight(server);
    try {
      const cut = expect(donation.answer, 'the request is cut by the exit').rejects.toThrow();
      server.child.kill('SIGTERM');
      await server.waitForLine(shutdownEvent('shutdown.started'), 10_000);
      // NOTE: the operator's pause between the two signals is what is tested, not a wait for a condition.
      await delay(2 * SAME_SIGNAL_WINDOW_MS);
      expect(server.child.exitCode, 'the server still waits for the donation in flight').toBeNull();
      expect(await server.stop()).toBe(1);
      await cut;
      const repeated = server.lines.find(shutdownEvent('shutdown.repeated'));
      expect(repeated, server.lines.slice(-5).join('\n')).toBeDefined();
      expect(JSON.parse(repeated ?? '{}')).toMatchObject({ level: 50, signal: 'SIGTERM' });
      expect(server.lines.some(shutdownEvent('shutdown.finished'))).toBe(false);
    } finally {
      donation.held.release();
    }
  });
});
