import Stripe from 'stripe';
import { CARD_BRANDS, type CardBrand } from '../../../shared/card';
import {
  CardDataRefusedError,
  type ChargeLookup,
  type ChargeResult,
  type CreatePaymentIntentRequest,
  type PaymentGateway,
  type PaymentIntent,
  PAYMENT_INTENT_STATUSES,
  type PaymentIntentStatus,
  type Refund,
  REFUND_KEY_METADATA,
  REFUND_OPERATOR_KEY_METADATA,
  type RefundLookup,
  RefundRefusedError,
  type RefundRequest,
  type SavedPaymentMethod,
  type SavedPaymentMethodChargeRequest,
  type SavedPaymentMethodChargeResult,
  type SavePaymentMethodResult,
  type SetupIntent,
} from '../gateway';

/**
 * The Stripe gateway (`PAYMENT_GATEWAY=stripe`; issue #11), on the official `stripe` package. Card data never
 * reaches the server (PCI DSS SAQ A): the donor's browser gives the card to Stripe.js's Payment Element and
 * confirms the payment intent there, so `charge` and `confirmPaymentIntent` reject with CardDataRefusedError.
 * The server creates intents (https://docs.stripe.com/api/payment_intents/create), retrieves them with their
 * latest charge to learn the outcome, card brand and last4, and refunds charges (https://docs.stripe.com/api/refunds).
 */

/** What {@link createStripeGateway} needs. */
export interface StripeGatewayOptions {
  /** STRIPE_SECRET_KEY: `sk_test_...` or `sk_live_...` (a restricted `rk_` key works too). */
  secretKey: string;
  /**
   * STRIPE_API_URL: where the SDK sends its requests instead of https://api.stripe.com (the SDK's `host`,
   * `port` and `protocol`); tests point it at the API stand-in. Unset in production.
   */
  apiUrl: string | undefined;
  /** How long one API call may take, in ms (GATEWAY_TIMEOUT_MS); the SDK's own timeout. */
  timeoutMs: number;
}

/** The SDK client for `options`: Stripe's API, or the stand-in at `apiUrl`. The SDK's own retries are off (the reconciler retries). */
export function createStripeClient(options: Pick<StripeGatewayOptions, 'secretKey' | 'apiUrl' | 'timeoutMs'>): Stripe {
  const url = options.apiUrl ? new URL(options.apiUrl) : undefined;
  return new Stripe(options.secretKey, {
    maxNetworkRetries: 0,
    timeout: options.timeoutMs,
    telemetry: false,
    appInfo: { name: 'reef-donations' },
    ...(url ? { host: url.hostname, port: url.port, protocol: url.protocol === 'http:' ? 'http' : 'https' } : {}),
  });
}

/** Stripe's card brand as ours: the brands the site names, `unknown` for the rest (diners, jcb, unionpay...). */
export function toCardBrand(brand: string | null | undefined): CardBrand {
  return (CARD_BRANDS as readonly string[]).includes(brand ?? '') ? (brand as CardBrand) : 'unknown';
}

/** Stripe's generic decline sentence, for a decline that came without a message. */
const GENERIC_DECLINE_MESSAGE = 'Your card was declined.';

/** Our view of a Stripe PaymentIntent retrieved with `expand: ['latest_charge']`. */
export function toPaymentIntent(intent: Stripe.PaymentIntent): PaymentIntent {
  const charge = typeof intent.latest_charge === 'object' && intent.latest_charge !== null ? intent.latest_charge : undefined;
  const card = charge?.payment_method_details?.card;
  const error = intent.last_payment_error;
  return {
    id: intent.id,
    clientSecret: intent.client_secret ?? '',
    amountCents: intent.amount,
    currency: intent.currency.toUpperCase(),
    // NOTE: the SDK types `status` as an open string (for statuses added later); an unknown one waits like `processing`.
    status: (PAYMENT_INTENT_STATUSES as readonly string[]).includes(intent.status) ? (intent.status as PaymentIntentStatus) : 'processing',
    charge:
      intent.status === 'succeeded' && charge
        ? { transactionId: charge.id, cardBrand: toCardBrand(card?.brand), last4: card?.last4 ?? '0000' }
        : undefined,
    lastDecline: error
      ? { declineCode: error.decline_code ?? error.code ?? 'card_declined', message: error.message ?? GENERIC_DECLINE_MESSAGE }
      : undefined,
    isTestPayment: !intent.livemode,
    savedPaymentMethod: savedPaymentMethodOf(intent, card),
  };
}

/**
 * The card a succeeded intent saved for off-session charges (`setup_future_usage: 'off_session'` on a Customer;
 * issue #13): the PaymentMethod and Customer ids, and the card's brand, last4 and expiry from the charge. Undefined
 * for an intent that saved nothing.
 */
function savedPaymentMethodOf(intent: Stripe.PaymentIntent, card: Stripe.Charge.PaymentMethodDetails.Card | null | undefined): SavedPaymentMethod | undefined {
  const paymentMethodId = typeof intent.payment_method === 'string' ? intent.payment_method : intent.payment_method?.id;
  const customerId = typeof intent.customer === 'string' ? intent.customer : intent.customer?.id;
  if (intent.status !== 'succeeded' || intent.setup_future_usage !== 'off_session' || !paymentMethodId || !customerId || !card) return undefined;
  return { paymentMethodId, customerId, cardBrand: toCardBrand(card.brand), last4: card.last4 ?? '0000', expiryMonth: card.exp_month, expiryYear: card.exp_year };
}

/**
 * Our view of a Stripe SetupIntent retrieved with `expand: ['payment_method']` (issue #13, a donor's new card): the
 * card it saved (PaymentMethod, Customer, brand, last4, expiry) once `succeeded` on a Customer, undefined before.
 */
export function toSetupIntent(intent: Stripe.SetupIntent): SetupIntent {
  const method = typeof intent.payment_method === 'object' ? intent.payment_method : null;
  const customerId = typeof intent.customer === 'string' ? intent.customer : intent.customer?.id;
  const card = method?.card;
  return {
    id: intent.id,
    clientSecret: intent.client_secret ?? '',
    customerId,
    savedPaymentMethod:
      intent.status === 'succeeded' && method && card && customerId
        ? { paymentMethodId: method.id, customerId, cardBrand: toCardBrand(card.brand), last4: card.last4, expiryMonth: card.exp_month, expiryYear: card.exp_year }
        : undefined,
  };
}

/** Our view of a Stripe Refund (https://docs.stripe.com/api/refunds/object): its id, amount in cents and status. */
const toRefund = (refund: Stripe.Refund): Refund => ({ refundId: refund.id, amountCents: refund.amount, status: (refund.status ?? 'pending') as Refund['status'] });

/** True for Stripe's answer to an id it does not know (`resource_missing`, 404). */
const isMissing = (error: unknown) =>
  error instanceof Stripe.errors.StripeInvalidRequestError && (error.code === 'resource_missing' || error.statusCode === 404);

/**
 * Charges a saved card off-session (issue #13, a renewal): a payment intent created and confirmed at once with the
 * Customer and PaymentMethod, `off_session: true`, under `request.idempotencyKey`
 * (https://docs.stripe.com/payments/save-and-reuse, "Charge the saved payment method later"). NOTE: redirect-based
 * methods are turned off (`allow_redirects: 'never'`): the donor is not there to follow a redirect, and Stripe
 * refuses a server-side confirm of an intent that could redirect without a `return_url`. A card decline answers
 * `declined` with its decline code; `authentication_required` answers `requires_authentication` with the intent the
 * donor can confirm on our page. Any other error rejects (the outcome is unknown).
 */
export async function chargeSavedCardOffSession(stripe: Stripe, request: SavedPaymentMethodChargeRequest): Promise<SavedPaymentMethodChargeResult> {
  try {
    const intent = await stripe.paymentIntents.create(
      {
        amount: request.amountCents,
        currency: request.currency.toLowerCase(),
        description: request.description,
        customer: request.paymentMethod.customerId,
        payment_method: request.paymentMethod.paymentMethodId,
        off_session: true,
        confirm: true,
        automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
        expand: ['latest_charge'],
      },
      { idempotencyKey: request.idempotencyKey },
    );
    const ours = toPaymentIntent(intent);
    if (ours.status === 'succeeded' && ours.charge) return { status: 'succeeded', ...ours.charge, isTestPayment: ours.isTestPayment, paymentIntentId: ours.id };
    if (ours.status === 'requires_action' || ours.status === 'requires_confirmation') {
      return { status: 'requires_authentication', paymentIntentId: ours.id, declineCode: 'authentication_required', message: GENERIC_DECLINE_MESSAGE, isTestPayment: ours.isTestPayment };
    }
    const decline = ours.lastDecline ?? { declineCode: 'card_declined', message: GENERIC_DECLINE_MESSAGE };
    return { status: 'declined', ...decline, isTestPayment: ours.isTestPayment };
  } catch (error) {
    if (!(error instanceof Stripe.errors.StripeCardError)) throw error;
    const isTestPayment = !(error.raw as { payment_intent?: { livemode?: boolean } } | undefined)?.payment_intent?.livemode;
    const code = error.decline_code ?? error.code ?? 'card_declined';
    if (code === 'authentication_required' && error.payment_intent?.id) {
      return { status: 'requires_authentication', paymentIntentId: error.payment_intent.id, declineCode: code, message: error.message, isTestPayment };
    }
    return { status: 'declined', declineCode: code, message: error.message || GENERIC_DECLINE_MESSAGE, isTestPayment };
  }
}

/**
 * Creates the Stripe gateway. Its `isTestMode` follows the key (`sk_test_` / `rk_test_`). Intents are created
 * with `automatic_payment_methods` without redirects (cards and wallets; what the Payment Element offers is set in
 * Stripe's Dashboard) and the
 * request's metadata; `retrievePaymentIntent` answers undefined for an unknown id; `cancelPaymentIntent`
 * (https://docs.stripe.com/api/payment_intents/cancel) answers the intent canceled, or as it stands when Stripe refused
 * because it succeeded or was canceled first (`payment_intent_unexpected_state`); `retrieveCharge` and
 * `charge` and `confirmPaymentIntent` reject (card data never reaches this server; intents are looked up by id).
 * SetupIntents (a donor's new card; issue #13) are created for off-session use on the plan's Customer, without
 * redirecting methods, and retrieved with their PaymentMethod (undefined for an unknown id).
 * Every other Stripe error rejects as the SDK raised it (the outcome is then unknown to the caller).
 */
export function createStripeGateway(options: StripeGatewayOptions): PaymentGateway {
  const stripe = createStripeClient(options);
  const isTestMode = /^(sk|rk)_test_/.test(options.secretKey);
  const refused = (): Promise<never> => Promise.reject(new CardDataRefusedError('stripe'));
  return {
    name: 'stripe',
    isTestMode,
    acceptsCardData: false,
    charge: (): Promise<ChargeResult> => refused(),
    retrieveCharge: (): Promise<ChargeLookup> => refused(),
    confirmPaymentIntent: (): Promise<PaymentIntent> => refused(),
    // NOTE: Stripe saves the card in the browser (setup_future_usage, or a SetupIntent), never from card data here.
    savePaymentMethod: (): Promise<SavePaymentMethodResult> => refused(),
    chargeSavedPaymentMethod: (request) => chargeSavedCardOffSession(stripe, request),

    async createPaymentIntent(request: CreatePaymentIntentRequest): Promise<PaymentIntent> {
      // NOTE: a card saved for a recurring gift's renewals belongs to a Customer (issue #13); one per first payment.
      const customer = request.setupFutureUsage
        ? await stripe.customers.create({ metadata: request.metadata }, { idempotencyKey: `${request.idempotencyKey}-customer` })
        : undefined;
      const intent = await stripe.paymentIntents.create(
        {
          amount: request.amountCents,
          currency: request.currency.toLowerCase(),
          description: request.description,
          metadata: request.metadata,
          ...(customer ? { customer: customer.id, setup_future_usage: request.setupFutureUsage } : {}),
          // NOTE: no method that leaves the page (the form confirms with `redirect: 'if_required'` and never handles a return).
          automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
        },
        { idempotencyKey: request.idempotencyKey },
      );
      return toPaymentIntent(intent);
    },

    async retrievePaymentIntent(paymentIntentId: string): Promise<PaymentIntent | undefined> {
      try {
        return toPaymentIntent(await stripe.paymentIntents.retrieve(paymentIntentId, { expand: ['latest_charge'] }));
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    },

    async cancelPaymentIntent(paymentIntentId: string): Promise<PaymentIntent | undefined> {
      try {
        return toPaymentIntent(await stripe.paymentIntents.cancel(paymentIntentId, { expand: ['latest_charge'] }));
      } catch (error) {
        if (isMissing(error)) return undefined;
        // NOTE: Stripe refuses to cancel an intent that succeeded (or was canceled) meanwhile: its status says which.
        if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'payment_intent_unexpected_state') {
          return toPaymentIntent(await stripe.paymentIntents.retrieve(paymentIntentId, { expand: ['latest_charge'] }));
        }
        throw error;
      }
    },

    async createSetupIntent(customerId: string): Promise<SetupIntent> {
      const intent = await stripe.setupIntents.create({
        customer: customerId,
        usage: 'off_session',
        // NOTE: the manage page confirms with `redirect: 'if_required'` and never handles a return, as the form.
        automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
      });
      return toSetupIntent(intent);
    },

    async retrieveSetupIntent(setupIntentId: string): Promise<SetupIntent | undefined> {
      try {
        return toSetupIntent(await stripe.setupIntents.retrieve(setupIntentId, { expand: ['payment_method'] }));
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
    },

    async refund(request: RefundRequest): Promise<Refund> {
      try {
        const refund = await stripe.refunds.create(
          {
            charge: request.transactionId,
            ...(request.amountCents === undefined ? {} : { amount: request.amountCents }),
            metadata: {
              [REFUND_KEY_METADATA]: request.idempotencyKey,
              ...(request.operatorKey === undefined ? {} : { [REFUND_OPERATOR_KEY_METADATA]: request.operatorKey }),
            },
          },
          { idempotencyKey: request.idempotencyKey },
        );
        return toRefund(refund);
      } catch (error) {
        // NOTE: a 400 (invalid request) is Stripe's refusal: nothing was refunded. Anything else leaves the outcome unknown.
        if (error instanceof Stripe.errors.StripeInvalidRequestError) throw new RefundRefusedError(error.message, error.code ?? 'invalid_request_error');
        throw error;
      }
    },

    async retrieveRefund({ transactionId, idempotencyKey }: RefundLookup): Promise<Refund | undefined> {
      // NOTE: Stripe finds no object by the Idempotency-Key it was created under: the charge's refunds are listed
      // (https://docs.stripe.com/api/refunds/list, `charge`; auto-paginated) and matched by the key kept in metadata.
      for await (const refund of stripe.refunds.list({ charge: transactionId, limit: 100 })) {
        if (refund.metadata?.[REFUND_KEY_METADATA] === idempotencyKey) return toRefund(refund);
      }
      return undefined;
    },
  };
}
