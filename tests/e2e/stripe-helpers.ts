import type { Frame, Page } from '@playwright/test';
import type { TestDatabase } from '../../src/server/testing/test-database';
import type { StripeApiStandIn } from '../stand-ins/stripe-api/index.js';
import { ownServerEnv } from './e2e-env';

/** What the site in Stripe mode needs in a browser story (issue #11; the embed's Stripe story, issue #35). */

/** The webhook signing secret the stories' servers and the Stripe stand-in share. */
export const WEBHOOK_SECRET = 'whsec_e2e_stripe_mode_0000000000000000';
/** The card fields' iframe of the Payment Element (the stand-in's title, as Stripe's). */
export const CARD_FRAME = 'iframe[title="Secure payment input frame"]';
/** An expiry in the future as the Payment Element takes it: MM / YY of December next year. */
export const STRIPE_FUTURE_EXPIRY = `12 / ${String((new Date().getFullYear() + 1) % 100).padStart(2, '0')}`;

/** The environment of the site's server in Stripe mode on `stripeApi` and `database`, keeping its e-mails in `dataDir`. */
export function stripeServerEnv(stripeApi: StripeApiStandIn, dataDir: string, database: TestDatabase): Record<string, string> {
  return {
    ...ownServerEnv(dataDir, database.url),
    PAYMENT_GATEWAY: 'stripe',
    STRIPE_SECRET_KEY: stripeApi.secretKey,
    STRIPE_PUBLISHABLE_KEY: stripeApi.publishableKey,
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_URL: stripeApi.url,
    STRIPE_JS_URL: stripeApi.stripeJsUrl,
  };
}

/**
 * Types a card into the Payment Element's iframe (number, expiry, security code), replacing what was there. `target` is
 * the page, or the frame holding the form (the donation form inside `<reef-donate>`'s frame).
 */
export async function typeCard(target: Page | Frame, cardNumber: string): Promise<void> {
  const card = target.frameLocator(CARD_FRAME);
  await card.getByLabel('Card number').fill('');
  await card.getByLabel('Card number').pressSequentially(cardNumber);
  await card.getByLabel('Expiration date').fill('');
  await card.getByLabel('Expiration date').pressSequentially(STRIPE_FUTURE_EXPIRY);
  await card.getByLabel('Security code').fill('');
  await card.getByLabel('Security code').pressSequentially('123');
}
