import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Suspense, useState, type FormEvent } from 'react';
import { PageLoading } from '../../components/page-loading';
import { readCspNonce } from '../../emotion-cache';
import { StripeCheckoutProvider, useStripeAppearance } from '../form/stripe/lazy-stripe-checkout';
import type { StripeCheckout } from '../form/stripe/stripe-checkout';
import { StripePaymentField } from '../form/stripe/stripe-payment-field';
import { STRIPE_JS_FAILED_MESSAGE, STRIPE_NOT_READY_MESSAGE, type StripePayments } from '../form/stripe/stripe-payments';
import { failureText, startCardSetup, type RunChange } from './manage-api';
import { useTranslation } from '../../i18n/use-translation';

/** What the card form needs from the page: the plan's token, whether a change is under way, and how to post one. */
interface CardUpdateProps {
  token: string;
  busy: boolean;
  run: RunChange;
}

/**
 * The card form inside the Elements group: on submit, `elements.submit()` at once (Stripe shows its fields' errors),
 * then a SetupIntent from our server, `stripe.confirmSetup` (the card goes from the browser to Stripe only), then the
 * change `use_setup_intent` with its id, which the server checks with Stripe before saving the card.
 */
function CardSetupForm({ checkout, token, busy, run }: CardUpdateProps & { checkout: StripeCheckout }) {
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);
  const { i18n } = useTranslation();
  const save = async () => {
    const cardCheck = checkout.submitCard();
    if (!cardCheck) return setError(i18n._(checkout.loadFailed ? STRIPE_JS_FAILED_MESSAGE : STRIPE_NOT_READY_MESSAGE));
    if ((await cardCheck).error) return setError(undefined);
    const setup = await startCardSetup(token);
    if ('kind' in setup) return setError(failureText(i18n, setup));
    const confirmed = await checkout.confirmSetup(setup.clientSecret);
    if (confirmed.error) return setError(confirmed.error.message ?? i18n._('error.setup_intent_not_saved'));
    const fieldErrors = await run({ action: 'use_setup_intent', setupIntentId: confirmed.setupIntent.id }, i18n._('manage.card.done'));
    return setError(fieldErrors.setupIntentId);
  };
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSaving(true);
    void save().finally(() => setSaving(false));
  };
  return (
    <Stack component="form" noValidate onSubmit={submit} spacing={1.5} aria-labelledby="update-card">
      <Typography component="h2" variant="h6" id="update-card">
        {i18n._('manage.card.heading')}
      </Typography>
      <StripePaymentField checkout={checkout} />
      {error && (
        <Typography color="error" role="alert">
          {error}
        </Typography>
      )}
      <Button type="submit" variant="contained" disabled={busy || saving || !checkout.ready} sx={{ alignSelf: 'flex-start' }}>
        {i18n._('manage.card.button')}
      </Button>
    </Stack>
  );
}

/**
 * 'Update your card' in Stripe mode (issue #13): Stripe's Payment Element in a `mode: 'setup'` group (the form's
 * lazily loaded Stripe.js and chunk), whose card is saved on the plan's Stripe Customer for the next charges. Card
 * data never reaches our server (PCI DSS SAQ A).
 */
export function StripeCardUpdate({ payments, ...props }: CardUpdateProps & { payments: StripePayments }) {
  const [nonce] = useState(readCspNonce);
  const appearance = useStripeAppearance();
  return (
    <Suspense fallback={<PageLoading />}>
      <StripeCheckoutProvider payments={payments} nonce={nonce} intent={{ mode: 'setup' }} appearance={appearance}>
        {(checkout) => <CardSetupForm checkout={checkout} {...props} />}
      </StripeCheckoutProvider>
    </Suspense>
  );
}
