import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { DonationResult } from '../../../shared/donation';
import { FREQUENCY_ADJECTIVES } from '../../../shared/frequencies';
import { formatDollars } from '../../../shared/money';
import { amountRows } from './fee-coverage-rows';

const nextChargeFormat = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

/**
 * The donation's details on the thank-you page (spec section 2): amount, donor name and
 * transaction ID, as a description list; a monthly or yearly gift also says so (`Recurring gift: $50 monthly`) and
 * when its next charge is (issue #13); a gift whose donor covered the fee shows gift, fee and total (issue #23).
 */
export function DonationReceipt({ result }: { result: DonationResult }) {
  const { recurring } = result;
  const rows = [
    ...amountRows(result),
    ...(recurring
      ? [
          { term: 'Recurring gift', value: `${formatDollars(result.amount)} ${FREQUENCY_ADJECTIVES[recurring.frequency]}` },
          { term: 'Next charge', value: nextChargeFormat.format(new Date(`${recurring.nextChargeOn}T00:00:00Z`)) },
        ]
      : []),
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
