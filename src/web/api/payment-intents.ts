import { API_PATHS, type CreatePaymentIntentSuccess, CreatePaymentIntentSuccessSchema, ProcessDonationSuccessSchema } from '../../shared/api';
import type { CreatePaymentIntentRequest, DonationResult, DonationSubmissionInput } from '../../shared/donation';
import { postDonationRequest } from './donation-request';

/** A payment intent as create-payment-intent answers it: id, client secret, amount in dollars, currency. */
export type CreatedPaymentIntent = CreatePaymentIntentSuccess['data'];

/**
 * The submission without its card: what the Stripe-mode form confirms a donation with (issue #11: card data goes
 * to Stripe and never to our server).
 */
export type CardlessSubmission = Omit<DonationSubmissionInput, 'creditCard'>;

/**
 * `POST /api/create-payment-intent` (spec section 7; issue #11): creates a payment intent of `request.amount`
 * dollars, with the donor's `donation` details so the server records the gift even if the browser never comes
 * back. Failures throw a DonationRequestError as process-donation's do, `fieldErrors` named by the submission's
 * paths (`donation.donorEmail` → `donorEmail`).
 */
export function createPaymentIntent(request: CreatePaymentIntentRequest, idempotencyKey: string): Promise<CreatedPaymentIntent> {
  return postDonationRequest({
    path: API_PATHS.createPaymentIntent,
    body: request,
    idempotencyKey,
    successSchema: CreatePaymentIntentSuccessSchema,
    fieldErrorPrefix: 'donation.',
  });
}

/**
 * `POST /api/confirm-donation` (spec section 7; issue #11): asks the server to record the donation of an intent
 * the browser has paid, and returns the donation result. Answers as process-donation does: failures (402 decline,
 * 503 being confirmed...) throw a DonationRequestError, `fieldErrors` named by the submission's paths.
 */
export function confirmDonation(paymentIntentId: string, donationData: CardlessSubmission, idempotencyKey: string): Promise<DonationResult> {
  return postDonationRequest({
    path: API_PATHS.confirmDonation,
    body: { paymentIntentId, donationData },
    idempotencyKey,
    successSchema: ProcessDonationSuccessSchema,
    fieldErrorPrefix: 'donationData.',
  });
}
