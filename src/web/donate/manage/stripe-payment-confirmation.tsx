import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { formatDollars } from '../../../shared/money';
import type { PaymentToConfirm } from '../../../shared/recurring-api';
import { readCspNonce } from '../../emotion-cache';
import { STRIPE_JS_FAILED_MESSAGE, type StripePayments } from '../form/stripe/stripe-payments';
import { useStripeJs } from '../form/stripe/use-stripe-js';
import { formatPlanDate } from './plan-format';
import { useTranslation } from '../../i18n/use-translation';

/** Shown when Stripe.js answers an error without a message. */
const NOT_CONFIRMED_MESSAGE = /*i18n*/ 'manage.confirmPayment.notConfirmed';

/** What the confirmation needs from the page. */
interface StripePaymentConfirmationProps {
  payments: StripePayments;
  /** The renewal to confirm, as the manage API gave it (its client secret is never logged nor stored). */
  payment: PaymentToConfirm;
  /** A change of the page is under way. */
  busy: boolean;
  /** Tells the page Stripe.js confirmed the payment: it asks our server to record it (which checks with Stripe). */
  onConfirmed: () => Promise<void>;
}

/**
 * 'Confirm your payment' on the manage page (issue #13, Stripe mode; decision 0046): a renewal the donor's bank
 * declined off-session with `authentication_required` is confirmed on-session with Stripe.js, `stripe.confirmPayment`
 * with the intent's client secret and the saved card, Stripe showing the bank's 3-D Secure challenge
 * (https://docs.stripe.com/payments/save-and-reuse, "bring the customer back on-session"); then `onConfirmed`. Stripe's
 * refusal (authentication failed, card declined) is shown under the button, and the donor can try again.
 */
export function StripePaymentConfirmation({ payments, payment, busy, onConfirmed }: StripePaymentConfirmationProps) {
  const [nonce] = useState(readCspNonce);
  const { stripe, failed } = useStripeJs(payments, nonce);
  const [error, setError] = useState<string>();
  const [confirming, setConfirming] = useState(false);
  const { i18n, locale } = useTranslation();
  const amount = formatDollars(payment.amount, locale);

  const confirm = async () => {
    if (!stripe) return;
    setConfirming(true);
    setError(undefined);
    try {
      // NOTE: Stripe.js rejects (rather than answering an error) when it cannot reach Stripe: the donor may try again.
      const result = await stripe
        .confirmPayment({
          clientSecret: payment.clientSecret,
          confirmParams: { payment_method: payment.paymentMethodId, return_url: window.location.href },
          redirect: 'if_required',
        })
        .catch(() => ({ error: { message: i18n._(NOT_CONFIRMED_MESSAGE) } }));
      if (result.error) setError(result.error.message ?? i18n._(NOT_CONFIRMED_MESSAGE));
      else await onConfirmed();
    } finally {
      setConfirming(false);
    }
  };

  return (
    <Stack component="section" spacing={1.5} aria-labelledby="confirm-payment">
      <Typography component="h2" variant="h6" id="confirm-payment">
        {i18n._('manage.confirmPayment.heading')}
      </Typography>
      <Typography>
        {i18n._('manage.confirmPayment.text', { amount, date: formatPlanDate(payment.dueOn, locale) })}
      </Typography>
      {(error ?? failed) && (
        <Alert severity="error" role="alert">
          {error ?? i18n._(STRIPE_JS_FAILED_MESSAGE)}
        </Alert>
      )}
      <Button variant="contained" onClick={() => void confirm()} disabled={busy || confirming || !stripe} sx={{ alignSelf: 'flex-start' }}>
        {i18n._('manage.confirmPayment.button', { amount })}
      </Button>
    </Stack>
  );
}
