import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { DonationResult } from '../../../shared/donation';
import { formatDollars } from '../../../shared/money';

/**
 * The donation's details on the thank-you page (spec section 2): amount, donor name and
 * transaction ID, as a description list.
 */
export function DonationReceipt({ result }: { result: DonationResult }) {
  const rows = [
    { term: 'Amount', value: formatDollars(result.amount) },
    { term: 'Donor', value: result.donorName },
    { term: 'Transaction ID', value: result.transactionId },
  ];
  return (
    <Box
      component="dl"
      sx={{
        m: 0,
        p: 2,
        borderRadius: 2,
        bgcolor: 'background.default',
        display: 'grid',
        gridTemplateColumns: { xs: '1fr', sm: 'max-content minmax(0, 1fr)' },
        columnGap: 3,
        rowGap: { xs: 0.25, sm: 1 },
      }}
    >
      {rows.map((row) => (
        <Box key={row.term} sx={{ display: 'contents' }}>
          <Typography component="dt" color="text.secondary" sx={{ mt: { xs: 1, sm: 0 } }}>
            {row.term}
          </Typography>
          <Typography component="dd" sx={{ m: 0, fontWeight: 600, overflowWrap: 'anywhere' }}>
            {row.value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}
