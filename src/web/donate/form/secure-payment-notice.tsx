import LockIcon from '@mui/icons-material/Lock';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useTranslation } from '../../i18n/use-translation';

/** The notice that payment information is encrypted and secure (spec section 2), with a lock icon. */
export function SecurePaymentNotice() {
  const { i18n } = useTranslation();
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, color: 'text.secondary' }}>
      <LockIcon fontSize="small" aria-hidden sx={{ color: 'secondary.main' }} />
      <Typography variant="body2">{i18n._('form.securePayment')}</Typography>
    </Box>
  );
}
