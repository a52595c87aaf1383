import { useTheme } from '@mui/material/styles';
import type { Appearance } from '@stripe/stripe-js';
import { lazy, useMemo } from 'react';

// NOTE: Stripe's libraries (and Stripe.js, which they load) come only with this lazy chunk, only in Stripe mode, so
// test mode and the landing screen never fetch them (issue #11; the 150 kB budget of decision 0020).
/** {@link StripeCheckoutProvider} of ./stripe-checkout, loaded lazily: the donation form's and the manage page's (issue #13). */
export const StripeCheckoutProvider = lazy(() => import('./stripe-checkout').then((module) => ({ default: module.StripeCheckoutProvider })));

/** Stripe's Appearance API (https://docs.stripe.com/elements/appearance-api) from the site's MUI theme: colours, font, corners. */
export function useStripeAppearance(): Appearance {
  const { palette, typography, shape } = useTheme();
  return useMemo(
    () => ({
      theme: 'stripe' as const,
      variables: {
        colorPrimary: palette.primary.main,
        colorDanger: palette.error.main,
        colorText: palette.text.primary,
        fontFamily: typography.fontFamily,
        borderRadius: `${shape.borderRadius}px`,
      },
    }),
    [palette, typography, shape],
  );
}
