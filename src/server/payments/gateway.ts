import type { CardBrand } from '../../shared/card';

/**
 * The payment gateway seam (issue #2: "A gateway interface with one implementation now; Stripe comes
 * later behind the same interface"). Shapes and terms follow Stripe's Charges API: amounts in minor
 * units (cents), a decline code plus a donor-facing message on a decline.
 */

/** Card details handed to the gateway for one charge. Never stored or logged (PCI DSS 3.2, 3.4). */
export interface ChargeCard {
  /** The full card number (PAN), digits only. */
  number: string;
  /** 1..12. */
  expiryMonth: number;
  /** Four-digit year, e.g. 2030. */
  expiryYear: number;
  /** The 3- or 4-digit card security code (CVC/CVV). */
  cvc: string;
}

/** One charge request. */
export interface ChargeRequest {
  /** Amount in integer cents (minor units), > 0. */
  amountCents: number;
  /** ISO 4217 code, upper case (`USD`). */
  currency: string;
  card: ChargeCard;
  /** What the charge is for, as it appears in the gateway's dashboard. */
  description: string;
  /**
   * Makes retries safe: a second charge with the same key returns the first one's result and charges
   * nothing (Stripe's `Idempotency-Key`; issue #3). The server passes {@link gatewayIdempotencyKey} of the
   * donation, and finds out later what became of a charge with {@link PaymentGateway.retrieveCharge}.
   */
  idempotencyKey: string;
}

/** The card was charged. */
export interface ChargeSucceeded {
  status: 'succeeded';
  /** The gateway's id of the charge (Stripe style, e.g. `ch_test_...`). */
  transactionId: string;
  cardBrand: CardBrand;
  /** Last four digits of the card number, the only part of it the site keeps. */
  last4: string;
  /** True when no real money moved (test mode). */
  isTestPayment: boolean;
}

/** The card was declined; nothing was charged. */
export interface ChargeDeclined {
  status: 'declined';
  /** Stripe's decline code, e.g. `insufficient_funds`; kept with the donation, not shown to the donor. */
  declineCode: string;
  /** A sentence for the donor, generic on purpose (test-cards.md: "never tell a card tester more than this"). */
  message: string;
  isTestPayment: boolean;
}

/** Outcome of {@link PaymentGateway.charge}: succeeded or declined (discriminated by `status`). */
export type ChargeResult = ChargeSucceeded | ChargeDeclined;

/** The gateway has no charge under that idempotency key: the card was never charged with it. */
export interface ChargeNotFound {
  status: 'not_found';
}

/** Answer of {@link PaymentGateway.retrieveCharge}: the charge's result, or not found. */
export type ChargeLookup = ChargeResult | ChargeNotFound;

/**
 * Status of a payment intent, in Stripe's words (https://docs.stripe.com/payments/paymentintents/lifecycle):
 * `requires_payment_method` until a card is given (again after a decline), `requires_action` while 3-D Secure
 * waits for the donor, `processing`, then `succeeded` or `canceled`.
 */
export const PAYMENT_INTENT_STATUSES = [
  'requires_payment_method',
  'requires_confirmation',
  'requires_action',
  'processing',
  'requires_capture',
  'succeeded',
  'canceled',
] as const;
/** One of {@link PAYMENT_INTENT_STATUSES}. */
export type PaymentIntentStatus = (typeof PAYMENT_INTENT_STATUSES)[number];

/** A payment intent as the server needs it, whichever gateway holds it. Amount in cents. */
export interface PaymentIntent {
  /** The gateway's id (`pi_...`). */
  id: string;
  /** What the browser confirms the intent with (Stripe.js); never logged or stored. */
  clientSecret: string;
  /** Amount in integer cents (minor units). */
  amountCents: number;
  /** ISO 4217 code, upper case (`USD`). */
  currency: string;
  status: PaymentIntentStatus;
  /** The successful charge, once `succeeded`: its id, card brand and last4. */
  charge: { transactionId: string; cardBrand: CardBrand; last4: string } | undefined;
  /** The last attempt's decline (Stripe's `last_payment_error`), when the card was declined. */
  lastDecline: { declineCode: string; message: string } | undefined;
  /** True when no real money moves (test mode, or Stripe's test keys). */
  isTestPayment: boolean;
  /** The card saved for later charges, once an intent created with `setupFutureUsage` succeeded (issue #13). */
  savedPaymentMethod?: SavedPaymentMethod;
}

/** A payment intent to create (spec section 7, `POST /api/create-payment-intent`). */
export interface CreatePaymentIntentRequest {
  /** Amount in integer cents (minor units), > 0. */
  amountCents: number;
  /** ISO 4217 code, upper case (`USD`). */
  currency: string;
  /** What the payment is for, as it appears in the gateway's dashboard. */
  description: string;
  /** A second creation with the same key answers the first intent (Stripe's `Idempotency-Key`). */
  idempotencyKey: string;
  /** Kept on the intent (Stripe `metadata`), e.g. `{donationId}`. */
  metadata: Record<string, string>;
  /**
   * `off_session` to save the card for later charges made by the server (a recurring gift's first payment; issue #13):
   * Stripe attaches it to a new Customer (`setup_future_usage`). The test gateway saves cards with savePaymentMethod.
   */
  setupFutureUsage?: 'off_session';
}

/**
 * A refund to make (issue #14): all that is left of a charge, or `amountCents` of it. The charge is named by its id
 * (Stripe's `charge` parameter, https://docs.stripe.com/api/refunds/create), which every succeeded donation keeps
 * (`gateway_transaction_id`), whether it was paid by a charge, a payment intent or a renewal.
 */
export interface RefundRequest {
  /** The gateway's id of the charge to refund (`ch_...`), as {@link ChargeSucceeded.transactionId}. */
  transactionId: string;
  /** Part of the charge to refund, in cents; the whole remaining amount when undefined. */
  amountCents?: number;
  /** A second refund with the same key answers the first one and refunds nothing more. */
  idempotencyKey: string;
  /**
   * The operator's own Idempotency-Key of the refund, kept with it at the gateway (Stripe's metadata
   * `idempotency_key`), so that the gateway's later report of it (refund.created) is recorded under the operator's key.
   */
  operatorKey?: string;
}

/** Metadata key of a refund's operator Idempotency-Key at Stripe ({@link RefundRequest.operatorKey}). */
export const REFUND_OPERATOR_KEY_METADATA = 'idempotency_key';
/**
 * Metadata key of a refund's own idempotency key at Stripe ({@link RefundRequest.idempotencyKey}): Stripe cannot be
 * asked for a refund by the key it was created under, so the reconciler finds a refund left pending by this
 * (retrieveRefund; issue #32, decision 0095).
 */
export const REFUND_KEY_METADATA = 'refund_key';

/** Which refund to look up (retrieveRefund): the charge it refunds (`ch_...`) and the idempotency key it was asked under. */
export interface RefundLookup {
  transactionId: string;
  idempotencyKey: string;
}

/** A refund the gateway made (Stripe's Refund, https://docs.stripe.com/api/refunds/object). */
export interface Refund {
  /** The gateway's id (`re_...`). */
  refundId: string;
  /** Amount refunded by this refund, in cents. */
  amountCents: number;
  status: 'succeeded' | 'pending' | 'failed' | 'canceled' | 'requires_action';
}

/**
 * Raised by `refund` when the gateway refused it, so nothing was refunded (Stripe answers 400: the charge is refunded
 * already or disputed, or the amount is more than what is left). `code` is the gateway's (`charge_already_refunded`,
 * `charge_disputed`, `amount_too_large`...); the message is the gateway's, for the operator.
 */
export class RefundRefusedError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
    this.name = 'RefundRefusedError';
  }
}

/** Raised by a gateway that takes card data only in the browser (Stripe mode: PCI DSS SAQ A) when asked to charge a card. */
export class CardDataRefusedError extends Error {
  constructor(gatewayName: string) {
    super(`The ${gatewayName} gateway never takes card data on the server`);
    this.name = 'CardDataRefusedError';
  }
}

/**
 * A card the gateway keeps for later charges made without the donor (issue #13, recurring gifts): the gateway's
 * reference to it and what the donor's page shows of it. NOTE: never the card number nor the CVC: Stripe's
 * `pm_...` on a Customer `cus_...`, or the test gateway's token, which remembers only how its test card behaves.
 */
export interface SavedPaymentMethod {
  /** The gateway's reference: Stripe's PaymentMethod id (`pm_...`) or a test-gateway token (`pm_test_...`). */
  paymentMethodId: string;
  /** The Stripe Customer the method is attached to (`cus_...`); undefined for the test gateway. */
  customerId: string | undefined;
  cardBrand: CardBrand;
  /** Last four digits of the card number. */
  last4: string;
  /** 1..12. */
  expiryMonth: number;
  /** Four-digit year, e.g. 2030. */
  expiryYear: number;
}

/** Outcome of {@link PaymentGateway.savePaymentMethod}: the card saved, or refused as a charge would be (nothing kept). */
export type SavePaymentMethodResult = { status: 'saved'; paymentMethod: SavedPaymentMethod } | ChargeDeclined;

/** A charge of a saved payment method made by the server, the donor not present (a renewal; issue #13). */
export interface SavedPaymentMethodChargeRequest {
  paymentMethod: Pick<SavedPaymentMethod, 'paymentMethodId' | 'customerId'>;
  /** Amount in integer cents (minor units), > 0. */
  amountCents: number;
  /** ISO 4217 code, upper case (`USD`). */
  currency: string;
  /** Derived from (plan, period, attempt) by the billing runner: a repeat charges nothing and answers the first result. */
  idempotencyKey: string;
  /** What the charge is for, as it appears in the gateway's dashboard. */
  description: string;
}

/**
 * The card's bank asks the donor to authenticate the payment (3-D Secure; Stripe's `authentication_required`
 * decline of an off-session payment): nothing was charged; the donor can confirm the payment intent on our page.
 */
export interface ChargeNeedsAuthentication {
  status: 'requires_authentication';
  /** The payment intent the donor confirms (`pi_...`). */
  paymentIntentId: string;
  /** Always `authentication_required` (Stripe's decline code). */
  declineCode: string;
  message: string;
  isTestPayment: boolean;
}

/**
 * A SetupIntent (Stripe's https://docs.stripe.com/api/setup_intents): the browser confirms it with a new card, which
 * the gateway saves on the Customer for off-session charges without charging it (a donor's new card; issue #13).
 */
export interface SetupIntent {
  /** The gateway's id (`seti_...`). */
  id: string;
  /** What the browser confirms the intent with (Stripe.js); never logged or stored. */
  clientSecret: string;
  /** The Customer the card is saved on (`cus_...`). */
  customerId: string | undefined;
  /** The card saved, once the intent succeeded; undefined before (or when it saved nothing). */
  savedPaymentMethod: SavedPaymentMethod | undefined;
}

/** Raised by a gateway that saves cards from card data on the server (the test gateway) when asked for a SetupIntent. */
export class SetupIntentsUnsupportedError extends Error {
  constructor(gatewayName: string) {
    super(`The ${gatewayName} gateway saves cards with savePaymentMethod, not SetupIntents`);
    this.name = 'SetupIntentsUnsupportedError';
  }
}

/**
 * A saved card's charge that succeeded; `paymentIntentId` is the gateway's payment intent of it where it has one
 * (Stripe's off-session intent, `pi_...`), so that its later events (a refund, a dispute) find the renewal.
 */
export type SavedPaymentMethodChargeSucceeded = ChargeSucceeded & { paymentIntentId?: string };

/** Outcome of {@link PaymentGateway.chargeSavedPaymentMethod}: succeeded, declined, or waiting for the donor to authenticate. */
export type SavedPaymentMethodChargeResult = SavedPaymentMethodChargeSucceeded | ChargeDeclined | ChargeNeedsAuthentication;

/**
 * Charges cards, and says what became of a charge (issue #3: the reconciler asks "what became of that key").
 * - `charge` resolves with a {@link ChargeResult} for every answer the gateway gives, declines included;
 *   it rejects only when the outcome is unknown (network failure, timeout, gateway error). A second call
 *   with the same idempotency key resolves with the first call's result and charges nothing.
 * - `retrieveCharge` resolves with the result of the charge made under that key, or `not_found` when there
 *   was none; it rejects when the gateway cannot be asked.
 * Payment intents (spec section 7; issue #11), after Stripe's Payment Intents API:
 * - `createPaymentIntent` resolves with a new intent (`requires_payment_method`), or the first one for a repeated key;
 * - `retrievePaymentIntent` resolves with the intent as it stands, or undefined for an id the gateway does not know;
 * - `cancelPaymentIntent` cancels an intent that has not succeeded, so nobody can confirm it any more (a renewal the
 *   donor did not authenticate, before the billing runner retries the period; issue #13), and resolves with the intent
 *   as it stands afterwards: `canceled`, or `succeeded` / `processing` when it was paid first; undefined for an
 *   unknown id;
 * - `confirmPaymentIntent` charges the intent with a card on the server: only when `acceptsCardData`
 *   (the test gateway); otherwise it rejects with {@link CardDataRefusedError}, as `charge` does;
 * - `refund` refunds a charge, all or part of it, once per idempotency key; it rejects with {@link RefundRefusedError}
 *   when the gateway refused it (nothing refunded).
 * - `retrieveRefund` resolves with the refund made of a charge under an idempotency key, or undefined when the gateway
 *   made none (nothing was refunded under it): the reconciler settles a refund left pending with it (decision 0095).
 * Saved payment methods (issue #13, recurring gifts):
 * - `savePaymentMethod` keeps a card for later charges: only when `acceptsCardData` (the test gateway vaults a
 *   token); otherwise it rejects with {@link CardDataRefusedError} (Stripe saves the card in the browser);
 * - `chargeSavedPaymentMethod` charges a saved method off-session under an idempotency key (a repeat answers the
 *   first result and charges nothing);
 * - `createSetupIntent` creates a SetupIntent for a Customer's new card, and `retrieveSetupIntent` resolves with it as
 *   it stands (undefined for an unknown id): only when not `acceptsCardData` (Stripe saves the card in the browser);
 *   otherwise they reject with {@link SetupIntentsUnsupportedError}.
 * Every method rejects when the outcome is unknown (network failure, timeout, gateway error).
 */
export interface PaymentGateway {
  /** Stored with each donation (`gateway` column), e.g. `test` or `stripe`. */
  readonly name: string;
  /** True when this gateway never moves real money (stored as `is_test_payment` before the charge). */
  readonly isTestMode: boolean;
  /** False when card data must never reach the server (Stripe mode): `charge` and `confirmPaymentIntent` reject. */
  readonly acceptsCardData: boolean;
  charge(request: ChargeRequest): Promise<ChargeResult>;
  retrieveCharge(idempotencyKey: string): Promise<ChargeLookup>;
  createPaymentIntent(request: CreatePaymentIntentRequest): Promise<PaymentIntent>;
  retrievePaymentIntent(paymentIntentId: string): Promise<PaymentIntent | undefined>;
  cancelPaymentIntent(paymentIntentId: string): Promise<PaymentIntent | undefined>;
  confirmPaymentIntent(paymentIntentId: string, card: ChargeCard): Promise<PaymentIntent>;
  refund(request: RefundRequest): Promise<Refund>;
  retrieveRefund(lookup: RefundLookup): Promise<Refund | undefined>;
  savePaymentMethod(card: ChargeCard): Promise<SavePaymentMethodResult>;
  chargeSavedPaymentMethod(request: SavedPaymentMethodChargeRequest): Promise<SavedPaymentMethodChargeResult>;
  createSetupIntent(customerId: string): Promise<SetupIntent>;
  retrieveSetupIntent(setupIntentId: string): Promise<SetupIntent | undefined>;
}

/**
 * The idempotency key the gateway gets for a donation (issue #3): one per donation row, derived from its id,
 * whether or not the client sent an Idempotency-Key. A client's key maps to exactly one donation (the claim
 * is unique), so a client's retry can never reach the gateway under a second key.
 */
export function gatewayIdempotencyKey(donationId: string): string {
  return `donation-${donationId}`;
}

/** Raised by a gateway wrapper when a call took longer than the configured timeout; the outcome is unknown. */
export class GatewayTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(`The payment gateway did not answer within ${timeoutMs} ms`);
    this.name = 'GatewayTimeoutError';
  }
}
