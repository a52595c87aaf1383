import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import type { SetupIntentResult, StripeElementsOptions, StripeError } from '@stripe/stripe-js';
import { type ReactNode, useMemo, useState } from 'react';
import type { StripePayments } from './stripe-payments';
import { useStripeJs } from './use-stripe-js';
import { useTranslation } from '../../../i18n/use-translation';

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
  /**
   * `stripe.confirmSetup` of the SetupIntent of `clientSecret` with the Payment Element's card (a `mode: 'setup'`
   * group; issue #13), staying on the page. Resolves `{setupIntent}`, or `{error}` for a card Stripe refused. Throws
   * before Stripe.js has loaded.
   */
  confirmSetup(clientSecret: string): Promise<SetupIntentResult>;
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
    confirmSetup: (clientSecret) => {
      if (!stripe || !elements) throw new Error('Stripe.js is not loaded');
      return stripe.confirmSetup({ elements, clientSecret, redirect: 'if_required' });
    },
  };
  return children(checkout);
}

/**
 * What the Elements group will confirm (deferred intent creation): a payment of `amountCents` (the gift in cents; with
 * `recurring`, a monthly or yearly gift, the card is saved for renewals, `setupFutureUsage: 'off_session'`, as the
 * server's payment intent says, issue #13: Stripe.js refuses a confirm when the two differ), or a SetupIntent that
 * saves a donor's new card for off-session renewals (the manage page).
 */
export type StripeElementsIntent = { mode: 'payment'; amountCents: number; recurring: boolean } | { mode: 'setup' };

/** Props of {@link StripeCheckoutProvider}. */
export interface StripeCheckoutProviderProps {
  payments: StripePayments;
  /** The page's CSP nonce, for Stripe.js's script tag. */
  nonce: string | undefined;
  intent: StripeElementsIntent;
  /** Stripe's Appearance API, from the site's theme. */
  appearance: StripeElementsOptions['appearance'];
  children: (checkout: StripeCheckout) => ReactNode;
}

/**
 * Loads Stripe.js from the deployment's `stripeJsUrl` and renders `children` inside an `<Elements>` group of deferred
 * intent creation (Stripe: "Collect payment details before creating an Intent"), USD: `mode: 'payment'` with the
 * amount in cents and the card saved for renewals of a recurring gift, or `mode: 'setup'` for off-session use. Hands
 * `children` the {@link StripeCheckout}. Stripe's own fields and messages (declines) speak the page's language
 * (Elements' `locale`, issue #24).
 */
export function StripeCheckoutProvider({ payments, nonce, intent, appearance, children }: StripeCheckoutProviderProps) {
  const { stripe, failed } = useStripeJs(payments, nonce);
  const { locale } = useTranslation();
  const amountCents = intent.mode === 'payment' ? intent.amountCents : undefined;
  const savesCard = intent.mode === 'setup' || intent.recurring;
  const options = useMemo<StripeElementsOptions>(
    () => ({
      ...(amountCents === undefined ? { mode: 'setup' as const } : { mode: 'payment' as const, amount: amountCents }),
      currency: 'usd',
      appearance,
      locale,
      ...(savesCard ? { setupFutureUsage: 'off_session' as const } : {}),
    }),
    [amountCents, savesCard, appearance, locale],
  );
  return (
    <Elements stripe={stripe} options={options}>
      <CheckoutBridge loadFailed={failed}>{children}</CheckoutBridge>
    </Elements>
  );
}
