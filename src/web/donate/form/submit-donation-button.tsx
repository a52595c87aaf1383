import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import { formatDollars } from '../../../shared/money';
import { visuallyHidden } from '../../components/visually-hidden';
import { useTranslation } from '../../i18n/use-translation';

/** Props of {@link SubmitDonationButton}. */
export interface SubmitDonationButtonProps {
  amountDollars: number;
  loading: boolean;
  /** False while the form holds an invalid value (spec section 2: disabled when invalid). */
  formValid: boolean;
}

/**
 * The form's submit button (spec section 2): 'Complete Donation of $25', or 'Processing Payment...'
 * with a spinner while the donation is sent; disabled when the form is invalid or loading. A hidden
 * polite live region (role status) says 'Processing Payment...' meanwhile, so screen readers hear the
 * processing state even though the disabled button has lost focus.
 */
export function SubmitDonationButton({ amountDollars, loading, formValid }: SubmitDonationButtonProps) {
  const { i18n, locale } = useTranslation();
  const processing = i18n._('form.processing');
  return (
    <Box>
      <Box role="status" sx={visuallyHidden}>
        {loading ? processing : ''}
      </Box>
      <Button
        type="submit"
        variant="contained"
        size="large"
        fullWidth
        disabled={loading || !formValid}
        startIcon={loading ? <CircularProgress size={20} color="inherit" aria-hidden /> : undefined}
        sx={{ py: 1.5, fontSize: '1.0625rem' }}
      >
        {loading ? processing : i18n._('form.submit', { amount: formatDollars(amountDollars, locale) })}
      </Button>
    </Box>
  );
}
