import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { ApiError, CreatePaymentIntentSuccess, ProcessDonationSuccess } from '../../shared/api';
import { CAUSE_DETAILS } from '../../shared/causes';
import type { ConfirmDonationRequest, DonationDetails } from '../../shared/donation';
import { centsToDollars, CURRENCY, dollarsToCents } from '../../shared/money';
import type { Database } from '../db/client';
import {
  AMOUNT_MISMATCH_MESSAGE,
  apiError,
  CARD_DATA_REFUSED_MESSAGE,
  CARD_REQUIRED_MESSAGE,
  IDEMPOTENCY_IN_FLIGHT_MESSAGE,
  IDEMPOTENCY_MISMATCH_MESSAGE,
  INVALID_INPUT_MESSAGE,
  PAYMENT_BEING_CONFIRMED_MESSAGE,
  PAYMENT_NOT_COMPLETED_MESSAGE,
  PAYMENT_NOT_FOUND_MESSAGE,
  SERVICE_UNAVAILABLE_MESSAGE,
} from '../http/errors';
import { fingerprintBody, IDEMPOTENCY_KEY_TTL_HOURS } from '../idempotency/idempotency-key';
import { findIdempotencyKey, storeCompletedIdempotencyKey } from '../idempotency/repository';
import { gatewayIdempotencyKey, type PaymentGateway, type PaymentIntent, type SavedPaymentMethod } from '../payments/gateway';
import { ABANDONED_DECLINE_CODE, ABANDONED_MESSAGE, declinedAnswer, succeededAnswer, type FinalAnswer } from '../ledger/answers';
import { findOrCreateIntentDonation, type IntentDonation } from '../ledger/intent-ledger';
import { toPendingDonation } from './pending-donation';
import { campaignFeeColumns, NO_CAMPAIGN_FEE, type CampaignFeeSettings } from './campaign-fee';
import { DonationTransitionError, markDonationFailed } from '../ledger/repository';
import { markSucceededAndStartPlan, saveCardForRenewals, withRecurringNote } from '../recurring/first-payment';
import type { Frequency } from '../../shared/frequencies';

/**
 * The spec's two payment-intent endpoints (spec section 7; issue #11), in both modes, on one ledger:
 * `create-payment-intent` creates the intent (and, given the donor's details, its pending donation), and
 * `confirm-donation` records the outcome of an intent the server retrieves from the gateway itself. In test
 * mode the server confirms the intent with the test card of `donationData`; in Stripe mode the browser
 * confirmed it with Stripe.js, and card data is refused (PCI DSS SAQ A). See docs/decisions/0034.
 */

/** What the intent flows need: the database, the gateway, the fingerprint key and the request's logger. */
export interface PaymentIntentDeps {
  db: Database;
  gateway: PaymentGateway;
  /** Key of the Idempotency-Key body fingerprints (see fingerprintSecret). */
  fingerprintSecret: Buffer;
  log: FastifyBaseLogger;
  /** The fee coverage offered and the known campaigns (issue #23); none by default. */
  campaignFee?: CampaignFeeSettings;
}

/** An answer of either endpoint: status, body, whether it is a replay, and Retry-After in seconds. */
export interface IntentAnswer<TBody> extends FinalAnswer<TBody | ApiError> {
  replayed: boolean;
  retryAfterSeconds?: number;
}

/** Seconds a client is asked to wait before retrying (Retry-After), as process-donation asks. */
const RETRY_AFTER_SECONDS = { inFlight: 2, unavailable: 30, beingConfirmed: 60 } as const;

/** A failed answer: `message`, with `fieldErrors` when given, and Retry-After when given. */
const failure = <T>(
  statusCode: number,
  message: string,
  options: { fieldErrors?: Record<string, string>; retryAfterSeconds?: number } = {},
): IntentAnswer<T> => ({
  statusCode,
  body: apiError(message, options.fieldErrors),
  replayed: false,
  retryAfterSeconds: options.retryAfterSeconds,
});

/** What the gateway's dashboard shows for the intent. */
const describe = (details: DonationDetails | undefined) =>
  details ? `Donation (${details.frequency}): ${CAUSE_DETAILS[details.cause].displayName}` : 'Donation';

/**
 * POST /api/create-payment-intent: creates a payment intent of `amount` dollars (already validated: the same
 * rules as process-donation) under the gateway key of a new donation id, and, when `donation` is given, writes
 * that donation `pending` with the intent's id, so a payment whose browser never comes back is still recorded
 * with its donor. Answers 200 with the intent's id and client secret; 503 when the gateway or the database
 * cannot be reached (nothing is charged: an intent is only a promise until the browser confirms it).
 */
export async function createDonationPaymentIntent(
  { db, gateway, log, campaignFee = NO_CAMPAIGN_FEE }: PaymentIntentDeps,
  request: { amount: number; coverFee?: boolean; donation?: DonationDetails },
): Promise<IntentAnswer<CreatePaymentIntentSuccess>> {
  // The total the donor pays: the gift, plus the card fee the server computes when they cover it (issue #23).
  const { amountCents } = campaignFeeColumns(dollarsToCents(request.amount), request, campaignFee);
  const donationId = randomUUID();
  let intent: PaymentIntent;
  try {
    intent = await gateway.createPaymentIntent({
      amountCents,
      currency: CURRENCY,
      description: describe(request.donation),
      idempotencyKey: gatewayIdempotencyKey(donationId),
      metadata: { donationId },
      // A monthly or yearly gift's card is saved for its renewals (issue #13).
      ...(request.donation && request.donation.frequency !== 'one-time' ? { setupFutureUsage: 'off_session' as const } : {}),
    });
  } catch (error) {
    log.error({ err: error, donationId }, 'Payment intent not created; nothing charged');
    return failure(503, SERVICE_UNAVAILABLE_MESSAGE, { retryAfterSeconds: RETRY_AFTER_SECONDS.unavailable });
  }
  if (request.donation) {
    try {
      const pending = toPendingDonation({ ...request.donation, amount: request.amount, coverFee: request.coverFee }, undefined, gateway, intent.id, campaignFee);
      await findOrCreateIntentDonation(db, { ...pending, paymentIntentId: intent.id });
    } catch (error) {
      log.error({ err: error, paymentIntentId: intent.id }, 'Donation of a new payment intent not written; nothing charged');
      return failure(503, SERVICE_UNAVAILABLE_MESSAGE, { retryAfterSeconds: RETRY_AFTER_SECONDS.unavailable });
    }
  }
  log.info({ paymentIntent: { id: intent.id, amountCents, gateway: gateway.name, withDonation: Boolean(request.donation) } }, 'Payment intent created');
  return {
    statusCode: 200,
    body: {
      success: true,
      data: { paymentIntentId: intent.id, clientSecret: intent.clientSecret, amount: centsToDollars(amountCents), currency: 'USD' },
    },
    replayed: false,
  };
}

/** The answer a recorded donation gives again (a second confirm of its intent replays the first). */
function recordedAnswer(donation: IntentDonation): FinalAnswer<ProcessDonationSuccess | ApiError> | undefined {
  if (donation.status === 'pending' || donation.status === 'failed') return undefined;
  return succeededAnswer({ ...donation, transactionId: donation.gatewayTransactionId ?? '' });
}

/**
 * Records what the gateway says of `intent` on `donation` and returns the answer: succeeded → `succeeded`
 * (from pending, or from failed: an intent declined once may succeed with another card), 200; declined →
 * `failed` with the decline code, 402 with the decline message; canceled → `failed` (abandoned), 402; never
 * confirmed → 402, nothing recorded; still settling (processing, 3-D Secure) → 503 being confirmed, the donation
 * left pending for the webhook or the reconciler. A donation another request resolved meanwhile answers 409 (still
 * in flight, with Retry-After); the client's retry then replays what that request recorded.
 */
async function recordIntentOutcome(
  db: Database,
  donation: IntentDonation,
  intent: PaymentIntent,
  plan: { saved: SavedPaymentMethod | undefined; gateway: string; frequency: Frequency },
): Promise<IntentAnswer<ProcessDonationSuccess>> {
  try {
    if (intent.status === 'succeeded' && intent.charge) {
      // NOTE: a recurring gift's plan starts in the transaction of its success (issue #13; recurring/first-payment.ts).
      const saved = intent.savedPaymentMethod ?? plan.saved;
      const now = new Date();
      const answer = withRecurringNote(succeededAnswer({ ...donation, ...intent.charge, isTestPayment: intent.isTestPayment }), saved && plan.frequency, now);
      await markSucceededAndStartPlan(db, donation.id, { ...intent.charge, isTestPayment: intent.isTestPayment }, answer, { saved, gateway: plan.gateway, now }, [
        'pending',
        'failed',
      ]);
      return { ...answer, replayed: false };
    }
    if (intent.status === 'requires_payment_method' && intent.lastDecline) {
      const answer = declinedAnswer(intent.lastDecline.message, intent.lastDecline.declineCode);
      if (donation.status === 'pending') await markDonationFailed(db, donation.id, intent.lastDecline, answer);
      return { ...answer, replayed: false };
    }
    if (intent.status === 'requires_payment_method') return failure(402, PAYMENT_NOT_COMPLETED_MESSAGE);
    if (intent.status === 'canceled') {
      const answer = declinedAnswer(ABANDONED_MESSAGE, ABANDONED_DECLINE_CODE);
      if (donation.status === 'pending') await markDonationFailed(db, donation.id, { declineCode: ABANDONED_DECLINE_CODE }, answer);
      return { ...answer, replayed: false };
    }
  } catch (error) {
    if (!(error instanceof DonationTransitionError)) throw error;
    return { statusCode: 409, body: apiError(IDEMPOTENCY_IN_FLIGHT_MESSAGE), replayed: false, retryAfterSeconds: RETRY_AFTER_SECONDS.inFlight };
  }
  return failure(503, PAYMENT_BEING_CONFIRMED_MESSAGE, { retryAfterSeconds: RETRY_AFTER_SECONDS.beingConfirmed });
}

/**
 * POST /api/confirm-donation (spec section 7; issue #11): records the donation of `paymentIntentId` only if
 * the intent, retrieved from the gateway by the server itself, succeeded with the donation's amount and
 * currency; answers as process-donation does (200 / 402 / 503 being confirmed). Also:
 * - 400 with `fieldErrors` when `donationData.creditCard` is sent to a gateway that never takes card data
 *   (Stripe mode), or missing for the test gateway, which confirms the intent with it; 400 when the amount or
 *   currency differs from the intent's; 404 for an intent the gateway does not know;
 * - a second confirm of the same intent replays the first answer and records nothing new (`replayed`), and so does a
 *   confirm whose intent the webhook recorded while it ran (found in Stripe mode on PostgreSQL: it answered 409);
 * - `idempotencyKey` as on process-donation: the same key with another body 422, its answer replayed once stored;
 * - 503 (service unavailable) when the gateway or database cannot be reached before anything is recorded.
 */
export async function confirmDonation(
  deps: PaymentIntentDeps,
  request: ConfirmDonationRequest,
  idempotencyKey: string | undefined,
): Promise<IntentAnswer<ProcessDonationSuccess>> {
  const { db, gateway, log } = deps;
  const { paymentIntentId, donationData } = request;
  const card = donationData.creditCard;
  if (card && !gateway.acceptsCardData) {
    return failure(400, INVALID_INPUT_MESSAGE, { fieldErrors: { 'donationData.creditCard': CARD_DATA_REFUSED_MESSAGE } });
  }
  if (!card && gateway.acceptsCardData) {
    return failure(400, INVALID_INPUT_MESSAGE, { fieldErrors: { 'donationData.creditCard': CARD_REQUIRED_MESSAGE } });
  }

  const fingerprint = idempotencyKey === undefined ? undefined : fingerprintBody(deps.fingerprintSecret, request);
  try {
    const earlier = idempotencyKey === undefined ? undefined : await findIdempotencyKey(db, idempotencyKey);
    if (earlier && earlier.fingerprint !== fingerprint) return failure(422, IDEMPOTENCY_MISMATCH_MESSAGE);
    if (earlier?.responseStatus != null) {
      return { statusCode: earlier.responseStatus, body: earlier.responseBody as ProcessDonationSuccess | ApiError, replayed: true };
    }
  } catch (error) {
    log.error({ err: error, paymentIntentId }, 'Database unavailable before confirming a payment intent');
    return failure(503, SERVICE_UNAVAILABLE_MESSAGE, { retryAfterSeconds: RETRY_AFTER_SECONDS.unavailable });
  }

  let intent: PaymentIntent | undefined;
  try {
    intent = await gateway.retrievePaymentIntent(paymentIntentId);
  } catch (error) {
    log.error({ err: error, paymentIntentId }, 'Payment intent could not be retrieved; nothing recorded');
    return failure(503, SERVICE_UNAVAILABLE_MESSAGE, { retryAfterSeconds: RETRY_AFTER_SECONDS.unavailable });
  }
  if (!intent) return failure(404, PAYMENT_NOT_FOUND_MESSAGE);
  // NOTE: the total the server computes (issue #23: the gift, plus the card fee when the donor covers it).
  const intentDonation = { ...toPendingDonation(donationData, card?.number, gateway, undefined, deps.campaignFee ?? NO_CAMPAIGN_FEE), paymentIntentId };
  if (intent.amountCents !== intentDonation.amountCents || intent.currency !== CURRENCY) {
    log.warn({ paymentIntentId, intentAmountCents: intent.amountCents, currency: intent.currency }, 'Confirm refused: amount differs from the intent');
    return failure(400, AMOUNT_MISMATCH_MESSAGE, { fieldErrors: { 'donationData.amount': AMOUNT_MISMATCH_MESSAGE } });
  }

  // NOTE: intentDonation is the row of this intent, found or created from donationData; read again should another request resolve it.
  let donation: IntentDonation;
  try {
    donation = await findOrCreateIntentDonation(db, intentDonation);
  } catch (error) {
    log.error({ err: error, paymentIntentId }, 'Database unavailable before recording a payment intent');
    return failure(503, SERVICE_UNAVAILABLE_MESSAGE, { retryAfterSeconds: RETRY_AFTER_SECONDS.unavailable });
  }
  const recorded = recordedAnswer(donation);
  if (recorded) return { ...recorded, replayed: true };

  let saved: SavedPaymentMethod | undefined;
  if (card && intent.status === 'requires_payment_method') {
    try {
      const serverCard = { number: card.number, expiryMonth: Number(card.expiryMonth), expiryYear: Number(card.expiryYear), cvc: card.cvv };
      // Test mode: a recurring gift's card is vaulted before it is charged, as process-donation does (issue #13).
      saved = await saveCardForRenewals(gateway, donationData.frequency, serverCard);
      intent = await gateway.confirmPaymentIntent(paymentIntentId, serverCard);
    } catch (error) {
      log.error({ err: error, donationId: donation.id, paymentIntentId }, 'Payment intent confirmation failed; outcome unknown, left for the reconciler');
      return failure(503, PAYMENT_BEING_CONFIRMED_MESSAGE, { retryAfterSeconds: RETRY_AFTER_SECONDS.beingConfirmed });
    }
  }

  let answer: IntentAnswer<ProcessDonationSuccess>;
  try {
    answer = await recordIntentOutcome(db, donation, intent, { saved, gateway: gateway.name, frequency: donationData.frequency });
    if (answer.statusCode === 409) {
      // NOTE: another request (the gateway's webhook, as a rule) recorded this intent's outcome between this one's read
      // and its write: the donor gets what it recorded, not a 409 to retry.
      const now = recordedAnswer(await findOrCreateIntentDonation(db, intentDonation));
      if (now) return { ...now, replayed: true };
    }
  } catch (error) {
    log.error({ err: error, donationId: donation.id, paymentIntentId }, 'Payment intent outcome not recorded; left for the reconciler');
    return failure(503, PAYMENT_BEING_CONFIRMED_MESSAGE, { retryAfterSeconds: RETRY_AFTER_SECONDS.beingConfirmed });
  }
  log.info(
    { donation: { donationId: donation.id, paymentIntentId, status: intent.status, statusCode: answer.statusCode, gateway: gateway.name } },
    'Payment intent confirmed',
  );
  if (idempotencyKey !== undefined && fingerprint !== undefined && (answer.statusCode === 200 || answer.statusCode === 402)) {
    try {
      await storeCompletedIdempotencyKey(db, { key: idempotencyKey, fingerprint, donationId: donation.id, answer, ttlHours: IDEMPOTENCY_KEY_TTL_HOURS });
    } catch (error) {
      log.warn({ err: error, donationId: donation.id }, 'Idempotency-Key not stored; a retry replays from the donation instead');
    }
  }
  return answer;
}
