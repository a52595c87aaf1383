/**
 * The objects and state machines of the Stripe API stand-in: PaymentIntents, Charges, Refunds,
 * Customers, PaymentMethods, SetupIntents, Disputes and Events, in the shapes of the `stripe` package's
 * types (API version `Stripe.API_VERSION`). Behaviour follows Stripe's docs:
 * https://docs.stripe.com/payments/paymentintents/lifecycle, https://docs.stripe.com/api/errors,
 * https://docs.stripe.com/testing, https://docs.stripe.com/payments/save-during-payment,
 * https://docs.stripe.com/refunds, https://docs.stripe.com/disputes. Amounts are integer minor units (cents).
 */
import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import { DECLINES, isCardValidationError, summariseCard, TEST_PAYMENT_METHODS, type CardBehaviour, type Decline } from './cards.js';
import { readHash, readRecord, readString, readStringList, type FormHash } from './form-body.js';

/** The `error` object of a Stripe error answer (https://docs.stripe.com/api/errors). */
export interface StripeErrorBody {
  type: 'api_error' | 'card_error' | 'idempotency_error' | 'invalid_request_error';
  message: string;
  code?: string;
  decline_code?: string;
  param?: string;
  doc_url?: string;
  charge?: string;
  payment_intent?: Stripe.PaymentIntent;
  setup_intent?: Stripe.SetupIntent;
  payment_method?: Stripe.PaymentMethod;
  request_log_url?: string;
}

/**
 * A Stripe error answer: HTTP `status` and the `error` body. `saved` says whether Stripe's idempotency
 * layer keeps it for replay (true once the endpoint started executing, e.g. a decline; false for a
 * request refused by parameter validation, https://docs.stripe.com/api/idempotent_requests).
 */
export class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: StripeErrorBody,
    readonly saved = false,
  ) {
    super(body.message);
  }
}

/** Who made a request and how: the key kind, Stripe's request id and idempotency key (they go into `event.request`), and the stand-in's base URL. */
export interface RequestContext {
  auth: 'secret' | 'publishable';
  requestId: string;
  idempotencyKey: string | null;
  baseUrl: string;
}

/** Outcome of a stand-in 3-D Secure challenge. */
export type AuthenticationOutcome = 'complete' | 'fail';

type EventOf<T extends Stripe.Event['type']> = Extract<Stripe.Event, { type: T }>;

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A Stripe-like object id: `prefix_` and 24 random alphanumerics. */
export function newId(prefix: string, length = 24): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const byte of bytes) out += ALPHABET[byte % ALPHABET.length];
  return `${prefix}_${out}`;
}

const CURRENCIES = new Set(['usd', 'eur', 'gbp', 'cad', 'aud', 'bzd', 'jpy']);
const MINIMUM_AMOUNT: Record<string, number> = { usd: 50, eur: 50, gbp: 30, cad: 50, aud: 50, bzd: 100, jpy: 50 };
const MAXIMUM_AMOUNT = 99_999_999;
const CANCELABLE = new Set(['requires_payment_method', 'requires_capture', 'requires_confirmation', 'requires_action', 'processing']);
const AMOUNT_UPDATABLE = new Set(['requires_payment_method', 'requires_confirmation', 'requires_action']);

function docUrl(code: string): string {
  return `https://stripe.com/docs/error-codes/${code.replace(/_/g, '-')}`;
}

/** 400 invalid_request_error (not saved for idempotent replay). */
export function invalidRequest(message: string, param?: string, code?: string): StripeApiError {
  return new StripeApiError(400, {
    type: 'invalid_request_error',
    message,
    ...(code ? { code, doc_url: docUrl(code) } : {}),
    ...(param ? { param } : {}),
  });
}

/** 404 resource_missing, worded as Stripe words it: `No such payment_intent: 'pi_123'`. */
export function resourceMissing(noun: string, id: string, param = 'id'): StripeApiError {
  return new StripeApiError(404, {
    type: 'invalid_request_error',
    code: 'resource_missing',
    doc_url: docUrl('resource_missing'),
    message: `No such ${noun}: '${id}'`,
    param,
  });
}

function unexpectedState(message: string): StripeApiError {
  return new StripeApiError(400, { type: 'invalid_request_error', code: 'payment_intent_unexpected_state', doc_url: docUrl('payment_intent_unexpected_state'), message }, true);
}

/** Refuses any top-level parameter not in `allowed` with Stripe's `parameter_unknown` error. */
export function allowOnly(params: FormHash, allowed: readonly string[]): void {
  for (const key of Object.keys(params)) {
    if (!allowed.includes(key)) throw invalidRequest(`Received unknown parameter: ${key}`, key, 'parameter_unknown');
  }
}

function readInteger(params: FormHash, key: string): number | undefined {
  const raw = readString(params, key);
  if (raw === undefined) return undefined;
  if (!/^-?\d+$/.test(raw)) throw invalidRequest(`Invalid integer: ${raw}`, key, 'parameter_invalid_integer');
  return Number(raw);
}

function readBoolean(params: FormHash, key: string): boolean | undefined {
  const raw = readString(params, key);
  if (raw === undefined) return undefined;
  if (raw !== 'true' && raw !== 'false') throw invalidRequest(`Invalid boolean: ${raw}`, key, 'parameter_invalid_boolean');
  return raw === 'true';
}

function readEnum<T extends string>(params: FormHash, key: string, values: readonly T[]): T | undefined {
  const raw = readString(params, key);
  if (raw === undefined) return undefined;
  if (!(values as readonly string[]).includes(raw)) throw invalidRequest(`Invalid ${key}: must be one of ${values.join(', ')}`, key, 'parameter_invalid_string');
  return raw as T;
}

function requireParam(value: string | number | undefined, key: string): void {
  if (value === undefined || value === '') throw invalidRequest(`Missing required param: ${key}.`, key, 'parameter_missing');
}

/** Merges `metadata[...]` into `target` as Stripe does: an empty value deletes that key, `metadata=` (empty) clears all. */
function mergeMetadata(target: Stripe.Metadata, params: FormHash): Stripe.Metadata {
  if (params.metadata === '') return {};
  const updates = readRecord(params, 'metadata');
  if (!updates) return target;
  const merged = { ...target };
  for (const [key, value] of Object.entries(updates)) {
    if (value === '') delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

function clone<T>(value: T): T {
  return structuredClone(value);
}

/** Private state of a PaymentMethod that Stripe keeps but does not show. */
interface PaymentMethodState {
  behaviour: CardBehaviour;
  /** Authenticated and saved for off-session use (setup_future_usage=off_session or a SetupIntent). */
  setUpForOffSession: boolean;
  /** Used once without being attached to a customer: Stripe refuses to use it again. */
  consumed: boolean;
}

/** Options of the state: the clock (defaults to the real one). */
export interface StripeStateOptions {
  now?: () => Date;
  /** Called with each new event, in creation order. */
  onEvent?: (event: Stripe.Event) => void;
}

/** All objects of one stand-in account, and the operations the HTTP layer maps its endpoints to. */
export class StripeState {
  readonly paymentIntents = new Map<string, Stripe.PaymentIntent>();
  readonly charges = new Map<string, Stripe.Charge>();
  readonly refunds = new Map<string, Stripe.Refund>();
  readonly customers = new Map<string, Stripe.Customer>();
  readonly paymentMethods = new Map<string, Stripe.PaymentMethod>();
  readonly setupIntents = new Map<string, Stripe.SetupIntent>();
  readonly disputes = new Map<string, Stripe.Dispute>();
  readonly events: Stripe.Event[] = [];
  private readonly eventsById = new Map<string, Stripe.Event>();
  private readonly methodState = new Map<string, PaymentMethodState>();
  private readonly returnUrls = new Map<string, string>();
  private readonly now: () => Date;
  private readonly onEvent: (event: Stripe.Event) => void;

  constructor(options: StripeStateOptions = {}) {
    this.now = options.now ?? (() => new Date());
    this.onEvent = options.onEvent ?? (() => undefined);
  }

  private timestamp(): number {
    return Math.floor(this.now().getTime() / 1000);
  }

  // ---------------------------------------------------------------- events

  /** Creates an Event (https://docs.stripe.com/api/events/object) with a snapshot of `object`, stores it and hands it to `onEvent`. */
  emit<T extends Stripe.Event['type']>(
    type: T,
    object: EventOf<T>['data']['object'],
    ctx: RequestContext | null,
    previousAttributes?: Record<string, unknown>,
  ): EventOf<T> {
    const event = {
      id: newId('evt'),
      object: 'event',
      api_version: Stripe.API_VERSION,
      created: this.timestamp(),
      data: { object: clone(object), ...(previousAttributes ? { previous_attributes: previousAttributes } : {}) },
      livemode: false,
      pending_webhooks: 1,
      request: ctx ? { id: ctx.requestId, idempotency_key: ctx.idempotencyKey } : { id: null, idempotency_key: null },
      type,
    } satisfies Omit<Stripe.EventBase, 'type' | 'data'> & { type: T; data: { object: unknown } } as unknown as EventOf<T>;
    this.events.push(event);
    this.eventsById.set(event.id, event);
    this.onEvent(event);
    return event;
  }

  /** GET /v1/events/:id. */
  retrieveEvent(id: string): Stripe.Event {
    const event = this.eventsById.get(id);
    if (!event) throw resourceMissing('event', id);
    return event;
  }

  // ---------------------------------------------------------------- lookups

  /** Finds any stored object by id (used by `expand`). */
  lookup(id: string): object | undefined {
    const stores: Map<string, object>[] = [this.paymentIntents, this.charges, this.refunds, this.customers, this.paymentMethods, this.setupIntents, this.disputes];
    for (const store of stores) {
      const found = store.get(id);
      if (found) return found;
    }
    return this.eventsById.get(id);
  }

  /** The PaymentIntent `id`, or 404 resource_missing. */
  paymentIntent(id: string): Stripe.PaymentIntent {
    const intent = this.paymentIntents.get(id);
    if (!intent) throw resourceMissing('payment_intent', id, 'intent');
    return intent;
  }

  /** The SetupIntent `id`, or 404 resource_missing. */
  setupIntent(id: string): Stripe.SetupIntent {
    const intent = this.setupIntents.get(id);
    if (!intent) throw resourceMissing('setup_intent', id, 'intent');
    return intent;
  }

  /** The Customer `id`, or 404 resource_missing. */
  customer(id: string, param = 'id'): Stripe.Customer {
    const customer = this.customers.get(id);
    if (!customer) throw resourceMissing('customer', id, param);
    return customer;
  }

  /** The PaymentMethod `id`, or 404 resource_missing (Stripe writes "No such PaymentMethod"). */
  paymentMethod(id: string, param = 'id'): Stripe.PaymentMethod {
    const method = this.paymentMethods.get(id);
    if (!method) throw resourceMissing('PaymentMethod', id, param);
    return method;
  }

  // ---------------------------------------------------------------- customers

  /** POST /v1/customers (https://docs.stripe.com/api/customers/create). */
  createCustomer(params: FormHash, ctx: RequestContext): Stripe.Customer {
    allowOnly(params, ['email', 'name', 'description', 'metadata', 'phone', 'payment_method', 'invoice_settings', 'address', 'expand']);
    const customer: Stripe.Customer = {
      id: newId('cus', 14),
      object: 'customer',
      address: null,
      balance: 0,
      created: this.timestamp(),
      currency: null,
      default_source: null,
      delinquent: false,
      description: readString(params, 'description') ?? null,
      email: readString(params, 'email') ?? null,
      invoice_prefix: randomBytes(4).toString('hex').toUpperCase(),
      invoice_settings: { custom_fields: null, default_payment_method: null, footer: null, rendering_options: null },
      livemode: false,
      metadata: mergeMetadata({}, params),
      name: readString(params, 'name') ?? null,
      phone: readString(params, 'phone') ?? null,
      preferred_locales: [],
      shipping: null,
      tax_exempt: 'none',
      test_clock: null,
    };
    this.customers.set(customer.id, customer);
    const paymentMethodId = readString(params, 'payment_method');
    if (paymentMethodId) this.attach(this.resolvePaymentMethod(paymentMethodId, ctx), customer.id, ctx);
    return customer;
  }

  /** POST /v1/payment_methods/:id/attach. */
  attachPaymentMethod(id: string, params: FormHash, ctx: RequestContext): Stripe.PaymentMethod {
    allowOnly(params, ['customer', 'expand']);
    const customerId = readString(params, 'customer');
    requireParam(customerId, 'customer');
    const method = this.paymentMethod(id);
    this.customer(customerId ?? '', 'customer');
    const state = this.methodState.get(method.id);
    if (state?.consumed) throw this.consumedError();
    this.attach(method, customerId ?? '', ctx);
    return method;
  }

  /** GET /v1/customers/:id/payment_methods: the customer's cards, newest first. */
  listCustomerPaymentMethods(customerId: string): Stripe.PaymentMethod[] {
    this.customer(customerId);
    return [...this.paymentMethods.values()].filter((method) => method.customer === customerId).reverse();
  }

  private attach(method: Stripe.PaymentMethod, customerId: string, ctx: RequestContext | null): void {
    if (method.customer === customerId) return;
    if (method.customer) throw invalidRequest('The payment method you provided has already been attached to a customer.', 'payment_method');
    method.customer = customerId;
    this.emit('payment_method.attached', method, ctx);
  }

  private consumedError(): StripeApiError {
    return invalidRequest(
      'The provided PaymentMethod was previously used with a PaymentIntent without Customer attachment, shared with a connected account without Customer attachment, or was detached from a Customer. It may not be used again. To use a PaymentMethod multiple times, you must attach it to a Customer first.',
      'payment_method',
    );
  }

  // ---------------------------------------------------------------- payment methods

  /**
   * POST /v1/payment_methods with `type=card&card[number]=...` (Stripe.js, publishable key only: with a
   * secret key Stripe refuses raw card numbers unless the account is specially enabled).
   * The number and CVC are read once to pick the card's behaviour and are not kept.
   */
  createPaymentMethod(params: FormHash, ctx: RequestContext): Stripe.PaymentMethod {
    allowOnly(params, ['type', 'card', 'billing_details', 'metadata', 'expand']);
    const type = readString(params, 'type');
    requireParam(type, 'type');
    if (type !== 'card') throw invalidRequest(`The stand-in supports only type=card, not '${type}'.`, 'type', 'parameter_invalid_string');
    return this.createCardPaymentMethod(readHash(params, 'card'), readHash(params, 'billing_details'), ctx, 'card');
  }

  private createCardPaymentMethod(card: FormHash | undefined, billing: FormHash | undefined, ctx: RequestContext, paramPrefix: string): Stripe.PaymentMethod {
    if (!card) throw invalidRequest(`Missing required param: ${paramPrefix}.`, paramPrefix, 'parameter_missing');
    if (ctx.auth === 'secret' && readString(card, 'number') !== undefined) {
      throw new StripeApiError(402, {
        type: 'card_error',
        message:
          'Sending credit card numbers directly to the Stripe API is generally unsafe. We suggest you use test tokens that map to the test card you are using, see https://stripe.com/docs/testing. To enable testing raw card data APIs, see https://support.stripe.com/questions/enabling-access-to-raw-card-data-apis.',
      });
    }
    for (const key of ['number', 'exp_month', 'exp_year']) {
      if (readString(card, key) === undefined) throw invalidRequest(`Missing required param: ${paramPrefix}[${key}].`, `${paramPrefix}[${key}]`, 'parameter_missing');
    }
    const summary = summariseCard(
      {
        number: readString(card, 'number') ?? '',
        expMonth: Number(readString(card, 'exp_month')),
        expYear: Number(readString(card, 'exp_year')),
        cvc: readString(card, 'cvc'),
      },
      this.now(),
    );
    if (isCardValidationError(summary)) {
      throw new StripeApiError(402, { type: 'card_error', code: summary.code, doc_url: docUrl(summary.code), message: summary.message, param: summary.param });
    }
    const method: Stripe.PaymentMethod = {
      id: newId('pm'),
      object: 'payment_method',
      allow_redisplay: 'unspecified',
      billing_details: {
        address: null,
        email: billing ? (readString(billing, 'email') ?? null) : null,
        name: billing ? (readString(billing, 'name') ?? null) : null,
        phone: null,
        tax_id: null,
      },
      card: {
        brand: summary.brand,
        checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: readString(card, 'cvc') ? 'unchecked' : null },
        country: 'US',
        display_brand: summary.brand === 'amex' ? 'american_express' : summary.brand,
        exp_month: summary.expMonth,
        exp_year: summary.expYear,
        fingerprint: summary.fingerprint,
        funding: summary.funding,
        generated_from: null,
        last4: summary.last4,
        networks: { available: [summary.brand], preferred: null },
        regulated_status: 'unregulated',
        three_d_secure_usage: { supported: true },
        wallet: null,
      },
      created: this.timestamp(),
      customer: null,
      customer_account: null,
      livemode: false,
      metadata: {},
      type: 'card',
    };
    this.paymentMethods.set(method.id, method);
    this.methodState.set(method.id, { behaviour: summary.behaviour, setUpForOffSession: false, consumed: false });
    return method;
  }

  /** A stored PaymentMethod, or a new one for one of Stripe's test ids (`pm_card_visa`: a fresh `pm_...` each time, as Stripe does). */
  private resolvePaymentMethod(id: string, ctx: RequestContext): Stripe.PaymentMethod {
    const testNumber = TEST_PAYMENT_METHODS[id];
    if (testNumber) {
      const year = this.now().getUTCFullYear() + 1;
      // The secret-key refusal of raw numbers does not apply to Stripe's test ids: they are tokens.
      return this.createCardPaymentMethod({ number: testNumber, exp_month: '12', exp_year: String(year), cvc: testNumber.length === 15 ? '1234' : '123' } as FormHash, undefined, { ...ctx, auth: 'publishable' }, 'card');
    }
    return this.paymentMethod(id, 'payment_method');
  }

  /** The payment method a confirmation names (`payment_method` or `payment_method_data`), checked against the intent's customer. */
  private confirmationMethod(params: FormHash, current: string | null, customer: string | null, ctx: RequestContext): Stripe.PaymentMethod | null {
    const data = readHash(params, 'payment_method_data');
    let method: Stripe.PaymentMethod | null = null;
    const id = readString(params, 'payment_method');
    if (id) method = this.resolvePaymentMethod(id, ctx);
    else if (data) {
      if (readString(data, 'type') !== 'card') throw invalidRequest('The stand-in supports only payment_method_data[type]=card.', 'payment_method_data[type]');
      method = this.createCardPaymentMethod(readHash(data, 'card'), readHash(data, 'billing_details'), ctx, 'payment_method_data[card]');
    } else if (current) method = this.paymentMethod(current, 'payment_method');
    if (!method) return null;
    if (method.customer && method.customer !== customer) {
      throw invalidRequest(
        customer
          ? `The provided PaymentMethod ${method.id} does not belong to the Customer ${customer}.`
          : `The provided PaymentMethod belongs to a Customer, but you did not provide a Customer. Please provide the Customer ${method.customer} associated with this PaymentMethod.`,
        'payment_method',
      );
    }
    if (!method.customer && this.methodState.get(method.id)?.consumed) throw this.consumedError();
    return method;
  }

  // ---------------------------------------------------------------- payment intents

  /** POST /v1/payment_intents (https://docs.stripe.com/api/payment_intents/create); with `confirm=true`, also confirms. */
  createPaymentIntent(params: FormHash, ctx: RequestContext): Stripe.PaymentIntent {
    allowOnly(params, [
      'amount', 'currency', 'automatic_payment_methods', 'metadata', 'description', 'customer', 'setup_future_usage', 'payment_method',
      'allowed_payment_method_types', 'excluded_payment_method_types', 'payment_method_data', 'payment_method_options', 'confirm', 'off_session', 'receipt_email', 'return_url',
      'statement_descriptor', 'statement_descriptor_suffix', 'capture_method', 'confirmation_method', 'error_on_requires_action',
      'use_stripe_sdk', 'mandate_data', 'shipping', 'expand',
    ]);
    const amount = readInteger(params, 'amount');
    const currency = readString(params, 'currency')?.toLowerCase();
    requireParam(amount, 'amount');
    requireParam(currency, 'currency');
    this.checkAmount(amount ?? 0, currency ?? '');
    const customerId = readString(params, 'customer');
    if (customerId) this.customer(customerId, 'customer');
    const captureMethod = readEnum(params, 'capture_method', ['automatic', 'automatic_async', 'manual'] as const) ?? 'automatic_async';
    if (captureMethod === 'manual') throw invalidRequest('The stand-in supports automatic capture only.', 'capture_method', 'parameter_invalid_string');
    const types = readStringList(params, 'allowed_payment_method_types');
    const automatic = readHash(params, 'automatic_payment_methods');
    if (types.length > 0 && automatic) {
      throw invalidRequest('You may only specify one of these parameters: automatic_payment_methods, allowed_payment_method_types.', 'automatic_payment_methods');
    }
    if (types.some((type) => type !== 'card')) throw invalidRequest('The stand-in supports only allowed_payment_method_types[]=card.', 'allowed_payment_method_types');
    // Since API version 2023-08-16 automatic_payment_methods is on unless the payment method types are listed; since
    // 2026-09-30.endive the list is `allowed_payment_method_types` (`payment_method_types` is an unknown parameter).
    const allowRedirects = automatic ? readEnum(automatic, 'allow_redirects', ['always', 'never'] as const) : undefined;
    const automaticPaymentMethods: Stripe.PaymentIntent.AutomaticPaymentMethods | null =
      types.length > 0 || (automatic && readBoolean(automatic, 'enabled') === false) ? null : { ...(allowRedirects ? { allow_redirects: allowRedirects } : {}), enabled: true };
    const setupFutureUsage = readEnum(params, 'setup_future_usage', ['off_session', 'on_session'] as const) ?? null;
    const id = newId('pi');
    const intent: Stripe.PaymentIntent = {
      id,
      object: 'payment_intent',
      allowed_payment_method_types: types.length > 0 ? ['card'] : null,
      amount: amount ?? 0,
      amount_capturable: 0,
      amount_details: { tip: {} },
      amount_received: 0,
      application: null,
      application_fee_amount: null,
      automatic_payment_methods: automaticPaymentMethods,
      canceled_at: null,
      cancellation_reason: null,
      capture_method: captureMethod,
      client_secret: `${id}_secret_${newId('x', 25).slice(2)}`,
      confirmation_method: 'automatic',
      created: this.timestamp(),
      currency: currency ?? 'usd',
      customer: customerId ?? null,
      customer_account: null,
      description: readString(params, 'description') ?? null,
      excluded_payment_method_types: null,
      last_payment_error: null,
      latest_charge: null,
      livemode: false,
      managed_payments: null,
      metadata: mergeMetadata({}, params),
      next_action: null,
      on_behalf_of: null,
      payment_method: null,
      payment_method_configuration_details: automaticPaymentMethods ? { id: 'pmc_stand_in_default', parent: null } : null,
      payment_method_options: { card: { installments: null, mandate_options: null, network: null, request_three_d_secure: 'automatic' } },
      payment_method_types: ['card'],
      payment_record: null,
      processing: null,
      receipt_email: readString(params, 'receipt_email') ?? null,
      review: null,
      setup_future_usage: setupFutureUsage,
      shipping: null,
      source: null,
      statement_descriptor: readString(params, 'statement_descriptor') ?? null,
      statement_descriptor_suffix: readString(params, 'statement_descriptor_suffix') ?? null,
      status: 'requires_payment_method',
      transfer_data: null,
      transfer_group: null,
    };
    const returnUrl = readString(params, 'return_url');
    if (returnUrl && readBoolean(params, 'confirm') !== true) throw invalidRequest('return_url can only be passed when confirm=true.', 'return_url');
    if (readString(params, 'off_session') !== undefined && readBoolean(params, 'confirm') !== true) throw invalidRequest('off_session can only be passed when confirm=true.', 'off_session');
    // Validate the payment method before anything is stored, so a bad request leaves no intent behind.
    const method = this.confirmationMethod(params, null, intent.customer as string | null, ctx);
    this.paymentIntents.set(id, intent);
    this.emit('payment_intent.created', intent, ctx);
    if (method) {
      intent.payment_method = method.id;
      intent.status = 'requires_confirmation';
    }
    if (readBoolean(params, 'confirm') === true) {
      const confirmParams: FormHash = Object.create(null) as FormHash;
      for (const key of ['off_session', 'return_url', 'error_on_requires_action', 'use_stripe_sdk'] as const) {
        const value = params[key];
        if (value !== undefined) confirmParams[key] = value;
      }
      return this.confirmPaymentIntent(id, confirmParams, ctx);
    }
    return intent;
  }

  private checkAmount(amount: number, currency: string): void {
    if (!CURRENCIES.has(currency)) throw invalidRequest(`Invalid currency: ${currency}. The stand-in supports ${[...CURRENCIES].join(', ')}.`, 'currency', 'parameter_invalid_string');
    const minimum = MINIMUM_AMOUNT[currency] ?? 50;
    if (amount < minimum) {
      throw invalidRequest(`Amount must be at least $${(minimum / 100).toFixed(2)} ${currency}`, 'amount', 'amount_too_small');
    }
    if (amount > MAXIMUM_AMOUNT) throw invalidRequest(`Amount must be no more than $${(MAXIMUM_AMOUNT / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })} ${currency}`, 'amount', 'amount_too_large');
  }

  /** POST /v1/payment_intents/:id (https://docs.stripe.com/api/payment_intents/update). */
  updatePaymentIntent(id: string, params: FormHash, ctx: RequestContext): Stripe.PaymentIntent {
    allowOnly(params, ['amount', 'currency', 'metadata', 'description', 'customer', 'setup_future_usage', 'payment_method', 'receipt_email', 'statement_descriptor', 'statement_descriptor_suffix', 'shipping', 'expand']);
    const intent = this.paymentIntent(id);
    const amount = readInteger(params, 'amount');
    const currency = readString(params, 'currency')?.toLowerCase();
    if ((amount !== undefined || currency !== undefined) && !AMOUNT_UPDATABLE.has(intent.status)) {
      throw unexpectedState(
        `This PaymentIntent's amount could not be updated because it has a status of ${intent.status}. You may only update the amount of a PaymentIntent with one of the following statuses: requires_payment_method, requires_confirmation, requires_action.`,
      );
    }
    if (amount !== undefined || currency !== undefined) this.checkAmount(amount ?? intent.amount, currency ?? intent.currency);
    const customerId = readString(params, 'customer');
    if (customerId) this.customer(customerId, 'customer');
    const previous: Record<string, unknown> = {};
    if (amount !== undefined && amount !== intent.amount) {
      previous.amount = intent.amount;
      intent.amount = amount;
    }
    if (currency !== undefined) intent.currency = currency;
    if (params.metadata !== undefined) {
      previous.metadata = intent.metadata;
      intent.metadata = mergeMetadata(intent.metadata, params);
    }
    const description = readString(params, 'description');
    if (description !== undefined) intent.description = description || null;
    const receiptEmail = readString(params, 'receipt_email');
    if (receiptEmail !== undefined) intent.receipt_email = receiptEmail || null;
    if (customerId) intent.customer = customerId;
    if (params.setup_future_usage !== undefined) {
      intent.setup_future_usage = readString(params, 'setup_future_usage') === '' ? null : (readEnum(params, 'setup_future_usage', ['off_session', 'on_session'] as const) ?? null);
    }
    const paymentMethod = readString(params, 'payment_method');
    if (paymentMethod) {
      intent.payment_method = this.resolvePaymentMethod(paymentMethod, ctx).id;
      if (intent.status === 'requires_payment_method') intent.status = 'requires_confirmation';
    }
    return intent;
  }

  /**
   * POST /v1/payment_intents/:id/confirm (https://docs.stripe.com/api/payment_intents/confirm), from the
   * server (secret key) or Stripe.js (publishable key + client_secret). Answers the intent (succeeded or
   * requires_action) or throws the 402 card_error Stripe answers for a decline, with the intent inside.
   */
  confirmPaymentIntent(id: string, params: FormHash, ctx: RequestContext): Stripe.PaymentIntent {
    allowOnly(params, [
      'payment_method', 'payment_method_data', 'payment_method_options', 'off_session', 'return_url', 'setup_future_usage', 'receipt_email',
      'error_on_requires_action', 'use_stripe_sdk', 'mandate_data', 'shipping', 'expand',
    ]);
    const intent = this.paymentIntent(id);
    if (intent.status === 'succeeded') throw unexpectedState('You cannot confirm this PaymentIntent because it has already succeeded after being previously confirmed.');
    if (intent.status === 'canceled' || intent.status === 'processing') {
      throw unexpectedState(
        `You cannot confirm this PaymentIntent because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be confirmed: requires_payment_method, requires_confirmation, requires_action.`,
      );
    }
    const method = this.confirmationMethod(params, intent.payment_method as string | null, intent.customer as string | null, ctx);
    if (!method) {
      throw unexpectedState(
        "You cannot confirm this PaymentIntent because it's missing a payment method. You can either update the PaymentIntent with a payment method and then confirm it again, or confirm it again directly with a payment method.",
      );
    }
    const offSessionRaw = readString(params, 'off_session');
    const offSession = offSessionRaw === 'true' || offSessionRaw === 'one_off' || offSessionRaw === 'recurring';
    if (offSession && !intent.customer && intent.setup_future_usage) throw invalidRequest('A Customer is required when setup_future_usage is set and off_session=true.', 'customer');
    const returnUrl = readString(params, 'return_url') ?? this.returnUrls.get(id);
    if (ctx.auth === 'secret' && intent.automatic_payment_methods?.enabled && intent.automatic_payment_methods.allow_redirects !== 'never' && !returnUrl) {
      throw invalidRequest(
        'A `return_url` must be specified because this Payment Intent is configured to automatically accept the payment methods enabled in the Dashboard, some of which may require a full page redirect to succeed. If you do not want to accept redirect-based payment methods, set `automatic_payment_methods[enabled]` to `true` and `automatic_payment_methods[allow_redirects]` to `never` when creating Setup Intents and Payment Intents.',
        'return_url',
      );
    }
    if (returnUrl) this.returnUrls.set(id, returnUrl);
    const setupFutureUsage = readString(params, 'setup_future_usage');
    if (setupFutureUsage !== undefined) intent.setup_future_usage = setupFutureUsage === '' ? null : (readEnum(params, 'setup_future_usage', ['off_session', 'on_session'] as const) ?? null);
    const receiptEmail = readString(params, 'receipt_email');
    if (receiptEmail) intent.receipt_email = receiptEmail;
    intent.payment_method = method.id;
    intent.last_payment_error = null;
    const state = this.stateOf(method);
    switch (state.behaviour.kind) {
      case 'succeed':
      case 'dispute':
        return this.succeedPayment(intent, method, ctx);
      case 'decline':
        return this.failPayment(intent, method, state.behaviour.decline, ctx);
      case 'charge_fails':
        return this.failPayment(intent, method, DECLINES.generic_decline, ctx);
      case 'authenticate_once':
        if (offSession && state.setUpForOffSession) return this.succeedPayment(intent, method, ctx);
        return offSession ? this.failPayment(intent, method, DECLINES.authentication_required, ctx) : this.requireAction(intent, readBoolean(params, 'use_stripe_sdk') === true, ctx);
      case 'authenticate_always':
        return offSession ? this.failPayment(intent, method, DECLINES.authentication_required, ctx) : this.requireAction(intent, readBoolean(params, 'use_stripe_sdk') === true, ctx);
    }
  }

  private stateOf(method: Stripe.PaymentMethod): PaymentMethodState {
    const state = this.methodState.get(method.id);
    if (!state) throw new Error(`stand-in: no state for ${method.id}`);
    return state;
  }

  private newCharge(intent: Stripe.PaymentIntent, method: Stripe.PaymentMethod, decline: Decline | null): Stripe.Charge {
    const card = method.card;
    const charge: Stripe.Charge = {
      id: newId('ch'),
      object: 'charge',
      amount: intent.amount,
      amount_captured: decline ? 0 : intent.amount,
      amount_refunded: 0,
      application: null,
      application_fee: null,
      application_fee_amount: null,
      balance_transaction: decline ? null : newId('txn'),
      billing_details: clone(method.billing_details),
      calculated_statement_descriptor: 'BELIZE REEF STAND-IN',
      captured: !decline,
      created: this.timestamp(),
      currency: intent.currency,
      customer: intent.customer,
      description: intent.description,
      disputed: false,
      failure_balance_transaction: null,
      failure_code: decline ? decline.code : null,
      failure_message: decline ? decline.message : null,
      fraud_details: {},
      livemode: false,
      metadata: clone(intent.metadata),
      on_behalf_of: null,
      outcome: decline
        ? {
            advice_code: null,
            network_advice_code: null,
            network_decline_code: null,
            network_status: 'declined_by_network',
            reason: decline.declineCode,
            risk_level: 'normal',
            seller_message: 'The bank did not return any further details with this decline.',
            type: 'issuer_declined',
          }
        : {
            advice_code: null,
            network_advice_code: null,
            network_decline_code: null,
            network_status: 'approved_by_network',
            reason: null,
            risk_level: 'normal',
            seller_message: 'Payment complete.',
            type: 'authorized',
          },
      paid: !decline,
      payment_intent: intent.id,
      payment_method: method.id,
      payment_method_details: {
        card: {
          amount_authorized: decline ? null : intent.amount,
          authorization_code: decline ? null : '123456',
          brand: card?.brand ?? null,
          checks: card?.checks ?? null,
          country: 'US',
          electronic_commerce_indicator: null,
          exp_month: card?.exp_month ?? 0,
          exp_year: card?.exp_year ?? 0,
          fingerprint: card?.fingerprint ?? null,
          funding: card?.funding ?? null,
          installments: null,
          last4: card?.last4 ?? null,
          mandate: null,
          network: card?.brand ?? null,
          network_transaction_id: decline ? null : newId('ntx').slice(4),
          regulated_status: 'unregulated',
          three_d_secure: null,
          transaction_link_id: null,
          wallet: null,
        },
        type: 'card',
      },
      receipt_email: intent.receipt_email,
      receipt_number: null,
      receipt_url: decline ? null : `https://pay.stripe.com/receipts/stand-in/${intent.id}`,
      refunded: false,
      review: null,
      shipping: null,
      source: null,
      source_transfer: null,
      statement_descriptor: null,
      statement_descriptor_suffix: null,
      status: decline ? 'failed' : 'succeeded',
      transfer_data: null,
      transfer_group: null,
    };
    this.charges.set(charge.id, charge);
    return charge;
  }

  private succeedPayment(intent: Stripe.PaymentIntent, method: Stripe.PaymentMethod, ctx: RequestContext | null): Stripe.PaymentIntent {
    const charge = this.newCharge(intent, method, null);
    const state = this.stateOf(method);
    intent.status = 'succeeded';
    intent.amount_received = intent.amount;
    intent.latest_charge = charge.id;
    intent.next_action = null;
    intent.last_payment_error = null;
    this.emit('charge.succeeded', charge, ctx);
    this.emit('payment_intent.succeeded', intent, ctx);
    if (intent.setup_future_usage && typeof intent.customer === 'string') {
      this.attach(method, intent.customer, ctx);
      if (intent.setup_future_usage === 'off_session') state.setUpForOffSession = true;
    } else if (!method.customer) state.consumed = true;
    if (state.behaviour.kind === 'dispute') this.createDispute(intent.id, { reason: 'fraudulent' });
    return intent;
  }

  private failPayment(intent: Stripe.PaymentIntent, method: Stripe.PaymentMethod, decline: Decline, ctx: RequestContext | null): never {
    const charge = this.newCharge(intent, method, decline);
    const error: Stripe.PaymentIntent.LastPaymentError = {
      charge: charge.id,
      code: decline.code,
      decline_code: decline.declineCode,
      doc_url: docUrl(decline.code),
      message: decline.message,
      payment_method: clone(method),
      type: 'card_error',
    };
    intent.status = 'requires_payment_method';
    intent.latest_charge = charge.id;
    intent.last_payment_error = error;
    intent.payment_method = null;
    intent.next_action = null;
    this.emit('charge.failed', charge, ctx);
    this.emit('payment_intent.payment_failed', intent, ctx);
    throw new StripeApiError(
      402,
      {
        type: 'card_error',
        code: decline.code,
        decline_code: decline.declineCode,
        doc_url: docUrl(decline.code),
        message: decline.message,
        charge: charge.id,
        payment_intent: clone(intent),
        payment_method: clone(method),
        request_log_url: `https://dashboard.stripe.com/test/logs/${ctx?.requestId ?? 'req_stand_in'}`,
      },
      true,
    );
  }

  private nextAction(intentId: string, useStripeSdk: boolean, ctx: RequestContext): Stripe.PaymentIntent.NextAction {
    const url = `${ctx.baseUrl}/_stand-in/3ds/${intentId}`;
    const returnUrl = this.returnUrls.get(intentId) ?? null;
    if (useStripeSdk || !returnUrl) {
      return { type: 'use_stripe_sdk', use_stripe_sdk: { type: 'three_d_secure_redirect', stripe_js: url, source: newId('src') } as Stripe.PaymentIntent.NextAction.UseStripeSdk };
    }
    return { type: 'redirect_to_url', redirect_to_url: { url: `${url}?return_url=${encodeURIComponent(returnUrl)}`, return_url: returnUrl } };
  }

  private requireAction(intent: Stripe.PaymentIntent, useStripeSdk: boolean, ctx: RequestContext): Stripe.PaymentIntent {
    intent.status = 'requires_action';
    intent.next_action = this.nextAction(intent.id, useStripeSdk, ctx);
    this.emit('payment_intent.requires_action', intent, ctx);
    return intent;
  }

  /**
   * Completes or fails the 3-D Secure challenge of a PaymentIntent or SetupIntent in `requires_action`
   * (what the donor does in Stripe's test 3DS page). Completing it charges the card (or saves it);
   * failing it returns the intent to `requires_payment_method` with Stripe's authentication failure error.
   */
  authenticate(intentId: string, outcome: AuthenticationOutcome, ctx: RequestContext | null): Stripe.PaymentIntent | Stripe.SetupIntent {
    if (intentId.startsWith('seti_')) return this.authenticateSetup(intentId, outcome, ctx);
    const intent = this.paymentIntent(intentId);
    if (intent.status !== 'requires_action') throw unexpectedState(`This PaymentIntent has a status of ${intent.status}; there is no authentication to complete.`);
    const method = this.paymentMethod(String(intent.payment_method));
    if (outcome === 'complete') return this.succeedPayment(intent, method, ctx);
    intent.status = 'requires_payment_method';
    intent.next_action = null;
    intent.payment_method = null;
    intent.last_payment_error = {
      code: 'payment_intent_authentication_failure',
      doc_url: docUrl('payment_intent_authentication_failure'),
      message: 'The provided PaymentMethod has failed authentication. You can provide payment_method_data or a new PaymentMethod to attempt to fulfill this PaymentIntent again.',
      payment_method: clone(method),
      type: 'invalid_request_error',
    };
    this.emit('payment_intent.payment_failed', intent, ctx);
    return intent;
  }

  /** POST /v1/payment_intents/:id/cancel (https://docs.stripe.com/api/payment_intents/cancel). */
  cancelPaymentIntent(id: string, params: FormHash, ctx: RequestContext): Stripe.PaymentIntent {
    allowOnly(params, ['cancellation_reason', 'expand']);
    const intent = this.paymentIntent(id);
    if (!CANCELABLE.has(intent.status)) {
      throw unexpectedState(
        `You cannot cancel this PaymentIntent because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be canceled: requires_payment_method, requires_capture, requires_confirmation, requires_action, processing.`,
      );
    }
    intent.status = 'canceled';
    intent.canceled_at = this.timestamp();
    intent.cancellation_reason = readEnum(params, 'cancellation_reason', ['duplicate', 'fraudulent', 'requested_by_customer', 'abandoned'] as const) ?? null;
    intent.next_action = null;
    this.emit('payment_intent.canceled', intent, ctx);
    return intent;
  }

  /** GET /v1/payment_intents?customer=&limit=: newest first. */
  listPaymentIntents(params: FormHash): Stripe.PaymentIntent[] {
    const customer = readString(params, 'customer');
    const limit = Math.min(readInteger(params, 'limit') ?? 10, 100);
    return [...this.paymentIntents.values()].filter((intent) => !customer || intent.customer === customer).reverse().slice(0, limit);
  }

  // ---------------------------------------------------------------- refunds and disputes

  /** POST /v1/refunds (https://docs.stripe.com/api/refunds/create): full or partial (`amount`, cents); marks the charge. */
  createRefund(params: FormHash, ctx: RequestContext): Stripe.Refund {
    allowOnly(params, ['payment_intent', 'charge', 'amount', 'reason', 'metadata', 'expand']);
    const intentId = readString(params, 'payment_intent');
    let chargeId = readString(params, 'charge');
    if (!intentId && !chargeId) throw invalidRequest('One of the following params should be provided for this request: payment_intent or charge.', undefined, 'parameter_missing');
    if (intentId) {
      const intent = this.paymentIntent(intentId);
      if (intent.status !== 'succeeded' || typeof intent.latest_charge !== 'string') {
        throw invalidRequest(`This PaymentIntent (${intentId}) does not have a successful charge to refund.`, 'payment_intent');
      }
      chargeId = intent.latest_charge;
    }
    const charge = this.charges.get(chargeId ?? '');
    if (!charge) throw resourceMissing('charge', chargeId ?? '', 'charge');
    if (charge.refunded) throw new StripeApiError(400, { type: 'invalid_request_error', code: 'charge_already_refunded', doc_url: docUrl('charge_already_refunded'), message: `Charge ${charge.id} has already been refunded.` }, true);
    if (charge.disputed) throw new StripeApiError(400, { type: 'invalid_request_error', code: 'charge_disputed', doc_url: docUrl('charge_disputed'), message: `Charge ${charge.id} has been charged back; cannot issue a refund.` }, true);
    const remaining = charge.amount - charge.amount_refunded;
    const amount = readInteger(params, 'amount') ?? remaining;
    if (amount <= 0) throw invalidRequest('Invalid positive integer', 'amount', 'parameter_invalid_integer');
    if (amount > remaining) {
      throw invalidRequest(
        `Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${(remaining / 100).toFixed(2)})`,
        'amount',
        'amount_too_large',
      );
    }
    const refund: Stripe.Refund = {
      id: newId('re'),
      object: 'refund',
      amount,
      balance_transaction: newId('txn'),
      charge: charge.id,
      created: this.timestamp(),
      currency: charge.currency,
      customer: charge.customer,
      customer_account: null,
      destination_details: { card: { reference_status: 'pending', reference_type: 'acquirer_reference_number', type: 'refund' }, type: 'card' },
      metadata: mergeMetadata({}, params),
      payment_intent: charge.payment_intent,
      payment_method: charge.payment_method,
      reason: readEnum(params, 'reason', ['duplicate', 'fraudulent', 'requested_by_customer'] as const) ?? null,
      receipt_number: null,
      source_transfer_reversal: null,
      status: 'succeeded',
      transfer_reversal: null,
    } as Stripe.Refund;
    this.refunds.set(refund.id, refund);
    const previous = { amount_refunded: charge.amount_refunded, refunded: charge.refunded };
    charge.amount_refunded += amount;
    charge.refunded = charge.amount_refunded === charge.amount;
    this.emit('charge.refunded', charge, ctx, previous);
    this.emit('refund.created', refund, ctx);
    return refund;
  }

  /**
   * Opens a dispute (chargeback) on the PaymentIntent's charge, as a cardholder's bank would
   * (https://docs.stripe.com/disputes): status `needs_response`, charge `disputed: true`, event `charge.dispute.created`.
   */
  createDispute(intentId: string, options: { reason?: string; amount?: number } = {}): Stripe.Dispute {
    const intent = this.paymentIntent(intentId);
    const charge = typeof intent.latest_charge === 'string' ? this.charges.get(intent.latest_charge) : undefined;
    if (!charge || charge.status !== 'succeeded') throw new Error(`stand-in: ${intentId} has no succeeded charge to dispute`);
    const dispute: Stripe.Dispute = {
      id: newId('dp'),
      object: 'dispute',
      amount: options.amount ?? charge.amount,
      balance_transactions: [],
      charge: charge.id,
      created: this.timestamp(),
      currency: charge.currency,
      enhanced_eligibility_types: [],
      evidence: {
        access_activity_log: null, billing_address: null, cancellation_policy: null, cancellation_policy_disclosure: null, cancellation_rebuttal: null,
        customer_communication: null, customer_email_address: null, customer_name: null, customer_purchase_ip: null, customer_signature: null,
        duplicate_charge_documentation: null, duplicate_charge_explanation: null, duplicate_charge_id: null, enhanced_evidence: {},
        product_description: null, receipt: null, refund_policy: null, refund_policy_disclosure: null, refund_refusal_explanation: null,
        service_date: null, service_documentation: null, shipping_address: null, shipping_carrier: null, shipping_date: null,
        shipping_documentation: null, shipping_tracking_number: null, uncategorized_file: null, uncategorized_text: null,
      },
      evidence_details: { due_by: this.timestamp() + 7 * 86_400, enhanced_eligibility: {}, has_evidence: false, past_due: false, submission_count: 0, submission_method: null } as unknown as Stripe.Dispute.EvidenceDetails,
      intended_submission_method: null,
      is_charge_refundable: false,
      livemode: false,
      metadata: {},
      payment_intent: intent.id,
      reason: options.reason ?? 'fraudulent',
      status: 'needs_response',
    };
    this.disputes.set(dispute.id, dispute);
    charge.disputed = true;
    this.emit('charge.dispute.created', dispute, null);
    return dispute;
  }

  /** Closes a dispute `won` or `lost` (the bank's decision) and emits `charge.dispute.closed`. */
  closeDispute(disputeId: string, outcome: 'won' | 'lost'): Stripe.Dispute {
    const dispute = this.disputes.get(disputeId);
    if (!dispute) throw new Error(`stand-in: no dispute ${disputeId}`);
    const previous = { status: dispute.status };
    dispute.status = outcome;
    this.emit('charge.dispute.closed', dispute, null, previous);
    return dispute;
  }

  // ---------------------------------------------------------------- setup intents

  /** POST /v1/setup_intents (https://docs.stripe.com/api/setup_intents/create); `usage` defaults to off_session. */
  createSetupIntent(params: FormHash, ctx: RequestContext): Stripe.SetupIntent {
    allowOnly(params, [
      'customer', 'payment_method', 'allowed_payment_method_types', 'excluded_payment_method_types', 'automatic_payment_methods', 'usage', 'metadata', 'description', 'confirm',
      'return_url', 'payment_method_data', 'payment_method_options', 'use_stripe_sdk', 'mandate_data', 'expand',
    ]);
    const customerId = readString(params, 'customer');
    if (customerId) this.customer(customerId, 'customer');
    const types = readStringList(params, 'allowed_payment_method_types');
    if (types.some((type) => type !== 'card')) throw invalidRequest('The stand-in supports only allowed_payment_method_types[]=card.', 'allowed_payment_method_types');
    const automatic = readHash(params, 'automatic_payment_methods');
    const allowRedirects = automatic ? readEnum(automatic, 'allow_redirects', ['always', 'never'] as const) : undefined;
    const id = newId('seti');
    const intent: Stripe.SetupIntent = {
      id,
      object: 'setup_intent',
      allowed_payment_method_types: types.length > 0 ? ['card'] : null,
      application: null,
      automatic_payment_methods: types.length > 0 ? null : { ...(allowRedirects ? { allow_redirects: allowRedirects } : {}), enabled: true },
      cancellation_reason: null,
      client_secret: `${id}_secret_${newId('x', 25).slice(2)}`,
      created: this.timestamp(),
      customer: customerId ?? null,
      customer_account: null,
      description: readString(params, 'description') ?? null,
      excluded_payment_method_types: null,
      flow_directions: null,
      last_setup_error: null,
      latest_attempt: null,
      livemode: false,
      mandate: null,
      metadata: mergeMetadata({}, params),
      next_action: null,
      on_behalf_of: null,
      payment_method: null,
      payment_method_configuration_details: null,
      payment_method_options: { card: { mandate_options: null, network: null, request_three_d_secure: 'automatic' } },
      payment_method_types: ['card'],
      single_use_mandate: null,
      status: 'requires_payment_method',
      usage: readEnum(params, 'usage', ['off_session', 'on_session'] as const) ?? 'off_session',
    };
    const method = this.confirmationMethod(params, null, customerId ?? null, ctx);
    this.setupIntents.set(id, intent);
    if (method) {
      intent.payment_method = method.id;
      intent.status = 'requires_confirmation';
    }
    if (readBoolean(params, 'confirm') === true) {
      const confirmParams = Object.create(null) as FormHash;
      for (const key of ['return_url', 'use_stripe_sdk'] as const) {
        const value = params[key];
        if (value !== undefined) confirmParams[key] = value;
      }
      return this.confirmSetupIntent(id, confirmParams, ctx);
    }
    return intent;
  }

  /** POST /v1/setup_intents/:id/confirm: saves the card (decline test cards fail, 3DS cards require action). */
  confirmSetupIntent(id: string, params: FormHash, ctx: RequestContext): Stripe.SetupIntent {
    allowOnly(params, ['payment_method', 'payment_method_data', 'payment_method_options', 'return_url', 'use_stripe_sdk', 'mandate_data', 'expand']);
    const intent = this.setupIntent(id);
    if (intent.status === 'succeeded' || intent.status === 'canceled') {
      throw new StripeApiError(400, {
        type: 'invalid_request_error',
        code: 'setup_intent_unexpected_state',
        doc_url: docUrl('setup_intent_unexpected_state'),
        message: `You cannot confirm this SetupIntent because it has a status of ${intent.status}.`,
      });
    }
    const method = this.confirmationMethod(params, intent.payment_method as string | null, intent.customer as string | null, ctx);
    if (!method) {
      throw new StripeApiError(400, { type: 'invalid_request_error', code: 'setup_intent_unexpected_state', doc_url: docUrl('setup_intent_unexpected_state'), message: "You cannot confirm this SetupIntent because it's missing a payment method." });
    }
    const returnUrl = readString(params, 'return_url');
    if (returnUrl) this.returnUrls.set(id, returnUrl);
    intent.payment_method = method.id;
    intent.last_setup_error = null;
    const behaviour = this.stateOf(method).behaviour;
    if (behaviour.kind === 'decline') {
      intent.status = 'requires_payment_method';
      intent.payment_method = null;
      intent.last_setup_error = {
        code: behaviour.decline.code,
        decline_code: behaviour.decline.declineCode,
        doc_url: docUrl(behaviour.decline.code),
        message: behaviour.decline.message,
        payment_method: clone(method),
        type: 'card_error',
      };
      this.emit('setup_intent.setup_failed', intent, ctx);
      throw new StripeApiError(
        402,
        { type: 'card_error', code: behaviour.decline.code, decline_code: behaviour.decline.declineCode, doc_url: docUrl(behaviour.decline.code), message: behaviour.decline.message, setup_intent: clone(intent), payment_method: clone(method) },
        true,
      );
    }
    if (behaviour.kind === 'authenticate_once' || behaviour.kind === 'authenticate_always') {
      intent.status = 'requires_action';
      intent.next_action = this.nextAction(id, readBoolean(params, 'use_stripe_sdk') === true, ctx) as Stripe.SetupIntent.NextAction;
      this.emit('setup_intent.requires_action', intent, ctx);
      return intent;
    }
    return this.succeedSetup(intent, method, ctx);
  }

  private succeedSetup(intent: Stripe.SetupIntent, method: Stripe.PaymentMethod, ctx: RequestContext | null): Stripe.SetupIntent {
    intent.status = 'succeeded';
    intent.next_action = null;
    intent.payment_method = method.id;
    if (typeof intent.customer === 'string') this.attach(method, intent.customer, ctx);
    if (intent.usage === 'off_session') this.stateOf(method).setUpForOffSession = true;
    this.emit('setup_intent.succeeded', intent, ctx);
    return intent;
  }

  private authenticateSetup(id: string, outcome: AuthenticationOutcome, ctx: RequestContext | null): Stripe.SetupIntent {
    const intent = this.setupIntent(id);
    if (intent.status !== 'requires_action') throw new StripeApiError(400, { type: 'invalid_request_error', code: 'setup_intent_unexpected_state', message: `This SetupIntent has a status of ${intent.status}; there is no authentication to complete.` });
    const method = this.paymentMethod(String(intent.payment_method));
    if (outcome === 'complete') return this.succeedSetup(intent, method, ctx);
    intent.status = 'requires_payment_method';
    intent.next_action = null;
    intent.payment_method = null;
    intent.last_setup_error = {
      code: 'setup_intent_authentication_failure',
      doc_url: docUrl('setup_intent_authentication_failure'),
      message: 'The latest attempt to set up the payment method has failed because authentication failed.',
      payment_method: clone(method),
      type: 'invalid_request_error',
    };
    this.emit('setup_intent.setup_failed', intent, ctx);
    return intent;
  }
}
