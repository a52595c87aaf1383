import { zodResolver } from '@hookform/resolvers/zod';
import { Suspense, useState } from 'react';
import { useForm } from 'react-hook-form';
import { DONATION_FAILED_FALLBACK } from '../../../../shared/api';
import type { DonationSelection } from '../../../../shared/donation';
import { dollarsToCents } from '../../../../shared/money';
import { DonationRequestError } from '../../../api/donation-request';
import { confirmDonation, createPaymentIntent } from '../../../api/payment-intents';
import { PageLoading } from '../../../components/page-loading';
import { readCspNonce } from '../../../emotion-cache';
import { PATHS } from '../../../../shared/site-paths';
import { DonationFormLayout, FULL_ROW } from '../donation-form-layout';
import { feeCoverageCharge } from '../fee-coverage-charge';
import { rememberedCampaign } from '../../../state/campaign-memory';
import { useDonationSubmit } from '../use-donation-submit';
import { DonorDetailsFormSchema, type DonorDetailsFormValues, EMPTY_DONOR_DETAILS_FORM, toCardlessSubmission } from './donor-details-form';
import { StripeCheckoutProvider, useStripeAppearance } from './lazy-stripe-checkout';
import { createPaymentIntentAttempt } from './payment-intent-attempt';
import type { StripeCheckout } from './stripe-checkout';
import { StripePaymentField } from './stripe-payment-field';
import { useTranslation } from '../../../i18n/use-translation';
import { isEmbeddedPage } from '../../../embed/frame/embed-path';
import { EMBED_PATH_PREFIX } from '../../../../shared/embed-path-prefix';
import { STRIPE_JS_FAILED_MESSAGE, STRIPE_NOT_READY_MESSAGE, type StripePayments } from './stripe-payments';

/** Stripe.js errors after which the intent can be confirmed again with another card (Stripe: "Error types"). */
const RETRYABLE_ON_SAME_INTENT: ReadonlySet<string> = new Set(['card_error', 'validation_error']);

/** Where Stripe sends the donor back after a payment method that redirects (cards never do with `if_required`). */
// NOTE: inside the frame (issue #35) back to the framed form, which may be framed; the site's own form may not.
const returnUrl = () => new URL(`${isEmbeddedPage() ? EMBED_PATH_PREFIX : ''}${PATHS.donationForm}`, window.location.href).href;

/**
 * The form inside Stripe's `<Elements>`: the donor's details validated as in test mode, and the Payment Element
 * in Payment Information. On submit (deferred intent creation, issue #11): `elements.submit()` at once (Stripe
 * shows its own fields' errors), then create-payment-intent with the donor's details, `stripe.confirmPayment`
 * (the card goes from the browser to Stripe; a decline is the snackbar 'Error: {Stripe's message}'), then
 * confirm-donation, which answers as process-donation does. A retry reuses the intent (see PaymentIntentAttempt).
 */
function StripeCheckoutForm({ selection, checkout, coverFee }: { selection: DonationSelection; checkout: StripeCheckout; coverFee: boolean }) {
  const [intents] = useState(() => createPaymentIntentAttempt(createPaymentIntent));
  const { i18n, locale } = useTranslation();
  const form = useForm({
    resolver: zodResolver(DonorDetailsFormSchema),
    mode: 'onTouched',
    defaultValues: EMPTY_DONOR_DETAILS_FORM,
  });

  const pay = async (values: DonorDetailsFormValues, cardCheck: ReturnType<StripeCheckout['submitCard']>, keyFor: (payload: unknown) => string) => {
    if (!cardCheck) throw new Error(i18n._(checkout.loadFailed ? STRIPE_JS_FAILED_MESSAGE : STRIPE_NOT_READY_MESSAGE));
    if ((await cardCheck).error) return undefined;
    const submission = toCardlessSubmission(selection, values, { coverFee, campaign: rememberedCampaign(), locale });
    const { amount, coverFee: coversFee, ...donation } = submission;
    const current = await intents.intentFor({ amount, coverFee: coversFee, donation });
    const { paymentIntentId, clientSecret } = current.intent;
    if (!current.paid) {
      const { error } = await checkout.confirmPayment(clientSecret, returnUrl());
      if (error) {
        if (!RETRYABLE_ON_SAME_INTENT.has(error.type)) intents.abandon();
        throw new Error(error.message ?? DONATION_FAILED_FALLBACK);
      }
      intents.markPaid();
    }
    try {
      const result = await confirmDonation(paymentIntentId, submission, keyFor({ paymentIntentId, submission }));
      intents.abandon();
      return result;
    } catch (caught) {
      // NOTE: a paid intent is kept whatever else fails (a retry must never pay twice); a decline frees it.
      if (caught instanceof DonationRequestError && caught.status === 402) intents.markUnpaid();
      throw caught;
    }
  };

  const submit = useDonationSubmit({ form, emptyValues: EMPTY_DONOR_DETAILS_FORM, start: checkout.submitCard, pay });
  return (
    <DonationFormLayout form={form} amountDollars={feeCoverageCharge(selection.amount, coverFee).totalDollars} payment={<StripePaymentField sx={FULL_ROW} checkout={checkout} />}
      paymentReady={checkout.complete} {...submit} />
  );
}

/**
 * The donation form in Stripe mode (issue #11): Stripe.js loaded from the deployment's `stripeJsUrl` (with the page's
 * CSP nonce), Stripe's Payment Element styled with the site's theme, and {@link StripeCheckoutForm}. Card data
 * never reaches our server (PCI DSS SAQ A). The Elements group's amount is the total, with the fee when `coverFee` (issue #23).
 */
export function StripeDonationForm({ selection, payments, coverFee }: { selection: DonationSelection; payments: StripePayments; coverFee: boolean }) {
  const [nonce] = useState(readCspNonce);
  const appearance = useStripeAppearance();
  return (
    <Suspense fallback={<PageLoading />}>
      <StripeCheckoutProvider
        payments={payments}
        nonce={nonce}
        intent={{ mode: 'payment', amountCents: dollarsToCents(feeCoverageCharge(selection.amount, coverFee).totalDollars), recurring: selection.frequency !== 'one-time' }}
        appearance={appearance}
      >
        {(checkout) => <StripeCheckoutForm selection={selection} checkout={checkout} coverFee={coverFee} />}
      </StripeCheckoutProvider>
    </Suspense>
  );
}
