import { asc } from 'drizzle-orm';
import { expect } from 'vitest';
import { MANAGE_CARD_SETUP_API_PATH, MANAGE_PLAN_API_PATH } from '../../src/shared/recurring';
import { CardSetupAnswerSchema } from '../../src/shared/recurring-api';
import { recurringPlans, type RecurringPlanRow } from '../../src/server/db/schema';
import type { Clock } from '../../src/server/platform/clock';
import { createManageLinkSigner } from '../../src/server/recurring/manage-link';
import type { TestApp } from '../../src/server/testing/test-app';
import type { StripeApiStandIn } from '../stand-ins/stripe-api/index.js';
import type { StripeModeApp } from './stripe-mode';

/**
 * What the Stripe-mode tests of recurring gifts share (issue #13): the plan of a test, its manage link, and what the
 * manage page does with Stripe.js for a new card (a SetupIntent confirmed in the browser, then posted by id).
 */

/** The first plan of the test's database (each test makes one). */
export async function firstPlan(t: TestApp): Promise<RecurringPlanRow | undefined> {
  return (await t.db.select().from(recurringPlans).orderBy(asc(recurringPlans.createdAt)))[0];
}

/** The manage token of the test's plan, signed at `clock`'s now with the app's key. */
export async function manageTokenOf(t: TestApp, clock: Clock): Promise<string> {
  return createManageLinkSigner(t.config.cookieSecret).sign((await firstPlan(t))?.id ?? '', clock.now());
}

/** The manage API path of `token`. */
export const managePlanPath = (token: string) => MANAGE_PLAN_API_PATH.replace(':token', token);

/** The card fields Stripe.js's Payment Element sends with a confirm of `number`, with the publishable key and `clientSecret`. */
export function browserCard(standIn: StripeApiStandIn, number: string, clientSecret: string): URLSearchParams {
  return new URLSearchParams({
    key: standIn.publishableKey,
    client_secret: clientSecret,
    'payment_method_data[type]': 'card',
    'payment_method_data[card][number]': number,
    'payment_method_data[card][exp_month]': '11',
    'payment_method_data[card][exp_year]': String(new Date().getFullYear() + 3),
    'payment_method_data[card][cvc]': '123',
  });
}

/**
 * What the manage page does for a new card in Stripe mode: asks our server for a SetupIntent, confirms it in the
 * browser with `number` (straight to the stand-in), and posts its id. Resolves with the stand-in's answer to the
 * confirmation and our server's answer to the change.
 */
export async function updateCardOnPage(app: StripeModeApp, token: string, number: string) {
  const setup = await app.post(MANAGE_CARD_SETUP_API_PATH.replace(':token', token), {});
  expect(setup.statusCode).toBe(200);
  const { clientSecret } = CardSetupAnswerSchema.parse(setup.json()).data;
  const setupIntentId = clientSecret.split('_secret_')[0] ?? '';
  const confirmed = await fetch(`${app.standIn.url}/v1/setup_intents/${setupIntentId}/confirm`, { method: 'POST', body: browserCard(app.standIn, number, clientSecret) });
  return { confirmed, answer: await app.post(managePlanPath(token), { action: 'use_setup_intent', setupIntentId }) };
}
