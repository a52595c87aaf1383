import LockIcon from '@mui/icons-material/Lock';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';

/** The notice that payment information is encrypted and secure (spec section 2), with a lock icon. */
export function SecurePaymentNotice() {
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, color: 'text.secondary' }}>
      <LockIcon fontSize="small" aria-hidden sx={{ color: 'secondary.main' }} />
      <Typography variant="body2">Your payment information is encrypted and secure.</Typography>
    </Box>
  );
}
