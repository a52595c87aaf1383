import type { SiteConfig } from '../../../../shared/site-config';

/** The site config's payments in Stripe mode: the publishable key and the address of Stripe.js (issue #11). */
export type StripePayments = Extract<SiteConfig['payments'], { gateway: 'stripe' }>;

/** Message when Stripe.js cannot be loaded (offline, blocked), for the donor. */
export const STRIPE_JS_FAILED_MESSAGE = 'The secure card form could not be loaded. Please check your connection and reload the page.';
/** Message when the donor submits before Stripe's card fields are ready (Enter pressed while they load). */
export const STRIPE_NOT_READY_MESSAGE = 'The secure card form is still loading. Please try again in a moment.';
