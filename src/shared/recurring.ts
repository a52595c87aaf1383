/**
 * Recurring gifts as the page and the server both name them (issue #13): the donor's manage page, reached from a
 * signed link in every receipt and e-mail of a plan, and the API behind it. No zod here: plain constants.
 */

/** A UTC calendar date, `YYYY-MM-DD`, as a recurring gift's dates are sent (issue #13). */
export const RECURRING_DATE_PATTERN = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/** The page where a donor asks for their manage links by e-mail; `/donate/manage/<token>` manages one plan. */
export const MANAGE_PAGE_PATH = '/donate/manage';

/** The manage page of one plan, `:token` being its signed capability token. */
export const MANAGE_PLAN_PAGE_PATH = `${MANAGE_PAGE_PATH}/:token`;

/** The API of a plan's manage page: GET reads the plan (changes nothing), POST changes it (CSRF-checked). */
export const MANAGE_PLAN_API_PATH = '/api/recurring/manage/:token';

/** The API that starts a new card in Stripe mode: POST (CSRF-checked) creates a SetupIntent for the plan's Customer. */
export const MANAGE_CARD_SETUP_API_PATH = `${MANAGE_PLAN_API_PATH}/card-setup`;

/**
 * The API the manage page calls once Stripe.js confirmed the renewal the donor's bank wanted authenticated: POST
 * (CSRF-checked) makes the server retrieve that payment intent from Stripe and record the renewal (issue #13).
 */
export const MANAGE_CONFIRM_PAYMENT_API_PATH = `${MANAGE_PLAN_API_PATH}/confirm-payment`;

/** The API where a donor asks for their manage links (POST `{email}`, 202 whatever the address). */
export const MANAGE_LINKS_API_PATH = '/api/recurring/manage-links';

/** The page path of a plan's manage token. */
export function managePlanPagePath(token: string): string {
  return MANAGE_PLAN_PAGE_PATH.replace(':token', token);
}
