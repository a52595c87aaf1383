import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { ApiError, ProcessDonationSuccess } from '../../shared/api';
import { CAUSE_DETAILS } from '../../shared/causes';
import type { DonationSubmission } from '../../shared/donation';
import type { Database } from '../db/client';
import {
  apiError,
  IDEMPOTENCY_IN_FLIGHT_MESSAGE,
  IDEMPOTENCY_MISMATCH_MESSAGE,
  PAYMENT_BEING_CONFIRMED_MESSAGE,
  SERVICE_UNAVAILABLE_MESSAGE,
} from '../http/errors';
import { fingerprintBody, IDEMPOTENCY_KEY_TTL_HOURS } from '../idempotency/idempotency-key';
import { findIdempotencyKey } from '../idempotency/repository';
import { systemClock, type Clock } from '../platform/clock';
import { gatewayIdempotencyKey, type ChargeResult, type PaymentGateway, type SavedPaymentMethod } from '../payments/gateway';
import { markSucceededAndStartPlan, saveCardForRenewals, withRecurringNote } from '../recurring/first-payment';
import { declinedAnswer, succeededAnswer, type FinalAnswer } from '../ledger/answers';
import { toPendingDonation } from './pending-donation';
import { NO_CAMPAIGN_FEE, type CampaignFeeSettings } from './campaign-fee';
import {
  claimKeyAndCreatePendingDonation,
  createPendingDonation,
  markDonationFailed,
  type PendingDonation,
} from '../ledger/repository';

/** What {@link processDonation} needs: the database, the gateway, the fingerprint secret and the request's logger. */
export interface ProcessDonationDeps {
  db: Database;
  gateway: PaymentGateway;
  /** Key of the body fingerprints (see fingerprintSecret). */
  fingerprintSecret: Buffer;
  log: FastifyBaseLogger;
  /** The clock a recurring plan's calendar starts from (its first charge's UTC date; issue #13); the machine's by default. */
  clock?: Clock;
  /** The fee coverage offered and the known campaigns (issue #23); none by default. */
  campaignFee?: CampaignFeeSettings;
}

/** The answer to send: status, body, whether it is a replay, and how many seconds the client should wait (Retry-After). */
export interface ProcessDonationAnswer extends FinalAnswer<ProcessDonationSuccess | ApiError> {
  replayed: boolean;
  retryAfterSeconds?: number;
}

/** Seconds a client is asked to wait before retrying a key that is in flight or being confirmed (Retry-After). */
const RETRY_AFTER_SECONDS = { inFlight: 2, unavailable: 30, beingConfirmed: 60 } as const;

/** How many times a claim is tried when the key it lost to has been pruned in between (expired keys only). */
const MAX_CLAIM_ATTEMPTS = 3;

const fresh = (answer: FinalAnswer<ProcessDonationSuccess | ApiError>): ProcessDonationAnswer => ({ ...answer, replayed: false });
const failure = (statusCode: number, message: string, retryAfterSeconds?: number): ProcessDonationAnswer => ({
  statusCode,
  body: apiError(message),
  replayed: false,
  retryAfterSeconds,
});

/**
 * Writes the pending donation with the id `newDonationId`, claiming `key` first when there is one. Returns the donation's id, or the
 * answer for a key already claimed (issue #3; IETF draft): 422 when its body differs, 409 while its first
 * request is in flight, the stored answer (a replay) once it completed. Throws when the database fails.
 */
async function claimDonation(
  deps: ProcessDonationDeps,
  pending: PendingDonation,
  submission: DonationSubmission,
  key: string | undefined,
  newDonationId: string,
): Promise<{ donationId: string } | { answer: ProcessDonationAnswer }> {
  if (key === undefined) return { donationId: await createPendingDonation(deps.db, pending, newDonationId) };

  const fingerprint = fingerprintBody(deps.fingerprintSecret, submission);
  for (let attempt = 1; attempt <= MAX_CLAIM_ATTEMPTS; attempt += 1) {
    const claim = { key, fingerprint, ttlHours: IDEMPOTENCY_KEY_TTL_HOURS };
    const donationId = await claimKeyAndCreatePendingDonation(deps.db, pending, claim, newDonationId);
    if (donationId) return { donationId };

    const earlier = await findIdempotencyKey(deps.db, key);
    if (!earlier) continue; // pruned between the claim and the read: claim again
    if (earlier.fingerprint !== fingerprint) return { answer: failure(422, IDEMPOTENCY_MISMATCH_MESSAGE) };
    if (earlier.status === 'in_flight' || earlier.responseStatus === null) {
      return { answer: failure(409, IDEMPOTENCY_IN_FLIGHT_MESSAGE, RETRY_AFTER_SECONDS.inFlight) };
    }
    return {
      answer: { statusCode: earlier.responseStatus, body: earlier.responseBody as ProcessDonationSuccess | ApiError, replayed: true },
    };
  }
  throw new Error(`Idempotency-Key could be neither claimed nor read after ${MAX_CLAIM_ATTEMPTS} attempts`);
}

/**
 * Processes one donation submission (spec section 7; issues #2 and #3), the ledger way:
 * 1. claims the Idempotency-Key, if any, and writes the donation `pending`, in one statement;
 *    a database failure here answers 503 {@link SERVICE_UNAVAILABLE_MESSAGE}, and the gateway is not called;
 * 2. charges the card under the donation's own gateway key ({@link gatewayIdempotencyKey}); a gateway error
 *    or timeout leaves the outcome unknown: the row stays `pending` for the reconciler, answer 503
 *    {@link PAYMENT_BEING_CONFIRMED_MESSAGE};
 * 3. records the outcome (`succeeded` / `failed`) and completes the key with the answer, in one statement;
 *    if that write fails after a successful charge, answer 503 {@link PAYMENT_BEING_CONFIRMED_MESSAGE} (the
 *    reconciler records it); after a decline, the decline answer (nothing was charged).
 * Answers 200 on success, 402 on a decline, 409 / 422 / a replay for a key already used, 503 as above.
 * A monthly or yearly gift saves its card first (the gateway's vault) and creates its recurring plan in the
 * transaction of step 3 (issue #13; recurring/first-payment.ts); the billing runner charges the renewals.
 */
export async function processDonation(
  deps: ProcessDonationDeps,
  submission: DonationSubmission,
  idempotencyKey: string | undefined,
): Promise<ProcessDonationAnswer> {
  const { db, gateway, log } = deps;
  const pending = toPendingDonation(submission, submission.creditCard.number, gateway, undefined, deps.campaignFee ?? NO_CAMPAIGN_FEE);

  // NOTE: chosen here, so that a failed write can be logged with the id it would have had.
  const newDonationId = randomUUID();
  let claimed: Awaited<ReturnType<typeof claimDonation>>;
  try {
    claimed = await claimDonation(deps, pending, submission, idempotencyKey, newDonationId);
  } catch (error) {
    log.error({ err: error, donationId: newDonationId }, 'Database unavailable before the charge; nothing charged');
    return failure(503, SERVICE_UNAVAILABLE_MESSAGE, RETRY_AFTER_SECONDS.unavailable);
  }
  if ('answer' in claimed) return claimed.answer;

  const { donationId } = claimed;
  const outcomeLog = {
    donationId,
    amountCents: pending.amountCents,
    currency: pending.currency,
    cardBrand: pending.cardBrand,
    last4: pending.cardLast4,
    gateway: gateway.name,
  };

  let result: ChargeResult;
  let saved: SavedPaymentMethod | undefined;
  try {
    const { creditCard } = submission;
    const card = { number: creditCard.number, expiryMonth: Number(creditCard.expiryMonth), expiryYear: Number(creditCard.expiryYear), cvc: creditCard.cvv };
    saved = await saveCardForRenewals(gateway, submission.frequency, card);
    result = await gateway.charge({
      amountCents: pending.amountCents,
      currency: pending.currency,
      card,
      description: `Donation (${submission.frequency}): ${CAUSE_DETAILS[submission.cause].displayName}`,
      idempotencyKey: gatewayIdempotencyKey(donationId),
    });
  } catch (error) {
    log.error({ err: error, donation: { ...outcomeLog, status: 'pending' } }, 'Charge failed; outcome unknown, left for the reconciler');
    return failure(503, PAYMENT_BEING_CONFIRMED_MESSAGE, RETRY_AFTER_SECONDS.beingConfirmed);
  }

  const now = (deps.clock ?? systemClock).now();
  const answer =
    result.status === 'succeeded'
      ? withRecurringNote(succeededAnswer({ ...pending, transactionId: result.transactionId, isTestPayment: result.isTestPayment }), saved && submission.frequency, now)
      : declinedAnswer(result.message, result.declineCode);
  const outcome =
    result.status === 'succeeded'
      ? { status: 'succeeded', transactionId: result.transactionId, cardBrand: result.cardBrand, last4: result.last4 }
      : { status: 'failed', declineCode: result.declineCode };
  try {
    if (result.status === 'succeeded') {
      await markSucceededAndStartPlan(db, donationId, result, answer, { saved, gateway: gateway.name, now });
    }
    else await markDonationFailed(db, donationId, result, answer);
  } catch (error) {
    log.error({ err: error, donation: { ...outcomeLog, ...outcome, recorded: false } }, 'Charge outcome not recorded; left for the reconciler');
    return result.status === 'succeeded'
      ? failure(503, PAYMENT_BEING_CONFIRMED_MESSAGE, RETRY_AFTER_SECONDS.beingConfirmed)
      : fresh(answer);
  }
  log.info(
    { donation: { ...outcomeLog, ...outcome, isTestPayment: result.isTestPayment } },
    result.status === 'succeeded' ? 'Donation succeeded' : 'Donation declined',
  );
  return fresh(answer);
}
