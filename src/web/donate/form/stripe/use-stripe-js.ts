import type { Stripe } from '@stripe/stripe-js';
import { useEffect, useState } from 'react';
import { loadStripeJs, type StripePayments } from './load-stripe-js';

/** Stripe.js as the form sees it: the Stripe instance once loaded, and whether loading failed. */
export interface StripeJsState {
  stripe: Stripe | null;
  failed: boolean;
}

/**
 * Loads Stripe.js when the Stripe-mode form mounts (see loadStripeJs) and returns `{stripe, failed}`: `stripe` is
 * null until it has loaded, then the instance for `<Elements stripe>` (which accepts one change from null).
 */
export function useStripeJs(payments: StripePayments): StripeJsState {
  const [state, setState] = useState<StripeJsState>({ stripe: null, failed: false });
  useEffect(() => {
    let mounted = true;
    loadStripeJs(payments).then(
      (stripe) => mounted && setState({ stripe, failed: false }),
      () => mounted && setState({ stripe: null, failed: true }),
    );
    return () => {
      mounted = false;
    };
  }, [payments]);
  return state;
}
