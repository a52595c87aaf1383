import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import type { SxProps, Theme } from '@mui/material/styles';
import { PaymentElement } from '@stripe/react-stripe-js';
import { useState } from 'react';
import { STRIPE_JS_FAILED_MESSAGE } from './load-stripe-js';

/** Props of {@link StripePaymentField}. */
export interface StripePaymentFieldProps {
  sx?: SxProps<Theme>;
  /** Stripe.js could not be loaded: says so instead of the card fields. */
  loadFailed: boolean;
  /** Called with whether the card fields are completely and validly filled in. */
  onCompleteChange: (complete: boolean) => void;
}

/**
 * Payment Information in Stripe mode (issue #11): Stripe's Payment Element, whose card fields (labelled, with
 * their own errors) live in Stripe's iframe, so the site's page never sees the card. Until it is ready a
 * 'Loading secure card form...' status shows; if Stripe.js cannot be loaded, an error says so.
 */
export function StripePaymentField({ sx, loadFailed, onCompleteChange }: StripePaymentFieldProps) {
  const [ready, setReady] = useState(false);
  if (loadFailed) {
    return (
      <Alert severity="error" sx={sx}>
        {STRIPE_JS_FAILED_MESSAGE}
      </Alert>
    );
  }
  return (
    <Box sx={sx}>
      {!ready && (
        <Box role="status" sx={{ display: 'flex', alignItems: 'center', gap: 1.5, py: 2, color: 'text.secondary' }}>
          <CircularProgress size={20} aria-hidden />
          <Typography variant="body2">Loading secure card form...</Typography>
        </Box>
      )}
      <PaymentElement onReady={() => setReady(true)} onChange={(event) => onCompleteChange(event.complete)} />
    </Box>
  );
}
