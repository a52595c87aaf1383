/**
 * An offline stand-in of the subset of Stripe's API (https://docs.stripe.com/api) that the donation
 * server and Stripe.js use, on 127.0.0.1 and a random port, for tests only (never imported by src/).
 * Point the official SDK at it with `new Stripe(secretKey, { host: '127.0.0.1', port, protocol: 'http' })`.
 * It also serves the Stripe.js stand-in (`/v3/stripe.js`) and its card iframe, so a test page loads
 * `${url}/v3/stripe.js` and card data goes from that origin's iframe straight to this server.
 *
 * Reproduced: form-encoded bracket-notation requests; secret-key (Bearer) and publishable-key
 * (`key` + `client_secret`) authentication with Stripe's 401; idempotency (replay with
 * `Idempotent-Replayed: true`, 400 idempotency_error on other parameters, 409 while in flight);
 * `expand[]`; Stripe's error bodies and statuses (402 card_error, 400/404 invalid_request_error);
 * `Request-Id`; CORS; signed webhooks. Not reproduced: rate limits (429), API versions other than the
 * SDK's, Connect (`Stripe-Account`), list pagination cursors, search, payment methods other than cards,
 * manual capture, automatic webhook retries on a schedule.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type Stripe from 'stripe';
import { buildStripeJs, ELEMENTS_FRAME_HTML, threeDSecurePage } from '../stripe-js/build.js';
import { canonicalForm, parseForm, readString, readStringList, type FormHash } from './form-body.js';
import { newId, resourceMissing, StripeApiError, StripeState, type AuthenticationOutcome, type RequestContext, type StripeErrorBody } from './stripe-state.js';
import { WebhookSender, type WebhookDelivery, type WebhookEndpoint } from './webhooks.js';

/** Options of `startStripeApiStandIn`. Keys default to fixed test keys; the webhook endpoint can also be set later with `setWebhook`. */
export interface StripeApiStandInOptions {
  /** The one secret key accepted (default `sk_test_stand_in_0000000000000000`). */
  secretKey?: string;
  /** The one publishable key accepted (default `pk_test_stand_in_0000000000000000`). */
  publishableKey?: string;
  /** Where to POST events (e.g. `http://127.0.0.1:3000/api/webhooks/stripe`). */
  webhookUrl?: string;
  /** The endpoint's signing secret (`whsec_...`) used for `Stripe-Signature`. */
  webhookSecret?: string;
  /** Event types sent to the endpoint, as a Stripe endpoint's `enabled_events` (default `['*']`). */
  enabledEvents?: string[];
  /** Clock for `created` timestamps and card expiry checks (default: the real clock). */
  now?: () => Date;
  /** Port on 127.0.0.1 (default 0: a random free port). A fixed one suits a server started before the stand-in's tests. */
  port?: number;
}

/** One logged API request. Never carries the body, so never a card number. */
export interface LoggedRequest {
  method: string;
  /** Path without the query string, e.g. `/v1/payment_intents/pi_123/confirm`. */
  path: string;
  auth: 'secret' | 'publishable' | 'none';
  idempotencyKey: string | null;
  /** HTTP status answered; 0 for a connection dropped by `failNextRequests({dropConnection: true})`. */
  status: number;
  /** True when the answer was an idempotent replay. */
  replayed: boolean;
}

/** What `failNextRequests` answers instead of executing a request. */
export interface InjectedFailure {
  /** HTTP status (default 500). */
  status?: number;
  /** Stripe error type (default `api_error`). */
  type?: StripeErrorBody['type'];
  message?: string;
  /** Value of the `Stripe-Should-Retry` header, which the SDK obeys; unset sends none (the SDK then retries 409 and 5xx). */
  shouldRetry?: boolean;
  /** Closes the connection without any answer instead (the SDK sees a network error; it retries a closed connection once even with maxNetworkRetries 0). */
  dropConnection?: boolean;
  /** Only requests for which this returns true count (default: every `/v1/` request). */
  match?: (request: { method: string; path: string }) => boolean;
}

/** Answers held by `holdNextRequests`. */
export interface HeldRequests {
  /** Resolves once all `count` requests have come in (their answers are ready, not sent). */
  readonly arrived: Promise<void>;
  /** Sends the held answers, and the later ones of this hold at once. */
  release(): void;
}

/** A running stand-in and its test controls. */
export interface StripeApiStandIn {
  /** Base URL, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  /** Port, for the SDK's `port` option. */
  readonly port: number;
  /** The accepted secret key. */
  readonly secretKey: string;
  /** The accepted publishable key. */
  readonly publishableKey: string;
  /** URL of the Stripe.js stand-in script (`${url}/v3/stripe.js`). */
  readonly stripeJsUrl: string;
  /** Every Event created so far, oldest first (live objects; do not mutate). */
  readonly events: readonly Stripe.Event[];
  /** Snapshot (deep copy) of every PaymentIntent, oldest first. */
  readonly paymentIntents: Stripe.PaymentIntent[];
  /** Snapshot of every Charge, oldest first. */
  readonly charges: Stripe.Charge[];
  /** Snapshot of every Refund, oldest first. */
  readonly refunds: Stripe.Refund[];
  /** Snapshot of every Dispute, oldest first. */
  readonly disputes: Stripe.Dispute[];
  /** Every `/v1/` request answered so far (method, path, auth kind, idempotency key, status; no bodies). */
  readonly requests: readonly LoggedRequest[];
  /** Every webhook delivery attempt that finished (status or network error). */
  readonly deliveries: readonly WebhookDelivery[];
  /** Sets or changes the webhook endpoint (url, secret, enabled events), e.g. once the server under test listens. */
  setWebhook(endpoint: WebhookEndpoint): void;
  /** Sends `event` again `times` times (default 1) at once, concurrently: Stripe's at-least-once duplicates. Resolves when all were answered. */
  deliver(event: Stripe.Event, options?: { times?: number }): Promise<void>;
  /** Resolves once no webhook delivery is in flight (events are delivered asynchronously after each API answer). */
  deliveriesSettled(): Promise<void>;
  /** Keeps new events instead of sending them, until `releaseDeliveries`. */
  holdDeliveries(): void;
  /** Sends the held events one after the other, in creation order or `reverse` order, and resumes normal delivery. */
  releaseDeliveries(options?: { order?: 'created' | 'reverse' }): Promise<void>;
  /** Opens a dispute on a succeeded PaymentIntent's charge (`charge.dispute.created`); `amount` in cents defaults to the charge's. */
  createDispute(paymentIntentId: string, options?: { reason?: string; amount?: number }): Stripe.Dispute;
  /** Closes a dispute as the bank decided (`charge.dispute.closed`). */
  closeDispute(disputeId: string, outcome: 'won' | 'lost'): Stripe.Dispute;
  /** Completes or fails the 3-D Secure challenge of an intent in `requires_action`, as the donor would in the challenge frame. */
  authenticate(intentId: string, outcome: AuthenticationOutcome): Stripe.PaymentIntent | Stripe.SetupIntent;
  /** Answers the next `count` matching `/v1/` requests with an error (or drops them), without executing them (an outage: nothing is charged nor saved for idempotency). */
  failNextRequests(count: number, failure?: InjectedFailure): void;
  /**
   * Executes the next `count` matching `/v1/` requests at once but holds their answers for `delayMs`:
   * a client with a shorter timeout gives up although Stripe did the work (the ambiguous timeout case).
   */
  delayNextRequests(count: number, delayMs: number, options?: { match?: InjectedFailure['match'] }): void;
  /**
   * Executes the next `count` matching `/v1/` requests at once but holds their answers until the test releases them:
   * a Stripe call that stays in flight for exactly as long as a test needs (a shutdown during a donation; issue #14).
   */
  holdNextRequests(count: number, options?: { match?: InjectedFailure['match'] }): HeldRequests;
  /** Stops the server (pending delayed answers are dropped). */
  close(): Promise<void>;
}

interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

interface SavedAnswer {
  fingerprint: string;
  answer: Answer | null;
}

const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, POST, DELETE, OPTIONS',
  'Access-Control-Allow-Headers': 'Authorization, Content-Type, Idempotency-Key, Stripe-Version, Stripe-Account, User-Agent, X-Stripe-Client-User-Agent, X-Stripe-Client-Telemetry',
  'Access-Control-Expose-Headers': 'Request-Id, Stripe-Version, Idempotency-Key, Idempotent-Replayed',
  'Access-Control-Max-Age': '300',
};

function maskKey(key: string): string {
  return `${key.slice(0, 8)}${'*'.repeat(Math.max(0, key.length - 12))}${key.slice(-4)}`;
}

function unauthorized(message: string): StripeApiError {
  return new StripeApiError(401, { type: 'invalid_request_error', message });
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > 1_000_000) throw new StripeApiError(413, { type: 'invalid_request_error', message: 'Request body too large.' });
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Replaces ids at the `expand` paths (`latest_charge`, `payment_method`, `latest_charge.payment_intent`) with the objects (https://docs.stripe.com/api/expanding_objects). */
function expand(object: unknown, paths: string[], state: StripeState): unknown {
  const copy = structuredClone(object);
  for (const path of paths) {
    const segments = path.split('.');
    let node: unknown = copy;
    for (let i = 0; i < segments.length; i += 1) {
      const key = segments[i] ?? '';
      if (typeof node !== 'object' || node === null || !(key in node)) {
        throw new StripeApiError(400, { type: 'invalid_request_error', message: `This property cannot be expanded (${segments.slice(0, i + 1).join('.')}).`, param: 'expand' });
      }
      const record = node as Record<string, unknown>;
      const value = record[key];
      if (typeof value === 'string') {
        const found = state.lookup(value);
        if (!found) throw new StripeApiError(400, { type: 'invalid_request_error', message: `This property cannot be expanded (${path}).`, param: 'expand' });
        record[key] = structuredClone(found);
      }
      node = record[key];
    }
  }
  return copy;
}

/** Fields Stripe returns for a PaymentIntent fetched with a publishable key (https://docs.stripe.com/api/payment_intents/object: "RETRIEVABLE WITH PUBLISHABLE KEY"). */
const PUBLISHABLE_PAYMENT_INTENT_FIELDS = [
  'id', 'object', 'amount', 'amount_details', 'automatic_payment_methods', 'canceled_at', 'cancellation_reason', 'capture_method',
  'client_secret', 'confirmation_method', 'created', 'currency', 'description', 'last_payment_error', 'livemode', 'next_action',
  'payment_method', 'payment_method_types', 'processing', 'receipt_email', 'setup_future_usage', 'shipping', 'status',
] as const;

const PUBLISHABLE_SETUP_INTENT_FIELDS = [
  'id', 'object', 'automatic_payment_methods', 'cancellation_reason', 'client_secret', 'created', 'description', 'last_setup_error',
  'livemode', 'next_action', 'payment_method', 'payment_method_types', 'status', 'usage',
] as const;

function pick(object: object, fields: readonly string[]): Record<string, unknown> {
  const source = object as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const field of fields) if (field in source) out[field] = structuredClone(source[field]);
  return out;
}

/**
 * Starts the stand-in on 127.0.0.1 with a random port (or `options.port`). Resolves once it listens.
 * Errors: rejects when the port cannot be bound.
 */
export async function startStripeApiStandIn(options: StripeApiStandInOptions = {}): Promise<StripeApiStandIn> {
  const secretKey = options.secretKey ?? 'sk_test_stand_in_0000000000000000';
  const publishableKey = options.publishableKey ?? 'pk_test_stand_in_0000000000000000';
  const webhooks = new WebhookSender({ url: options.webhookUrl, secret: options.webhookSecret, enabledEvents: options.enabledEvents });
  const state = new StripeState({ now: options.now, onEvent: (event) => pendingEvents.push(event) });
  let pendingEvents: Stripe.Event[] = [];
  const requests: LoggedRequest[] = [];
  const idempotency = new Map<string, SavedAnswer>();
  const failures: { remaining: number; failure: InjectedFailure }[] = [];
  const delays: { remaining: number; delayMs: number; match: InjectedFailure['match'] }[] = [];
  const holds: { remaining: number; match: InjectedFailure['match']; park: (respond: () => void) => void }[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let baseUrl = '';
  const stripeJs = buildStripeJs();

  /** Events are sent after the answer that caused them, like Stripe's asynchronous delivery. */
  function flushEvents(): void {
    const events = pendingEvents;
    pendingEvents = [];
    for (const event of events) webhooks.enqueue(event);
  }

  function authenticateRequest(request: IncomingMessage, params: FormHash): RequestContext['auth'] {
    const header = request.headers.authorization;
    let key: string | undefined;
    if (header) {
      const bearer = /^Bearer\s+(\S+)$/i.exec(header);
      const basic = /^Basic\s+(\S+)$/i.exec(header);
      key = bearer?.[1] ?? (basic?.[1] ? Buffer.from(basic[1], 'base64').toString('utf8').split(':')[0] : undefined);
    } else key = readString(params, 'key');
    if (!key) {
      throw unauthorized(
        "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, or we can help at https://support.stripe.com/.",
      );
    }
    if (key === secretKey) return 'secret';
    if (key === publishableKey) return 'publishable';
    throw unauthorized(`Invalid API Key provided: ${maskKey(key)}`);
  }

  function requireSecret(ctx: RequestContext): void {
    if (ctx.auth !== 'secret') {
      throw unauthorized('This API call cannot be made with a publishable API key. Please use a secret API key. You can find a list of your API keys at https://dashboard.stripe.com/account/apikeys.');
    }
  }

  /** Checks the `client_secret` a publishable-key request carries against the intent's. */
  function requireClientSecret(params: FormHash, intent: { id: string; client_secret: string | null }, noun: string): void {
    if (readString(params, 'client_secret') !== intent.client_secret) {
      throw new StripeApiError(400, {
        type: 'invalid_request_error',
        message: `The client_secret provided does not match any associated ${noun} on this account. Ensure the publishable key used belongs to the same account that created the ${noun}.`,
        param: 'client_secret',
      });
    }
  }

  /** Routes one authenticated `/v1/` request. `params` excludes `key` and `client_secret`. */
  function route(method: string, path: string, params: FormHash, rawParams: FormHash, ctx: RequestContext): Answer {
    const segments = path.split('/').filter(Boolean).slice(1);
    const [resource, id, action] = segments;
    const expandPaths = readStringList(params, 'expand');
    delete params.expand;
    const ok = (object: object): Answer => ({ status: 200, body: expandPaths.length > 0 ? expand(object, expandPaths, state) : object });
    const list = (data: object[], url: string): Answer => ({ status: 200, body: { object: 'list', data: structuredClone(data), has_more: false, url } });
    const publicIntent = (intent: Stripe.PaymentIntent): Answer => (ctx.auth === 'secret' ? ok(intent) : { status: 200, body: pick(intent, PUBLISHABLE_PAYMENT_INTENT_FIELDS) });
    const publicSetup = (intent: Stripe.SetupIntent): Answer => (ctx.auth === 'secret' ? ok(intent) : { status: 200, body: pick(intent, PUBLISHABLE_SETUP_INTENT_FIELDS) });
    const key = `${method} ${resource ?? ''}${id ? '/:id' : ''}${action ? `/${action}` : ''}`;
    const secretOnly = (): void => requireSecret(ctx);
    switch (key) {
      case 'POST payment_intents':
        secretOnly();
        return ok(state.createPaymentIntent(params, ctx));
      case 'GET payment_intents':
        secretOnly();
        return list(state.listPaymentIntents(params), '/v1/payment_intents');
      case 'GET payment_intents/:id': {
        const intent = state.paymentIntent(id ?? '');
        if (ctx.auth === 'publishable') requireClientSecret(rawParams, intent, 'PaymentIntent');
        return publicIntent(intent);
      }
      case 'POST payment_intents/:id':
        secretOnly();
        return ok(state.updatePaymentIntent(id ?? '', params, ctx));
      case 'POST payment_intents/:id/confirm': {
        if (ctx.auth === 'publishable') requireClientSecret(rawParams, state.paymentIntent(id ?? ''), 'PaymentIntent');
        return publicIntent(state.confirmPaymentIntent(id ?? '', params, ctx));
      }
      case 'POST payment_intents/:id/cancel':
        secretOnly();
        return ok(state.cancelPaymentIntent(id ?? '', params, ctx));
      case 'POST refunds':
        secretOnly();
        return ok(state.createRefund(params, ctx));
      case 'GET refunds':
        // https://docs.stripe.com/api/refunds/list: newest first, filtered by `charge` or `payment_intent` (one page: has_more false).
        secretOnly();
        return list(
          [...state.refunds.values()]
            .filter((refund) => (!readString(params, 'charge') || refund.charge === readString(params, 'charge')) && (!readString(params, 'payment_intent') || refund.payment_intent === readString(params, 'payment_intent')))
            .reverse()
            .slice(0, Number(readString(params, 'limit') ?? 10)),
          '/v1/refunds',
        );
      case 'POST customers':
        secretOnly();
        return ok(state.createCustomer(params, ctx));
      case 'GET customers/:id':
        secretOnly();
        return ok(state.customer(id ?? ''));
      case 'GET customers/:id/payment_methods':
        secretOnly();
        return list(state.listCustomerPaymentMethods(id ?? ''), `/v1/customers/${id}/payment_methods`);
      case 'POST setup_intents':
        secretOnly();
        return ok(state.createSetupIntent(params, ctx));
      case 'GET setup_intents/:id': {
        const intent = state.setupIntent(id ?? '');
        if (ctx.auth === 'publishable') requireClientSecret(rawParams, intent, 'SetupIntent');
        return publicSetup(intent);
      }
      case 'POST setup_intents/:id/confirm': {
        if (ctx.auth === 'publishable') requireClientSecret(rawParams, state.setupIntent(id ?? ''), 'SetupIntent');
        return publicSetup(state.confirmSetupIntent(id ?? '', params, ctx));
      }
      case 'POST payment_methods':
        return ok(state.createPaymentMethod(params, ctx));
      case 'GET payment_methods/:id':
        secretOnly();
        return ok(state.paymentMethod(id ?? ''));
      case 'POST payment_methods/:id/attach':
        secretOnly();
        return ok(state.attachPaymentMethod(id ?? '', params, ctx));
      case 'GET events':
        secretOnly();
        return list(
          state.events.filter((event) => !readString(params, 'type') || event.type === readString(params, 'type')).slice(-Number(readString(params, 'limit') ?? 10)).reverse(),
          '/v1/events',
        );
      case 'GET events/:id':
        secretOnly();
        return ok(state.retrieveEvent(id ?? ''));
      case 'GET charges/:id':
      case 'GET refunds/:id':
      case 'GET disputes/:id': {
        secretOnly();
        const found = state.lookup(id ?? '');
        if (!found || (found as { object?: string }).object !== resource?.replace(/s$/, '')) throw resourceMissing(resource?.replace(/s$/, '') ?? '', id ?? '');
        return ok(found);
      }
      default:
        throw new StripeApiError(404, {
          type: 'invalid_request_error',
          message: `Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
        });
    }
  }

  function send(response: ServerResponse, answer: Answer, headers: Record<string, string>): void {
    const body = JSON.stringify(answer.body, null, 2);
    response.writeHead(answer.status, { ...CORS_HEADERS, 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, no-store', ...headers, ...answer.headers });
    response.end(body);
  }

  /** The error answer; a publishable key sees only the publishable fields of the intent inside it, as from Stripe. */
  function errorAnswer(error: StripeApiError, auth: LoggedRequest['auth'] = 'secret'): Answer {
    if (auth !== 'publishable') return { status: error.status, body: { error: error.body } };
    const { payment_intent: paymentIntent, setup_intent: setupIntent, ...rest } = error.body;
    return {
      status: error.status,
      body: {
        error: {
          ...rest,
          ...(paymentIntent ? { payment_intent: pick(paymentIntent, PUBLISHABLE_PAYMENT_INTENT_FIELDS) } : {}),
          ...(setupIntent ? { setup_intent: pick(setupIntent, PUBLISHABLE_SETUP_INTENT_FIELDS) } : {}),
        },
      },
    };
  }

  async function handleApi(request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> {
    const method = request.method ?? 'GET';
    const path = url.pathname;
    const requestId = newId('req', 14);
    const idempotencyKey = typeof request.headers['idempotency-key'] === 'string' ? request.headers['idempotency-key'] : null;
    const log: LoggedRequest = { method, path, auth: 'none', idempotencyKey, status: 0, replayed: false };
    const headers: Record<string, string> = {
      'Request-Id': requestId,
      'Stripe-Version': typeof request.headers['stripe-version'] === 'string' ? request.headers['stripe-version'] : 'stand-in',
    };
    if (idempotencyKey) headers['Idempotency-Key'] = idempotencyKey;
    let delayMs = 0;
    const matches = (match: InjectedFailure['match']): boolean => !match || match({ method, path });
    const hold = holds.find((entry) => entry.remaining > 0 && matches(entry.match));
    if (hold) hold.remaining -= 1;
    const finish = (answer: Answer): void => {
      log.status = answer.status;
      requests.push(log);
      const respond = (): void => {
        send(response, answer, headers);
        flushEvents();
      };
      if (hold) hold.park(respond);
      else if (delayMs > 0) {
        const timer = setTimeout(() => {
          timers.delete(timer);
          respond();
        }, delayMs);
        timers.add(timer);
      } else respond();
    };
    const failure = failures.find((entry) => entry.remaining > 0 && matches(entry.failure.match));
    if (failure) {
      failure.remaining -= 1;
      const { status = 500, type = 'api_error', message = 'An unknown error occurred', shouldRetry, dropConnection } = failure.failure;
      if (shouldRetry !== undefined) headers['Stripe-Should-Retry'] = String(shouldRetry);
      await readBody(request);
      if (dropConnection) {
        log.status = 0;
        requests.push(log);
        request.socket.destroy();
        return;
      }
      finish({ status, body: { error: { type, message } } });
      return;
    }
    const delay = delays.find((entry) => entry.remaining > 0 && matches(entry.match));
    if (delay) {
      delay.remaining -= 1;
      delayMs = delay.delayMs;
    }
    let savedKey: string | null = null;
    try {
      const raw = method === 'GET' || method === 'DELETE' ? url.search.slice(1) : await readBody(request);
      const params = parseForm(raw);
      const auth = authenticateRequest(request, params);
      log.auth = auth;
      const rawParams = { ...params } as FormHash;
      delete params.key;
      delete params.client_secret;
      const ctx: RequestContext = { auth, requestId, idempotencyKey, baseUrl };
      if (method === 'POST' && idempotencyKey) {
        savedKey = `${auth}:${idempotencyKey}`;
        const fingerprint = `${method} ${path} ${canonicalForm(params)}`;
        const saved = idempotency.get(savedKey);
        if (saved) {
          savedKey = null;
          if (saved.fingerprint !== fingerprint) {
            finish(
              errorAnswer(
                new StripeApiError(400, {
                  type: 'idempotency_error',
                  message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idempotencyKey}' if you meant to execute a different request.`,
                }),
              ),
            );
          } else if (!saved.answer) {
            finish(
              errorAnswer(
                new StripeApiError(409, {
                  type: 'idempotency_error',
                  message: 'There is currently another in-progress request using this Idempotent Key (that probably means you submitted twice, and the other request is still going through): ' + idempotencyKey + '. Please try again later.',
                }),
              ),
            );
          } else {
            log.replayed = true;
            headers['Idempotent-Replayed'] = 'true';
            finish(saved.answer);
          }
          return;
        }
        idempotency.set(savedKey, { fingerprint, answer: null });
      }
      const answer = route(method, path, params, rawParams, ctx);
      if (savedKey) idempotency.set(savedKey, { fingerprint: idempotency.get(savedKey)?.fingerprint ?? '', answer });
      finish(answer);
    } catch (error) {
      if (!(error instanceof StripeApiError)) throw error;
      const answer = errorAnswer(error, log.auth);
      if (savedKey) {
        const saved = idempotency.get(savedKey);
        if (error.saved && saved) saved.answer = answer;
        else idempotency.delete(savedKey);
      }
      finish(answer);
    }
  }

  async function handleStandInPage(request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> {
    // The stand-in's own 3-D Secure endpoint: the challenge frame posts `outcome` with the intent's client_secret.
    const match = /^\/_stand-in\/3ds\/((?:pi|seti)_[A-Za-z0-9]+)$/.exec(url.pathname);
    if (!match?.[1]) {
      response.writeHead(404, CORS_HEADERS).end();
      return;
    }
    const intentId = match[1];
    if (request.method === 'GET') {
      response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(threeDSecurePage(intentId, url.searchParams.get('return_url')));
      return;
    }
    const params = parseForm(await readBody(request));
    const outcome = readString(params, 'outcome') === 'complete' ? 'complete' : 'fail';
    try {
      const intent = intentId.startsWith('seti_') ? state.setupIntent(intentId) : state.paymentIntent(intentId);
      if (readString(params, 'client_secret') !== intent.client_secret) throw new StripeApiError(400, { type: 'invalid_request_error', message: 'The client_secret provided does not match.', param: 'client_secret' });
      const ctx: RequestContext = { auth: 'publishable', requestId: newId('req', 14), idempotencyKey: null, baseUrl };
      const result = state.authenticate(intentId, outcome, ctx);
      const returnUrl = readString(params, 'return_url');
      if (returnUrl) {
        const target = new URL(returnUrl);
        target.searchParams.set(intentId.startsWith('seti_') ? 'setup_intent' : 'payment_intent', intentId);
        target.searchParams.set(intentId.startsWith('seti_') ? 'setup_intent_client_secret' : 'payment_intent_client_secret', intent.client_secret ?? '');
        target.searchParams.set('redirect_status', result.status === 'succeeded' ? 'succeeded' : 'failed');
        response.writeHead(303, { Location: target.toString() }).end();
      } else send(response, { status: 200, body: { status: result.status } }, {});
    } catch (error) {
      if (!(error instanceof StripeApiError)) throw error;
      send(response, errorAnswer(error), {});
    }
    flushEvents();
  }

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', baseUrl || 'http://127.0.0.1');
    const done = (promise: Promise<void>): void => {
      promise.catch((error: unknown) => {
        if (!response.headersSent) send(response, { status: 500, body: { error: { type: 'api_error', message: `stand-in failure: ${String(error)}` } } }, {});
      });
    };
    if (request.method === 'OPTIONS') {
      response.writeHead(200, CORS_HEADERS).end();
      return;
    }
    if (url.pathname.startsWith('/v1/')) done(handleApi(request, response, url));
    else if (url.pathname.startsWith('/_stand-in/')) done(handleStandInPage(request, response, url));
    else if (request.method === 'GET' && /^\/(v3|[a-z]+)\/stripe\.js$/.test(url.pathname)) {
      done(
        stripeJs.then((bundle) => {
          response.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'no-cache' }).end(bundle.stripeJs);
        }),
      );
    } else if (request.method === 'GET' && url.pathname === '/elements-frame.js') {
      done(
        stripeJs.then((bundle) => {
          response.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-cache' }).end(bundle.frameJs);
        }),
      );
    } else if (request.method === 'GET' && url.pathname === '/elements-frame.html') {
      response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-cache' }).end(ELEMENTS_FRAME_HTML);
    } else {
      response.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found');
    }
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  baseUrl = `http://127.0.0.1:${port}`;
  // Build the Stripe.js bundle now so a build error surfaces here rather than in a browser test.
  await stripeJs;

  return {
    url: baseUrl,
    port,
    secretKey,
    publishableKey,
    stripeJsUrl: `${baseUrl}/v3/stripe.js`,
    get events() {
      return state.events;
    },
    get paymentIntents() {
      return structuredClone([...state.paymentIntents.values()]);
    },
    get charges() {
      return structuredClone([...state.charges.values()]);
    },
    get refunds() {
      return structuredClone([...state.refunds.values()]);
    },
    get disputes() {
      return structuredClone([...state.disputes.values()]);
    },
    get requests() {
      return requests;
    },
    get deliveries() {
      return webhooks.deliveries;
    },
    setWebhook: (endpoint) => webhooks.configure(endpoint),
    deliver: (event, deliverOptions) => webhooks.deliver(event, deliverOptions?.times ?? 1),
    deliveriesSettled: () => webhooks.settled(),
    holdDeliveries: () => webhooks.hold(),
    releaseDeliveries: (releaseOptions) => webhooks.release(releaseOptions?.order ?? 'created'),
    createDispute: (paymentIntentId, disputeOptions) => {
      const dispute = state.createDispute(paymentIntentId, disputeOptions);
      flushEvents();
      return structuredClone(dispute);
    },
    closeDispute: (disputeId, outcome) => {
      const dispute = state.closeDispute(disputeId, outcome);
      flushEvents();
      return structuredClone(dispute);
    },
    authenticate: (intentId, outcome) => {
      const intent = state.authenticate(intentId, outcome, null);
      flushEvents();
      return structuredClone(intent);
    },
    failNextRequests: (count, failure = {}) => {
      failures.push({ remaining: count, failure });
    },
    delayNextRequests: (count, delayMs, delayOptions) => {
      delays.push({ remaining: count, delayMs, match: delayOptions?.match });
    },
    holdNextRequests: (count, holdOptions) => {
      const parked: (() => void)[] = [];
      let released = false;
      let allArrived = (): void => undefined;
      const arrived = new Promise<void>((resolve) => (allArrived = resolve));
      holds.push({
        remaining: count,
        match: holdOptions?.match,
        park: (respond) => {
          if (released) return respond();
          parked.push(respond);
          if (parked.length === count) allArrived();
        },
      });
      return {
        arrived,
        release: () => {
          released = true;
          for (const respond of parked.splice(0)) respond();
        },
      };
    },
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await webhooks.settled();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
