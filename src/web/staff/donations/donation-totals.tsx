import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { StaffDonationTotals } from '../../../shared/staff/donations-api';
import { formatCents } from '../components/format';

/**
 * The totals of the filtered set above the table (issue #21): how many donations, their gross, what was refunded of
 * them, what is held in disputes, and the net (what the charity keeps), so refunds are never hidden in the totals. A
 * description list, read in order.
 */
export function DonationTotals({ totals }: { totals: StaffDonationTotals }) {
  const items = [
    ['Donations', totals.count.toLocaleString('en-US')],
    ['Gross', formatCents(totals.grossCents)],
    ['Refunded', formatCents(totals.refundedCents)],
    ['Disputed', formatCents(totals.disputedCents)],
    ['Net', formatCents(totals.netCents)],
  ];
  return (
    <Box component="dl" sx={{ display: 'flex', flexWrap: 'wrap', gap: { xs: 2, sm: 4 }, m: 0, mb: 2 }}>
      {items.map(([label, value]) => (
        <div key={label}>
          <Typography component="dt" variant="body2">
            {label}
          </Typography>
          <Typography component="dd" sx={{ m: 0, fontSize: '1.25rem', fontWeight: 700 }}>
            {value}
          </Typography>
        </div>
      ))}
    </Box>
  );
}
