import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import type { SxProps, Theme } from '@mui/material/styles';
import type { StripeCheckout } from './stripe-checkout';
import { STRIPE_JS_FAILED_MESSAGE } from './stripe-payments';
import { useTranslation } from '../../../i18n/use-translation';

/** Props of {@link StripePaymentField}. */
export interface StripePaymentFieldProps {
  sx?: SxProps<Theme>;
  checkout: Pick<StripeCheckout, 'loadFailed' | 'ready' | 'paymentElement'>;
}

/**
 * Payment Information in Stripe mode (issue #11): Stripe's Payment Element, whose card fields (labelled, with
 * their own errors) live in Stripe's iframe, so the site's page never sees the card. Until it is ready a
 * 'Loading secure card form...' status shows; if Stripe.js cannot be loaded, an error says so.
 */
export function StripePaymentField({ sx, checkout: { loadFailed, ready, paymentElement } }: StripePaymentFieldProps) {
  const { i18n } = useTranslation();
  if (loadFailed) {
    return (
      <Alert severity="error" sx={sx}>
        {i18n._(STRIPE_JS_FAILED_MESSAGE)}
      </Alert>
    );
  }
  return (
    <Box sx={sx}>
      {!ready && (
        <Box role="status" sx={{ display: 'flex', alignItems: 'center', gap: 1.5, py: 2, color: 'text.secondary' }}>
          <CircularProgress size={20} aria-hidden />
          <Typography variant="body2">{i18n._('card.stripeLoading')}</Typography>
        </Box>
      )}
      {paymentElement}
    </Box>
  );
}
