import { type ApiError, type ProcessDonationSuccess, publicDeclineCode } from '../../shared/api';
import { centsToDollars } from '../../shared/money';
import { apiError } from '../http/errors';

/**
 * The final answers of `POST /api/process-donation`, built in one place because two callers give them:
 * the route, when it learns the charge's outcome itself, and the reconciler, which stores the same answer
 * with the Idempotency-Key so that a retry replays it (issue #3). Amounts in cents in, dollars out.
 */

/** A final answer: the HTTP status and the body, as sent and as stored for replays. */
export interface FinalAnswer<TBody> {
  statusCode: number;
  body: TBody;
}

/** Decline code stored when the reconciler finds that the gateway never charged a pending donation (issue #3). */
export const ABANDONED_DECLINE_CODE = 'abandoned';

/** 402 message of an abandoned donation: the gateway has no charge for it, so nothing was taken. */
export const ABANDONED_MESSAGE = 'Your payment did not go through and your card was not charged. Please try again.';

/** 200 `{success: true, data: {amount (dollars), donorName, transactionId, isTestPayment, feeCovered? (dollars; issue #23)}}` (spec section 7). */
export function succeededAnswer(donation: {
  amountCents: number;
  donorName: string;
  transactionId: string;
  isTestPayment: boolean;
  /** Cents of amountCents that cover the card fee (issue #23): `feeCovered` in dollars when above 0. */
  feeCoveredCents?: number;
}): FinalAnswer<ProcessDonationSuccess> {
  return {
    statusCode: 200,
    body: {
      success: true,
      data: {
        amount: centsToDollars(donation.amountCents),
        donorName: donation.donorName,
        transactionId: donation.transactionId,
        isTestPayment: donation.isTestPayment,
        ...(donation.feeCoveredCents ? { feeCovered: centsToDollars(donation.feeCoveredCents) } : {}),
      },
    },
  };
}

/**
 * 402 `{success: false, error, code}` with the gateway's donor-facing decline message (issue #2) and the public code of
 * its `declineCode` (issue #24: publicDeclineCode), or {@link ABANDONED_MESSAGE} with `payment_not_completed`.
 */
export function declinedAnswer(message: string, declineCode: string): FinalAnswer<ApiError> {
  const code = declineCode === ABANDONED_DECLINE_CODE ? 'payment_not_completed' : publicDeclineCode(declineCode);
  return { statusCode: 402, body: apiError(message, undefined, code) };
}
