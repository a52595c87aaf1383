import { z } from 'zod';
import { DonationResultSchema } from './donation';
import { CauseSchema, FrequencySchema } from './field-rules';

/** Every API path, defined once (spec section 7: base path /api). */
export const API_PATHS = {
  processDonation: '/api/process-donation',
  createPaymentIntent: '/api/create-payment-intent',
  confirmDonation: '/api/confirm-donation',
  stripeWebhook: '/api/webhooks/stripe',
  donationStats: '/api/donations/stats',
  /** A campaign's public figures (issue #34); `:slug` its slug. */
  campaign: '/api/campaigns/:slug',
  /** A donor's choice to appear on a campaign's supporters' list (issue #34); `:token` the gift's receipt token. */
  campaignSupporter: '/api/campaign-supporters/:token',
  /** A campaign's goal bar in words (issue #35: `<reef-donate mode="goal">`); `:slug` its slug. */
  campaignGoalBar: '/api/campaigns/:slug/goal-bar',
  /** Whether the asking page's origin may frame the donation pages (issue #35: embed.js asks before it shows a frame). */
  embedStatus: '/api/embed/status',
} as const;

/** Cookie the server sets on the page with the CSRF token (issue #2; spec section 7), over plain HTTP. */
export const CSRF_COOKIE_NAME = 'XSRF-TOKEN';
/**
 * Cookie-name prefix browsers accept only with Secure, Path=/ and no Domain, so a sibling subdomain or a network
 * attacker cannot plant the cookie (RFC 6265bis; OWASP CSRF Prevention Cheat Sheet; issue #4).
 */
export const HOST_COOKIE_PREFIX = '__Host-';
/** The CSRF token cookie when the site is served over HTTPS (issue #4); the page reads whichever of the two is present. */
export const CSRF_HTTPS_COOKIE_NAME = `${HOST_COOKIE_PREFIX}${CSRF_COOKIE_NAME}`;
/** Header in which the page echoes the CSRF cookie's value (issue #2; spec section 7). */
export const CSRF_HEADER_NAME = 'X-XSRF-TOKEN';

/**
 * Header naming one donation attempt, so a retry of it can never charge twice (issue #3; Stripe's
 * idempotency keys; IETF draft "The Idempotency-Key HTTP Header Field").
 */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

/** Fallback error when a donation call fails without a message (spec section 8). */
export const DONATION_FAILED_FALLBACK = 'Failed to process donation';

/**
 * 429 of a payment attempt refused by a card-testing limit (OWASP OAT-001; issue #4). NOTE: one message
 * whatever limit fired (per IP, per e-mail or per card), so a card tester cannot tell which one to rotate.
 */
export const TOO_MANY_ATTEMPTS_MESSAGE =
  'Too many donation attempts. Please wait a while before trying again: your card has not been charged.';

/** 200 answer of `POST /api/process-donation`: `{success: true, data: DonationResult}` (spec section 7). */
export const ProcessDonationSuccessSchema = z.object({
  success: z.literal(true),
  data: DonationResultSchema,
});
/** A successful process-donation answer. */
export type ProcessDonationSuccess = z.infer<typeof ProcessDonationSuccessSchema>;

/**
 * 200 answer of `POST /api/create-payment-intent` (spec section 7, issue #11): the intent's id and the client
 * secret the browser confirms it with, the amount in dollars and the currency.
 */
export const CreatePaymentIntentSuccessSchema = z.object({
  success: z.literal(true),
  data: z.object({
    paymentIntentId: z.string(),
    clientSecret: z.string(),
    amount: z.number(),
    currency: z.literal('USD'),
  }),
});
/** A successful create-payment-intent answer. */
export type CreatePaymentIntentSuccess = z.infer<typeof CreatePaymentIntentSuccessSchema>;

/**
 * Card decline codes a donor may see as `code` (issue #24; Stripe's decline codes, docs.stripe.com/declines/codes).
 * Any other decline (lost_card, stolen_card, fraudulent...) answers `card_declined`: a card tester or thief learns no
 * more than "declined" (PCI DSS; Stripe's advice not to reveal those reasons).
 */
export const DECLINE_ERROR_CODES = [
  'card_declined',
  'insufficient_funds',
  'expired_card',
  'incorrect_cvc',
  'processing_error',
  'incorrect_number',
  'test_mode_live_card',
] as const;

/**
 * Every stable `code` of an API failure on the donor's routes (issue #24; decision 0094): the decline codes, then the
 * server's own. The page shows its message for a code in its own language (`error.<code>`); the English `error`
 * beside it stays the spec's. Messages only the staff or operator routes answer have no code here.
 */
export const API_ERROR_CODES = [
  ...DECLINE_ERROR_CODES,
  'too_many_attempts',
  'invalid_input',
  'invalid_json',
  'csrf_failed',
  'foreign_origin',
  'not_found',
  'payload_too_large',
  'unsupported_media_type',
  'internal_error',
  'service_unavailable',
  'invalid_idempotency_key',
  'idempotency_in_flight',
  'idempotency_mismatch',
  'payment_being_confirmed',
  'payment_not_found',
  'amount_mismatch',
  'payment_not_completed',
  'card_data_refused',
  'plan_charge_under_way',
  'plan_change_not_allowed',
  'pause_date_in_past',
  'pause_date_too_far',
  'payment_not_confirmed',
  'setup_intent_not_saved',
] as const;
/** One of {@link API_ERROR_CODES}. */
export type ApiErrorCode = (typeof API_ERROR_CODES)[number];

/**
 * The `code` a donor sees for a gateway's decline code (issue #24): itself when it is one of
 * {@link DECLINE_ERROR_CODES}, else `card_declined` (lost_card and stolen_card among them, never more).
 */
export function publicDeclineCode(declineCode: string): ApiErrorCode {
  return (DECLINE_ERROR_CODES as readonly string[]).includes(declineCode) ? (declineCode as ApiErrorCode) : 'card_declined';
}

/**
 * Every API failure: `{success: false, error, code?, fieldErrors?}`. `error` is a sentence a donor can read, in
 * English (the spec's messages, unchanged); `code` is a stable, machine-readable name of the failure (a decline code
 * such as `insufficient_funds`, or one of the server's own such as `too_many_attempts`) from which a page shows the
 * message in its own language (issue #24); `fieldErrors` (400 only) maps a field's dotted path (`creditCard.number`)
 * to its message, never its value.
 */
export const ApiErrorSchema = z.object({
  success: z.literal(false),
  error: z.string(),
  // NOTE: a string, not API_ERROR_CODES: the staff routes answer codes of their own (staff/identity-api.ts).
  code: z.string().optional(),
  fieldErrors: z.record(z.string(), z.string()).optional(),
});
/** A failed API answer. */
export type ApiError = z.infer<typeof ApiErrorSchema>;

const TotalsSchema = { totalRaised: z.number(), donationCount: z.number().int() };

/**
 * 200 answer of `GET /api/donations/stats` over succeeded donations (issue #2); amounts in dollars,
 * `donorCount` counts distinct e-mail addresses, case-insensitive.
 */
export const DonationStatsSchema = z.object({
  currency: z.literal('USD'),
  totalRaised: z.number(),
  donationCount: z.number().int(),
  donorCount: z.number().int(),
  byCause: z.array(z.object({ cause: CauseSchema, ...TotalsSchema })),
  byFrequency: z.array(z.object({ frequency: FrequencySchema, ...TotalsSchema })),
});
/** Donation totals for `GET /api/donations/stats`. */
export type DonationStats = z.infer<typeof DonationStatsSchema>;
