import { MANAGE_CARD_SETUP_API_PATH, MANAGE_CONFIRM_PAYMENT_API_PATH, MANAGE_PLAN_API_PATH } from '../../../shared/recurring';
import { CardSetupAnswerSchema, ManagedPlanAnswerSchema, type ManagedPlan, type PlanChange } from '../../../shared/recurring-api';
import { apiFetch } from '../../api/api-client';
import type { I18n } from '@lingui/core';
import { apiErrorMessage } from '../../api/api-error-message';

/**
 * The requests of the manage pages (issue #13): read a plan by its token (GET, changes nothing), change it (POST with
 * the CSRF header, as every POST of the site: apiFetch), and ask for the manage links by e-mail.
 */

/** What a request gives the page: the plan, a field error, or a failure with a sentence for the donor. */
export type ManageOutcome =
  | { kind: 'plan'; plan: ManagedPlan }
  | { kind: 'invalid'; field: string; message: string }
  | ManageFailure;

/** A manage request that failed: the server's (English) message or the page's own id, its HTTP status (0: unreached) and code. */
export type ManageFailure = { kind: 'failed'; message: string; status: number; code?: string };

/**
 * Runs a change of the plan (the page's own, over {@link changePlan}); resolves with the field errors the server gave
 * (none when it went through or failed otherwise). Shared by the page's forms and the Stripe card update.
 */
export type RunChange = (change: PlanChange, done: string) => Promise<Record<string, string>>;

/** Catalogue id of the message when the request did not reach the server or the server failed: `i18n._(id)`. */
export const MANAGE_FAILED_MESSAGE = /*i18n*/ 'manage.unreachable';
/** Catalogue id of the message on 404: the link is wrong or expired (a newer e-mail of the gift holds a newer one). */
export const MANAGE_LINK_INVALID_MESSAGE = /*i18n*/ 'manage.linkInvalid';

/**
 * A failed manage request's message in the page's language (issue #24): the page's own for a link that does not work
 * (404) or a request that never reached the server; else the server's, from its code (apiErrorMessage).
 */
export function failureText(i18n: I18n, outcome: ManageFailure): string {
  if (outcome.status === 404) return i18n._(MANAGE_LINK_INVALID_MESSAGE);
  if (outcome.message === MANAGE_FAILED_MESSAGE) return i18n._(MANAGE_FAILED_MESSAGE);
  return apiErrorMessage(i18n, outcome);
}

const planPath = (token: string) => MANAGE_PLAN_API_PATH.replace(':token', encodeURIComponent(token));

/** Reads an answer of the manage API into an outcome; never rejects. */
async function outcomeOf(request: Promise<Response>): Promise<ManageOutcome> {
  try {
    const response = await request;
    const body = (await response.json().catch(() => undefined)) as unknown;
    const plan = ManagedPlanAnswerSchema.safeParse(body);
    if (response.ok && plan.success) return { kind: 'plan', plan: plan.data.data };
    const error = body as { error?: string; code?: string; fieldErrors?: Record<string, string> } | undefined;
    const [field, message] = Object.entries(error?.fieldErrors ?? {})[0] ?? [];
    if (response.status === 400 && field && message) return { kind: 'invalid', field, message };
    if (response.status === 404) return { kind: 'failed', message: MANAGE_LINK_INVALID_MESSAGE, status: 404 };
    return { kind: 'failed', message: error?.error ?? MANAGE_FAILED_MESSAGE, status: response.status, code: error?.code };
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
 * SetupIntent for the plan's Customer, or the failure (see {@link failureText}) when the server refused or could not be reached.
 */
export async function startCardSetup(token: string): Promise<{ clientSecret: string } | ManageFailure> {
  try {
    const response = await apiFetch(MANAGE_CARD_SETUP_API_PATH.replace(':token', encodeURIComponent(token)), { method: 'POST', json: {} });
    const body = (await response.json().catch(() => undefined)) as unknown;
    const answer = CardSetupAnswerSchema.safeParse(body);
    if (response.ok && answer.success) return answer.data.data;
    const error = body as { error?: string; code?: string } | undefined;
    return { kind: 'failed', message: error?.error ?? MANAGE_FAILED_MESSAGE, status: response.status, code: error?.code };
  } catch {
    return { kind: 'failed', message: MANAGE_FAILED_MESSAGE, status: 0 };
  }
}
