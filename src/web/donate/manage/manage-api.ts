import { MANAGE_CARD_SETUP_API_PATH, MANAGE_CONFIRM_PAYMENT_API_PATH, MANAGE_PLAN_API_PATH } from '../../../shared/recurring';
import { CardSetupAnswerSchema, ManagedPlanAnswerSchema, type ManagedPlan, type PlanChange } from '../../../shared/recurring-api';
import { apiFetch } from '../../api/api-client';

/**
 * The requests of the manage pages (issue #13): read a plan by its token (GET, changes nothing), change it (POST with
 * the CSRF header, as every POST of the site: apiFetch), and ask for the manage links by e-mail.
 */

/** What a request gives the page: the plan, a field error, or a failure with a sentence for the donor. */
export type ManageOutcome =
  | { kind: 'plan'; plan: ManagedPlan }
  | { kind: 'invalid'; field: string; message: string }
  | { kind: 'failed'; message: string; status: number };

/**
 * Runs a change of the plan (the page's own, over {@link changePlan}); resolves with the field errors the server gave
 * (none when it went through or failed otherwise). Shared by the page's forms and the Stripe card update.
 */
export type RunChange = (change: PlanChange, done: string) => Promise<Record<string, string>>;

/** Shown when the request did not reach the server or the server failed. */
export const MANAGE_FAILED_MESSAGE = 'We could not reach our server just now. Please check your connection and try again.';
/** Shown on 404: the link is wrong or expired (a newer e-mail of the gift holds a newer one). */
export const MANAGE_LINK_INVALID_MESSAGE = 'This link does not work. Please use the link in your latest e-mail about your gift, or ask for a new one.';

const planPath = (token: string) => MANAGE_PLAN_API_PATH.replace(':token', encodeURIComponent(token));

/** Reads an answer of the manage API into an outcome; never rejects. */
async function outcomeOf(request: Promise<Response>): Promise<ManageOutcome> {
  try {
    const response = await request;
    const body = (await response.json().catch(() => undefined)) as unknown;
    const plan = ManagedPlanAnswerSchema.safeParse(body);
    if (response.ok && plan.success) return { kind: 'plan', plan: plan.data.data };
    const error = body as { error?: string; fieldErrors?: Record<string, string> } | undefined;
    const [field, message] = Object.entries(error?.fieldErrors ?? {})[0] ?? [];
    if (response.status === 400 && field && message) return { kind: 'invalid', field, message };
    if (response.status === 404) return { kind: 'failed', message: MANAGE_LINK_INVALID_MESSAGE, status: 404 };
    return { kind: 'failed', message: error?.error ?? MANAGE_FAILED_MESSAGE, status: response.status };
  } catch {
    return { kind: 'failed', message: MANAGE_FAILED_MESSAGE, status: 0 };
  }
}

/** GET the plan of `token`. */
export function fetchPlan(token: string): Promise<ManageOutcome> {
  return outcomeOf(apiFetch(planPath(token)));
}

/** POST `change` to the plan of `token`; resolves with the plan as changed, or why not. */
export function changePlan(token: string, change: PlanChange): Promise<ManageOutcome> {
  return outcomeOf(apiFetch(planPath(token), { method: 'POST', json: change }));
}

/**
 * POST an empty body to the confirm-payment API of `token` once Stripe.js confirmed the renewal the donor's bank wanted
 * authenticated (Stripe mode; issue #13): resolves with the plan as it stands once the server found the payment
 * succeeded at Stripe and recorded it, or why not (409: Stripe does not say it was paid).
 */
export function confirmRenewalPayment(token: string): Promise<ManageOutcome> {
  return outcomeOf(apiFetch(MANAGE_CONFIRM_PAYMENT_API_PATH.replace(':token', encodeURIComponent(token)), { method: 'POST', json: {} }));
}

/**
 * POST an empty body to the card-setup API of `token` (Stripe mode; issue #13): resolves with the client secret of a
 * SetupIntent for the plan's Customer, or `{message}` for the donor when the server refused or could not be reached.
 */
export async function startCardSetup(token: string): Promise<{ clientSecret: string } | { message: string }> {
  try {
    const response = await apiFetch(MANAGE_CARD_SETUP_API_PATH.replace(':token', encodeURIComponent(token)), { method: 'POST', json: {} });
    const body = (await response.json().catch(() => undefined)) as unknown;
    const answer = CardSetupAnswerSchema.safeParse(body);
    if (response.ok && answer.success) return answer.data.data;
    if (response.status === 404) return { message: MANAGE_LINK_INVALID_MESSAGE };
    return { message: (body as { error?: string } | undefined)?.error ?? MANAGE_FAILED_MESSAGE };
  } catch {
    return { message: MANAGE_FAILED_MESSAGE };
  }
}
