import type { SiteConfig } from '../../../../shared/site-config';

/** The site config's payments in Stripe mode: the publishable key and the address of Stripe.js (issue #11). */
export type StripePayments = Extract<SiteConfig['payments'], { gateway: 'stripe' }>;

/** Catalogue id of the message when Stripe.js cannot be loaded (offline, blocked), for the donor: `i18n._(id)`. */
export const STRIPE_JS_FAILED_MESSAGE = /*i18n*/ 'card.stripeLoadFailed';
/** Catalogue id of the message when the donor submits before Stripe's card fields are ready (Enter pressed while they load). */
export const STRIPE_NOT_READY_MESSAGE = /*i18n*/ 'card.stripeNotReady';
