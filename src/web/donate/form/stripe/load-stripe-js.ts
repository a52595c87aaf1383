import type { Stripe } from '@stripe/stripe-js';
import { loadStripe } from '@stripe/stripe-js/pure';
import type { SiteConfig } from '../../../../shared/site-config';
import { readCspNonce } from '../../../emotion-cache';

/** The site config's payments in Stripe mode: the publishable key and the address of Stripe.js (issue #11). */
export type StripePayments = Extract<SiteConfig['payments'], { gateway: 'stripe' }>;

/** Message when Stripe.js cannot be loaded (offline, blocked), for the donor. */
export const STRIPE_JS_FAILED_MESSAGE = 'The secure card form could not be loaded. Please check your connection and reload the page.';

/**
 * Adds `<script src>` for Stripe.js to the page, with the page's CSP nonce (issue #4: scripts need it or an allowed
 * host), and resolves once it has run. A failed load removes the tag, so a later call can try again.
 */
function addStripeScript(src: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.async = true;
    const nonce = readCspNonce();
    if (nonce !== undefined) script.nonce = nonce;
    script.addEventListener('load', () => resolve(), { once: true });
    script.addEventListener('error', () => {
      script.remove();
      reject(new Error(STRIPE_JS_FAILED_MESSAGE));
    }, { once: true });
    document.head.append(script);
  });
}

let loading: Promise<Stripe> | undefined;

/**
 * Loads Stripe.js from `stripeJsUrl` (the deployment's, e.g. Stripe's own host, or the stand-in in tests) and returns
 * the Stripe instance of `publishableKey`, once per page. NOTE: `loadStripe` of `@stripe/stripe-js` only reuses
 * `window.Stripe` or a js.stripe.com script tag and would otherwise add its own; the `pure` entry adds nothing until
 * called, and by then `window.Stripe` is there. Rejects with {@link STRIPE_JS_FAILED_MESSAGE}; a later call retries.
 */
export function loadStripeJs({ publishableKey, stripeJsUrl }: StripePayments): Promise<Stripe> {
  loading ??= (window.Stripe ? Promise.resolve() : addStripeScript(stripeJsUrl))
    .then(() => loadStripe(publishableKey))
    .then((stripe) => {
      if (!stripe) throw new Error(STRIPE_JS_FAILED_MESSAGE);
      return stripe;
    })
    .catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
  return loading;
}
