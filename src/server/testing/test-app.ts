import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import type { Logger } from 'pino';
import { API_PATHS, CSRF_HEADER_NAME } from '../../shared/api';
import type { DonationSubmissionInput } from '../../shared/donation';
import { buildApp, type App } from '../app';
import { loadConfig, type ServerConfig } from '../platform/config';
import { csrfCookieNames } from '../http/csrf';
import type { Database, DatabaseHandle } from '../db/client';
import { donations } from '../db/schema';
import { reconcilePendingDonations, type ReconcileReport } from '../donations/reconciler';
import { IDEMPOTENCY_KEY_HEADER } from '../../shared/api';
import type { Clock } from '../platform/clock';
import type { ChargeRequest, PaymentGateway } from '../payments/gateway';
import { createTestGateway } from '../payments/test-gateway';
import { withGatewayTimeout } from '../payments/with-timeout';
import { clearLedger } from './clear-ledger';
import { openTestDatabase } from './test-database';
import type { ResolveHost } from '../webhooks/target';

/**
 * Builds the real app on a real, isolated database for API tests (fastify/demo's `test/helper.ts`,
 * DESIGN.md example 7): requests go through `app.inject()`, no port is opened, nothing is mocked.
 */

/** The HTML the temporary WEB_ROOT serves as index.html. */
export const TEST_INDEX_HTML =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test site</title></head><body><div id="root"></div></body></html>';

/** A PaymentGateway that forwards to another and counts the charges it was asked to make. */
export interface CountingGateway extends PaymentGateway {
  /** Number of `charge` calls so far. */
  readonly calls: number;
  /** Sets `calls` back to 0. */
  reset(): void;
}

/** Wraps `inner` (the real test gateway by default) so tests can assert how many charges were attempted. */
export function countingGateway(inner: PaymentGateway = createTestGateway()): CountingGateway {
  let calls = 0;
  return {
    ...inner,
    get calls() {
      return calls;
    },
    reset() {
      calls = 0;
    },
    charge(request: ChargeRequest) {
      calls += 1;
      return inner.charge(request);
    },
  };
}

/** The cookie header and matching X-XSRF-TOKEN value a visitor's browser would send after loading the page. */
export interface CsrfCredentials {
  /** `Cookie` header value: `_csrf=<signed secret>; XSRF-TOKEN=<token>` (`__Host-` names over HTTPS). */
  cookie: string;
  /** The token, to send in the X-XSRF-TOKEN header. */
  token: string;
}

/** An app under test with its database and gateway. */
export interface TestApp {
  app: App;
  /** The test database, straight (not through `options.database`): for setting up and checking rows. */
  db: Database;
  /** The gateway the app charges through: `options.gateway` (or the test gateway) counted, within GATEWAY_TIMEOUT_MS. */
  gateway: CountingGateway;
  config: ServerConfig;
  /**
   * Loads the page (GET /) like a browser, with `headers` (e.g. `X-Forwarded-Proto: https` for HTTPS behind the
   * trusted proxy, which sets the `__Host-` cookies), and returns the CSRF cookies it set.
   */
  csrf(headers?: Record<string, string>): Promise<CsrfCredentials>;
  /**
   * POSTs a JSON body to /api/process-donation with valid CSRF credentials (fetched on first use),
   * or with the `csrf` given, or with none when `csrf` is null; with `idempotencyKey` as the Idempotency-Key header.
   */
  postDonation(body: unknown, csrf?: CsrfCredentials | null, idempotencyKey?: string): Promise<LightMyRequestResponse>;
  /** POSTs a JSON body to `url` as postDonation does (valid CSRF credentials, and `idempotencyKey` when given). */
  post(url: string, body: unknown, idempotencyKey?: string): Promise<LightMyRequestResponse>;
  /** Number of rows in the donations table. */
  countDonations(): Promise<number>;
  /**
   * Runs the reconciler once, as main's loop would, on the straight database and the app's gateway, for the
   * donations pending longer than `pendingTimeoutMs` (default 0: all of them).
   */
  reconcile(pendingTimeoutMs?: number): Promise<ReconcileReport>;
  /** Empties the ledger (donations, idempotency keys, receipts, mail outbox) and resets the gateway's call count (for a `beforeEach`). */
  reset(): Promise<void>;
  /** Closes the app, drops or discards the database and removes the temporary WEB_ROOT. */
  close(): Promise<void>;
}

/** Options of {@link createTestApp}. */
export interface TestAppOptions {
  /** A pino logger (e.g. createLogger with an in-memory stream); silent by default. */
  logger?: Logger;
  /** index.html of the temporary WEB_ROOT; `null` for a WEB_ROOT without one (site not built). */
  indexHtml?: string | null;
  /** Extra files of the temporary WEB_ROOT, by path relative to it (e.g. `assets/app-1a2b3c.js`). */
  files?: Record<string, string>;
  /** Extra environment variables for loadConfig (e.g. ORGANIZATION_URL; RATE_LIMITS: 'on' for the card-testing limits, off by default). */
  env?: Record<string, string>;
  /** The gateway to count calls of; the real test gateway by default. Wrapped in GATEWAY_TIMEOUT_MS as main does. */
  gateway?: PaymentGateway;
  /** The database the app uses, built from the test database (e.g. a fault-injecting one); the test database by default. */
  database?: (handle: DatabaseHandle) => Database;
  /** The clock of the app's runners and receipt links (e.g. a manualClock); the machine's by default. */
  clock?: Clock;
  /** The resolver of webhook hosts (issue #38: a name that resolves to a private address); the system's by default. */
  webhookResolver?: ResolveHost;
}

/** Reads `name=value` of each Set-Cookie header, as a browser would store it. */
export function setCookies(response: LightMyRequestResponse): Map<string, string> {
  const header = response.headers['set-cookie'];
  const lines = header === undefined ? [] : Array.isArray(header) ? header : [header];
  const cookies = new Map<string, string>();
  for (const line of lines) {
    const pair = line.split(';')[0] ?? '';
    const eq = pair.indexOf('=');
    if (eq > 0) cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
  }
  return cookies;
}

/**
 * Loads the landing page (GET /donate; `/` redirects, issue #24) of `app` like a browser, with `headers`, and returns the CSRF cookies it set, as the header
 * values a browser would send back. Throws when the page sets none.
 */
export async function csrfCredentialsOf(app: App, headers: Record<string, string> = {}): Promise<CsrfCredentials> {
  const page = await app.inject({ method: 'GET', url: '/donate', headers });
  const cookies = setCookies(page);
  // The names the app chose for this request's protocol: `__Host-` ones over HTTPS, plain ones over HTTP.
  const names = (['https', 'http'] as const)
    .map((protocol) => csrfCookieNames({ protocol }))
    .find((candidate) => cookies.has(candidate.secret) && cookies.has(candidate.token));
  if (page.statusCode !== 200 || !names) {
    throw new Error(`GET /donate did not set the CSRF cookies (status ${page.statusCode})`);
  }
  const token = cookies.get(names.token) ?? '';
  // The page echoes the cookie's value exactly (issue #2), so the token is sent as the cookie holds it.
  return { cookie: `${names.secret}=${cookies.get(names.secret)}; ${names.token}=${token}`, token };
}

/**
 * Builds the app for a test file: an isolated migrated database (see openTestDatabase), the real test
 * gateway (or `options.gateway`) wrapped in a counter, a temporary WEB_ROOT with a tiny index.html,
 * config from a fixed environment (not the developer's; card-testing limits off). Call `close()` in `afterAll`.
 */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const webRoot = await mkdtemp(path.join(tmpdir(), 'donation-web-'));
  if (options.indexHtml !== null) await writeFile(path.join(webRoot, 'index.html'), options.indexHtml ?? TEST_INDEX_HTML);
  for (const [file, content] of Object.entries(options.files ?? {})) {
    await mkdir(path.dirname(path.join(webRoot, file)), { recursive: true });
    await writeFile(path.join(webRoot, file), content);
  }
  // NOTE: card-testing limits off unless a test turns them on (env RATE_LIMITS: 'on'): most tests send far
  // more than 5 requests from one IP (issue #4).
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', RATE_LIMITS: 'off', WEB_ROOT: webRoot, ...options.env });
  const database = await openTestDatabase();
  const gateway = countingGateway(withGatewayTimeout(options.gateway ?? createTestGateway(), config.gatewayTimeoutMs));
  let app: App;
  try {
    const db = options.database ? options.database(database) : database.db;
    app = await buildApp({ config, db, gateway, logger: options.logger, clock: options.clock, webhookResolver: options.webhookResolver });
  } catch (error) {
    await database.close();
    await rm(webRoot, { recursive: true, force: true });
    throw error;
  }

  let cachedCsrf: CsrfCredentials | undefined;
  const csrf = (headers: Record<string, string> = {}) => csrfCredentialsOf(app, headers);

  /** POSTs `body` to `url` with `credentials` (the cached visitor's when undefined, none when null) and `idempotencyKey`. */
  const postJson = async (url: string, body: unknown, credentials: CsrfCredentials | null | undefined, idempotencyKey: string | undefined) => {
    if (credentials === undefined) cachedCsrf ??= await csrf();
    const used = credentials === undefined ? cachedCsrf : credentials;
    return app.inject({
      method: 'POST',
      url,
      headers: {
        ...(used ? { cookie: used.cookie, [CSRF_HEADER_NAME]: used.token } : {}),
        ...(idempotencyKey === undefined ? {} : { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey }),
      },
      payload: body as object,
    });
  };

  return {
    app,
    db: database.db,
    gateway,
    config,
    csrf,
    postDonation: (body, credentials, idempotencyKey) => postJson(API_PATHS.processDonation, body, credentials, idempotencyKey),
    post: (url, body, idempotencyKey) => postJson(url, body, undefined, idempotencyKey),
    async countDonations() {
      const [row] = await database.db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(donations);
      return row?.n ?? 0;
    },
    reconcile(pendingTimeoutMs = 0) {
      return reconcilePendingDonations({ db: database.db, gateway, log: app.log }, pendingTimeoutMs);
    },
    async reset() {
      await clearLedger(database.db);
      gateway.reset();
    },
    async close() {
      await app.close();
      await database.close();
      await rm(webRoot, { recursive: true, force: true });
    },
  };
}

/** A card expiry year two years from now, as the form sends it ('2028'). */
export const FUTURE_EXPIRY_YEAR = String(new Date().getFullYear() + 2);

/**
 * A valid submission as the site's form sends it: $25 one-time to research-science, paid with the
 * 4242 4242 4242 4242 test Visa, optional fields as empty strings. `overrides` replace top-level fields
 * and `card` replaces card fields.
 */
export function validSubmission(
  overrides: Partial<DonationSubmissionInput> = {},
  card: Partial<DonationSubmissionInput['creditCard']> = {},
): DonationSubmissionInput {
  return {
    amount: 25,
    frequency: 'one-time',
    cause: 'research-science',
    donorName: 'Ana Reef',
    donorEmail: 'ana@example.org',
    donorPhone: '',
    donorAddress: { street: '', city: '', state: '', zipCode: '', country: '' },
    paymentMethod: 'credit_card',
    message: '',
    isAnonymous: false,
    ...overrides,
    creditCard: {
      number: '4242424242424242',
      holderName: 'Ana Reef',
      expiryMonth: '12',
      expiryYear: FUTURE_EXPIRY_YEAR,
      cvv: '123',
      type: 'visa',
      ...card,
    },
  };
}

/**
 * The submission without its amount and card, as the Stripe-mode form sends it (create-payment-intent's
 * `donation`; issue #11).
 */
export function cardlessDetails(submission: DonationSubmissionInput): Omit<DonationSubmissionInput, 'amount' | 'creditCard'> {
  const { amount: _amount, creditCard: _card, ...details } = submission;
  return details;
}
