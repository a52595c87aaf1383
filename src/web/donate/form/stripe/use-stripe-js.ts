import type { Stripe } from '@stripe/stripe-js';
import { useEffect, useState } from 'react';
import { loadStripeJs } from './load-stripe-js';
import type { StripePayments } from './stripe-payments';

/** Stripe.js as the form sees it: the Stripe instance once loaded, and whether loading failed. */
export interface StripeJsState {
  stripe: Stripe | null;
  failed: boolean;
}

/**
 * Loads Stripe.js when the Stripe-mode form mounts (see loadStripeJs; `nonce` is the page's CSP nonce) and returns
 * `{stripe, failed}`: `stripe` is null until it has loaded, then the instance for `<Elements stripe>` (which
 * accepts one change from null).
 */
export function useStripeJs(payments: StripePayments, nonce: string | undefined): StripeJsState {
  const [state, setState] = useState<StripeJsState>({ stripe: null, failed: false });
  useEffect(() => {
    let mounted = true;
    loadStripeJs(payments, nonce).then(
      (stripe) => mounted && setState({ stripe, failed: false }),
      () => mounted && setState({ stripe: null, failed: true }),
    );
    return () => {
      mounted = false;
    };
  }, [payments, nonce]);
  return state;
}
