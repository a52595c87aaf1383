import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import type { StripeElementsOptions, StripeError } from '@stripe/stripe-js';
import { type ReactNode, useMemo, useState } from 'react';
import type { StripePayments } from './stripe-payments';
import { useStripeJs } from './use-stripe-js';

// NOTE: this module and what it imports are the Stripe-mode chunk: Stripe's libraries and React only. Anything the
// landing screen also loads (MUI, the router...) imported from here would split /donate's chunks and cost the
// 150 kB budget (decision 0020) ~2 kB, so the form and its MUI parts stay in the form's chunk.

/** What the Stripe-mode form uses of Stripe.js inside `<Elements>` (issue #11). */
export interface StripeCheckout {
  /** Stripe.js could not be loaded. */
  loadFailed: boolean;
  /** The Payment Element has rendered its card fields. */
  ready: boolean;
  /** Stripe.js is loaded and the card fields are completely and validly filled in. */
  complete: boolean;
  /** The Payment Element, to place in Payment Information. */
  paymentElement: ReactNode;
  /**
   * `elements.submit()`: checks the card fields (Stripe shows their errors) and must run as soon as the donor
   * presses pay, before any other asynchronous work. Undefined before Stripe.js has loaded.
   */
  submitCard(): Promise<{ error?: StripeError }> | undefined;
  /**
   * `stripe.confirmPayment` of the intent of `clientSecret` with the Payment Element's card, staying on the page
   * unless the payment method must redirect (to `returnUrl`). Resolves `{error}` on a decline. Throws before
   * Stripe.js has loaded.
   */
  confirmPayment(clientSecret: string, returnUrl: string): Promise<{ error?: StripeError }>;
}

/** Gives `children` the {@link StripeCheckout} of the surrounding `<Elements>`. */
function CheckoutBridge({ loadFailed, children }: { loadFailed: boolean; children: (checkout: StripeCheckout) => ReactNode }) {
  const stripe = useStripe();
  const elements = useElements();
  const [ready, setReady] = useState(false);
  const [cardComplete, setCardComplete] = useState(false);
  const checkout: StripeCheckout = {
    loadFailed,
    ready,
    complete: stripe !== null && cardComplete,
    paymentElement: <PaymentElement onReady={() => setReady(true)} onChange={(event) => setCardComplete(event.complete)} />,
    submitCard: () => elements?.submit(),
    confirmPayment: (clientSecret, returnUrl) => {
      if (!stripe || !elements) throw new Error('Stripe.js is not loaded');
      return stripe.confirmPayment({ elements, clientSecret, confirmParams: { return_url: returnUrl }, redirect: 'if_required' });
    },
  };
  return children(checkout);
}

/** Props of {@link StripeCheckoutProvider}. */
export interface StripeCheckoutProviderProps {
  payments: StripePayments;
  /** The page's CSP nonce, for Stripe.js's script tag. */
  nonce: string | undefined;
  /** The gift in cents (deferred intent creation: the Elements group's amount). */
  amountCents: number;
  /**
   * True for a monthly or yearly gift: the card is saved for renewals (`setupFutureUsage: 'off_session'`), as the
   * server's payment intent says (issue #13); Stripe.js refuses a confirm when the two differ.
   */
  recurring: boolean;
  /** Stripe's Appearance API, from the site's theme. */
  appearance: StripeElementsOptions['appearance'];
  children: (checkout: StripeCheckout) => ReactNode;
}

/**
 * Loads Stripe.js from the deployment's `stripeJsUrl` and renders `children` inside an `<Elements>` group of deferred
 * intent creation (`mode: 'payment'`, the amount in cents, USD, and the card saved for renewals of a recurring gift;
 * Stripe: "Collect payment details before creating an Intent"), handing them the {@link StripeCheckout}.
 */
export function StripeCheckoutProvider({ payments, nonce, amountCents, recurring, appearance, children }: StripeCheckoutProviderProps) {
  const { stripe, failed } = useStripeJs(payments, nonce);
  const options = useMemo<StripeElementsOptions>(
    () => ({ mode: 'payment', amount: amountCents, currency: 'usd', appearance, ...(recurring ? { setupFutureUsage: 'off_session' as const } : {}) }),
    [amountCents, recurring, appearance],
  );
  return (
    <Elements stripe={stripe} options={options}>
      <CheckoutBridge loadFailed={failed}>{children}</CheckoutBridge>
    </Elements>
  );
}
