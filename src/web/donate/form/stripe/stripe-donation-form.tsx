import { zodResolver } from '@hookform/resolvers/zod';
import { useTheme } from '@mui/material/styles';
import { Elements, useElements, useStripe } from '@stripe/react-stripe-js';
import type { StripeElementsOptions, StripeError } from '@stripe/stripe-js';
import { useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { DONATION_FAILED_FALLBACK } from '../../../../shared/api';
import type { DonationSelection } from '../../../../shared/donation';
import { dollarsToCents } from '../../../../shared/money';
import { DonationRequestError } from '../../../api/donation-request';
import { confirmDonation, createPaymentIntent } from '../../../api/payment-intents';
import { PATHS } from '../../../paths';
import { DonationFormLayout, FULL_ROW } from '../donation-form-layout';
import { useDonationSubmit } from '../use-donation-submit';
import { DonorDetailsFormSchema, type DonorDetailsFormValues, EMPTY_DONOR_DETAILS_FORM, toCardlessSubmission } from './donor-details-form';
import { STRIPE_JS_FAILED_MESSAGE, type StripePayments } from './load-stripe-js';
import { createPaymentIntentAttempt } from './payment-intent-attempt';
import { StripePaymentField } from './stripe-payment-field';
import { useStripeJs } from './use-stripe-js';

/** Message when the donor submits before Stripe's card fields are ready (Enter pressed while they load). */
export const STRIPE_NOT_READY_MESSAGE = 'The secure card form is still loading. Please try again in a moment.';

/** Stripe.js errors after which the intent can be confirmed again with another card (Stripe: "Error types"). */
const RETRYABLE_ON_SAME_INTENT: ReadonlySet<StripeError['type']> = new Set(['card_error', 'validation_error']);

/** Where Stripe sends the donor back after a payment method that redirects (cards never do with `if_required`). */
const returnUrl = () => new URL(PATHS.donationForm, window.location.href).href;

/** What `start` gives `pay`: Stripe's check of its card fields, begun when the donor pressed the button. */
type CardCheck = ReturnType<NonNullable<ReturnType<typeof useElements>>['submit']> | undefined;

/**
 * The form inside Stripe's `<Elements>`: the donor's details validated as in test mode, and the Payment Element
 * in Payment Information. On submit (deferred intent creation, issue #11): `elements.submit()` at once (Stripe
 * shows its own fields' errors), then create-payment-intent with the donor's details, `stripe.confirmPayment`
 * (the card goes from the browser to Stripe; a decline is the snackbar 'Error: {Stripe's message}'), then
 * confirm-donation, which answers as process-donation does. A retry reuses the intent (see PaymentIntentAttempt).
 */
function StripeCheckoutForm({ selection, loadFailed }: { selection: DonationSelection; loadFailed: boolean }) {
  const stripe = useStripe();
  const elements = useElements();
  const [cardComplete, setCardComplete] = useState(false);
  const [intents] = useState(() => createPaymentIntentAttempt(createPaymentIntent));
  const form = useForm({
    resolver: zodResolver(DonorDetailsFormSchema),
    mode: 'onTouched',
    defaultValues: EMPTY_DONOR_DETAILS_FORM,
  });

  const pay = async (values: DonorDetailsFormValues, cardCheck: CardCheck, keyFor: (payload: unknown) => string) => {
    if (!stripe || !elements || !cardCheck) throw new Error(loadFailed ? STRIPE_JS_FAILED_MESSAGE : STRIPE_NOT_READY_MESSAGE);
    if ((await cardCheck).error) return undefined;
    const submission = toCardlessSubmission(selection, values);
    const { amount, ...donation } = submission;
    const current = await intents.intentFor({ amount, donation });
    const { paymentIntentId, clientSecret } = current.intent;
    if (!current.paid) {
      const { error } = await stripe.confirmPayment({ elements, clientSecret, confirmParams: { return_url: returnUrl() }, redirect: 'if_required' });
      if (error) {
        if (!RETRYABLE_ON_SAME_INTENT.has(error.type)) intents.abandon();
        throw new Error(error.message ?? DONATION_FAILED_FALLBACK);
      }
      intents.markPaid();
    }
    const body = { paymentIntentId, submission };
    try {
      const result = await confirmDonation(paymentIntentId, submission, keyFor(body));
      intents.abandon();
      return result;
    } catch (caught) {
      // NOTE: a paid intent is kept whatever else fails (a retry must never pay twice); a decline frees it.
      if (caught instanceof DonationRequestError && caught.status === 402) intents.markUnpaid();
      throw caught;
    }
  };

  const submit = useDonationSubmit({ form, emptyValues: EMPTY_DONOR_DETAILS_FORM, start: () => elements?.submit(), pay });
  const payment = (
    <StripePaymentField sx={FULL_ROW} loadFailed={loadFailed} onCompleteChange={setCardComplete} />
  );
  return (
    <DonationFormLayout form={form} amountDollars={selection.amount} payment={payment}
      paymentReady={stripe !== null && cardComplete} {...submit} />
  );
}

/**
 * The donation form in Stripe mode (issue #11): Stripe.js loaded from the deployment's `stripeJsUrl`, and the form
 * in an `<Elements>` group of deferred intent creation (`mode: 'payment'`, the gift's amount in cents, USD), styled
 * with the site's theme. Card data never reaches our server (PCI DSS SAQ A).
 */
export function StripeDonationForm({ selection, payments }: { selection: DonationSelection; payments: StripePayments }) {
  const { stripe, failed } = useStripeJs(payments);
  const theme = useTheme();
  const options = useMemo<StripeElementsOptions>(
    () => ({
      mode: 'payment',
      amount: dollarsToCents(selection.amount),
      currency: 'usd',
      appearance: {
        theme: 'stripe',
        variables: {
          colorPrimary: theme.palette.primary.main,
          colorDanger: theme.palette.error.main,
          colorText: theme.palette.text.primary,
          fontFamily: theme.typography.fontFamily,
          borderRadius: `${theme.shape.borderRadius}px`,
        },
      },
    }),
    [selection.amount, theme],
  );
  return (
    <Elements stripe={stripe} options={options}>
      <StripeCheckoutForm selection={selection} loadFailed={failed} />
    </Elements>
  );
}
