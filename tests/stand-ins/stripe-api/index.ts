/** The Stripe API stand-in: start it with `startStripeApiStandIn`; see server.ts for the controls. */
export { startStripeApiStandIn, type HeldRequests, type InjectedFailure, type LoggedRequest, type StripeApiStandIn, type StripeApiStandInOptions } from './server.js';
export { DECLINES, TEST_PAYMENT_METHODS } from './cards.js';
export type { WebhookDelivery, WebhookEndpoint } from './webhooks.js';
