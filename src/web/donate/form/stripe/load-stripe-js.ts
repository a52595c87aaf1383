import type { Stripe } from '@stripe/stripe-js';
import { loadStripe } from '@stripe/stripe-js/pure';
import type { StripePayments } from './stripe-payments';

/**
 * Adds `<script src>` for Stripe.js to the page, with the page's CSP `nonce` when there is one (issue #4), and
 * resolves once it has run. A failed load removes the tag, so a later call can try again.
 */
function addStripeScript(src: string, nonce: string | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.async = true;
    if (nonce !== undefined) script.nonce = nonce;
    script.addEventListener('load', () => resolve(), { once: true });
    script.addEventListener('error', () => {
      script.remove();
      reject(new Error(`Stripe.js could not be loaded from ${src}`));
    }, { once: true });
    document.head.append(script);
  });
}

let loading: Promise<Stripe> | undefined;

/**
 * Loads Stripe.js from `stripeJsUrl` (Stripe's own host, or the stand-in in tests) and returns the Stripe instance of
 * `publishableKey`, once per page. NOTE: `loadStripe` of `@stripe/stripe-js` only reuses `window.Stripe` or a
 * js.stripe.com script tag, and would otherwise add its own; the `pure` entry adds nothing until called, and by then
 * `window.Stripe` is there. A failure rejects, and a later call tries again.
 */
export function loadStripeJs({ publishableKey, stripeJsUrl }: StripePayments, nonce: string | undefined): Promise<Stripe> {
  loading ??= (window.Stripe ? Promise.resolve() : addStripeScript(stripeJsUrl, nonce))
    .then(() => loadStripe(publishableKey))
    .then((stripe) => {
      if (!stripe) throw new Error('Stripe.js is not available');
      return stripe;
    })
    .catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
  return loading;
}
