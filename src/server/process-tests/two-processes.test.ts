import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { inArray } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_PATHS, IDEMPOTENCY_KEY_HEADER, TOO_MANY_ATTEMPTS_MESSAGE } from '../../shared/api';
import { donations, mailOutbox } from '../db/schema';
import { apiError } from '../http/errors';
import { parseLedger, type ChargeRecord } from '../payments/charge-ledger';
import { TEST_GATEWAY_LEDGER_FILE } from '../payments/create-gateway';
import { ADMIN_BILLING_RUN_PATH } from '../recurring/plugin';
import { startReverseProxy, type ReverseProxy } from '../testing/reverse-proxy';
import { csrfHeaders, type ServerProcess } from '../testing/server-process';
import { useServerWorkspace } from '../testing/server-workspace';
import { startSmtpTestServer, type SmtpTestServer } from '../testing/smtp-test-server';
import { validSubmission } from '../testing/test-app';

/**
 * Issue #14, "Two server processes on one PostgreSQL and one Redis, behind a small reverse proxy started by the
 * test": two production servers (TRUST_PROXY=true, REDIS_URL, the card-testing limits on, one SMTP server, the
 * test gateway) share one PostgreSQL database and one Redis; a round-robin proxy sends consecutive requests to
 * each in turn. Each process has a DATA_DIR of its own, as on two machines, so each test gateway keeps its own
 * charge ledger on disk: a charge made twice, by either process, shows as two records across the two ledgers.
 * The database is the run's test server (a template copy): two API processes never share one DATA_DIR's embedded
 * server, which refuses a second (decision 0065).
 */

const ADMIN_TOKEN = 'two-processes-admin-token-0123456789abcdef';
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** This run's own Redis keys, deleted afterwards. */
const RATE_LIMIT_KEY_PREFIX = `reef-donations-test:${randomUUID()}:`;
/** Refused attempts per client IP before 429 (RATE_LIMIT_IP_MAX; the default, set here so the test says it). */
const IP_REFUSALS_MAX = 5;
const PROCESS_NAMES = ['api-1', 'api-2'] as const;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Each test sends tens of requests through two server processes, the proxy and the test on two shared cores. */
const TEST_TIMEOUT_MS = 90_000;

const workspace = useServerWorkspace('two-processes');
let servers: ServerProcess[] = [];
let proxy: ReverseProxy;
let smtp: SmtpTestServer;

beforeAll(async () => {
  smtp = await startSmtpTestServer();
  const env = (name: string) => ({
    DATA_DIR: path.join(workspace.dataDir, name),
    COOKIE_SECRET: 'two-processes-cookie-secret-0123456789abcdef',
    TRUST_PROXY: 'true',
    REDIS_URL,
    RATE_LIMITS: 'on',
    RATE_LIMIT_KEY_PREFIX,
    RATE_LIMIT_IP_MAX: String(IP_REFUSALS_MAX),
    // Every test but the card-testing one sends from 127.0.0.1, and the idempotency test sends one e-mail 50 times.
    RATE_LIMIT_IP_CEILING_MAX: '10000',
    RATE_LIMIT_EMAIL_MAX: '10000',
    SMTP_URL: smtp.url,
    // Both relays poll the one outbox often, so they race for each message.
    MAIL_POLL_INTERVAL_MS: '20',
    ADMIN_TOKEN,
    // Only the operator's runs bill: the runners' own runs wait a day.
    BILLING_INTERVAL_MS: String(DAY_MS),
  });
  servers = await Promise.all(PROCESS_NAMES.map((name) => workspace.start(env(name))));
  proxy = await startReverseProxy(servers.map((server) => server.baseUrl));
}, 120_000);

afterAll(async () => {
  // NOTE: the processes first: the SMTP server's close waits for their pooled connections to end.
  for (const server of servers) await server.kill();
  await proxy?.close();
  await smtp?.close();
  const redis = new Redis(REDIS_URL);
  const keys = await redis.keys(`${RATE_LIMIT_KEY_PREFIX}*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

/** Every charge the two test gateways made, read from their ledger files. */
async function chargesOfBothProcesses(): Promise<ChargeRecord[]> {
  const ledgers = await Promise.all(
    PROCESS_NAMES.map((name) => readFile(path.join(workspace.dataDir, name, TEST_GATEWAY_LEDGER_FILE), 'utf8').catch(() => '')),
  );
  return ledgers.flatMap((text) => parseLedger(text).records);
}

/** The database the two processes share. */
function sharedDb() {
  if (!workspace.postgres) throw new Error('The two processes need their PostgreSQL database');
  return workspace.postgres.db;
}

/** POSTs a donation through the proxy with the CSRF credentials `headers`; resolves with the status and JSON body. */
async function donate(headers: Record<string, string>, body: unknown, idempotencyKey?: string) {
  const response = await fetch(`${proxy.baseUrl}${API_PATHS.processDonation}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...headers,
      ...(idempotencyKey === undefined ? {} : { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey }),
    },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as unknown };
}

/**
 * POSTs `body` as JSON to `url` from the loopback address `localAddress` (127.0.0.x, all of which are this
 * machine's on Linux), so the proxy sees a client IP of the test's own; resolves with the status and JSON body.
 */
function postFrom(localAddress: string, url: string, headers: Record<string, string>, body: unknown) {
  const payload = JSON.stringify(body);
  return new Promise<{ status: number; body: unknown }>((resolve, reject) => {
    const outgoing = httpRequest(
      url,
      { method: 'POST', localAddress, headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
        incoming.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(payload);
  });
}

describe('two server processes behind one proxy, on one PostgreSQL and one Redis', () => {
  it('makes one charge for 50 concurrent requests with one Idempotency-Key spread over both', async () => {
    const headers = await csrfHeaders(proxy.baseUrl);
    const key = randomUUID();
    // An amount no other test uses, to find this donation's charges in the ledgers.
    const submission = validSubmission({ amount: 37.13, donorEmail: 'one-key@example.org' });
    const before = [...proxy.forwarded];
    const answers = await Promise.all(Array.from({ length: 50 }, () => donate(headers, submission, key)));
    expect(proxy.forwarded.map((count, index) => count - (before[index] ?? 0))).toEqual([25, 25]);

    // Each answer is the charge's answer (first or replayed) or 409: the first request is still in flight.
    expect(answers.every(({ status }) => status === 200 || status === 409)).toBe(true);
    const succeeded = answers.filter(({ status }) => status === 200);
    expect(succeeded.length).toBeGreaterThan(0);
    for (const answer of succeeded) expect(answer.body).toEqual(succeeded[0]?.body);
    // A retry once every request is answered replays the same answer.
    expect(await donate(headers, submission, key)).toEqual(succeeded[0]);

    const charges = (await chargesOfBothProcesses()).filter((charge) => charge.amountCents === 3713);
    expect(charges).toHaveLength(1);
    const rows = await sharedDb().select().from(donations).where(inArray(donations.donorEmail, ['one-key@example.org']));
    expect(rows.map((row) => row.status)).toEqual(['succeeded']);
  }, TEST_TIMEOUT_MS);

  it('shares the card-testing limits: one IP refused 5 times by the two processes gets 429 from both', async () => {
    // A client address of this test's own, so the other tests' requests do not count against it.
    const clientIp = '127.0.0.2';
    const headers = await csrfHeaders(proxy.baseUrl);
    const url = `${proxy.baseUrl}${API_PATHS.processDonation}`;
    const before = [...proxy.forwarded];
    const refused = [];
    for (let attempt = 0; attempt < IP_REFUSALS_MAX; attempt += 1) {
      refused.push((await postFrom(clientIp, url, headers, { ...validSubmission(), amount: 'lots' })).status);
    }
    expect(refused).toEqual(Array(IP_REFUSALS_MAX).fill(400));
    // The two next attempts, valid ones, reach one process each: both refuse them, counting what the other saw.
    const next = [
      await postFrom(clientIp, url, headers, validSubmission({ donorEmail: 'tester-1@example.org' })),
      await postFrom(clientIp, url, headers, validSubmission({ donorEmail: 'tester-2@example.org' })),
    ];
    expect(next).toEqual([
      { status: 429, body: apiError(TOO_MANY_ATTEMPTS_MESSAGE) },
      { status: 429, body: apiError(TOO_MANY_ATTEMPTS_MESSAGE) },
    ]);
    // Round robin: each process answered some of the seven, so neither could have counted five on its own.
    const sent = proxy.forwarded.map((count, index) => count - (before[index] ?? 0));
    expect(Math.min(...sent)).toBeGreaterThanOrEqual(3);
    // Another client is not held up by them.
    const other = await donate(headers, validSubmission({ donorEmail: 'not-a-tester@example.org' }));
    expect(other.status).toBe(200);
  }, TEST_TIMEOUT_MS);

  it('sends each receipt once, the two mail relays working on one outbox', async () => {
    const headers = await csrfHeaders(proxy.baseUrl);
    const donors = Array.from({ length: 12 }, (_, index) => `receipt-${index}@example.org`);
    const answers = await Promise.all(donors.map((donorEmail) => donate(headers, validSubmission({ donorEmail }))));
    expect(answers.map(({ status }) => status)).toEqual(donors.map(() => 200));

    // Once the outbox says every receipt is sent, the SMTP server has had every send there was.
    const receiptStatuses = async () =>
      (await sharedDb().select({ status: mailOutbox.status }).from(mailOutbox).where(inArray(mailOutbox.recipient, donors))).map((row) => row.status);
    await expect.poll(receiptStatuses, { timeout: 30_000, interval: 50 }).toEqual(donors.map(() => 'sent'));
    const recipients = smtp.received
      .map((mail) => (mail.to && !Array.isArray(mail.to) ? mail.to.text : ''))
      .filter((to) => donors.includes(to));
    expect(recipients.sort()).toEqual([...donors].sort());
  }, TEST_TIMEOUT_MS);

  it('charges each renewal once when both processes run billing at once', async () => {
    const headers = await csrfHeaders(proxy.baseUrl);
    const donors = Array.from({ length: 8 }, (_, index) => `monthly-${index}@example.org`);
    const answers = await Promise.all(
      donors.map((donorEmail) => donate(headers, validSubmission({ donorEmail, amount: 30, frequency: 'monthly' }))),
    );
    expect(answers.map(({ status }) => status)).toEqual(donors.map(() => 200));

    const billAsOf = async (server: ServerProcess, asOf: Date) => {
      const response = await fetch(`${server.baseUrl}${ADMIN_BILLING_RUN_PATH}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ asOf: asOf.toISOString() }),
      });
      expect(response.status).toBe(200);
      return (await response.json()) as { charged: number; failed: number; skipped: number };
    };
    const renewalKeys = async () =>
      (await chargesOfBothProcesses()).map((charge) => charge.idempotencyKey).filter((key) => key.startsWith('renewal-'));
    const asOf = new Date(Date.now() + 40 * DAY_MS);

    const reports = await Promise.all(servers.map((server) => billAsOf(server, asOf)));
    expect(reports.reduce((sum, report) => sum + report.charged, 0)).toBe(donors.length);
    expect(reports.reduce((sum, report) => sum + report.failed, 0)).toBe(0);
    const keys = await renewalKeys();
    expect(keys).toHaveLength(donors.length);
    expect(new Set(keys).size).toBe(donors.length);

    // Both again, as of the same day: nothing left to charge.
    const again = await Promise.all(servers.map((server) => billAsOf(server, asOf)));
    expect(again.map((report) => report.charged)).toEqual([0, 0]);
    expect(await renewalKeys()).toHaveLength(donors.length);
  }, TEST_TIMEOUT_MS);
});
