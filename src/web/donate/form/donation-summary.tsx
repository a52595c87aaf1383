import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { describeCause } from '../../../shared/causes';
import type { DonationSelection } from '../../../shared/donation';
import { FREQUENCY_ADJECTIVES, type Frequency } from '../../../shared/frequencies';
import { formatDollars } from '../../../shared/money';
import { CauseIcon } from '../../components/cause-icon';
import { PATHS } from '../../../shared/site-paths';
import { AppAnchor } from '../../components/app-anchor';

/**
 * The gift as the summary words it: '$25 monthly', '$25 yearly', '$25 one-time'. The shared
 * adjectives leave one-time gifts unnamed (for the impact banner), so the summary names them itself.
 */
export function summaryAmountText(amountDollars: number, frequency: Frequency): string {
  return `${formatDollars(amountDollars)} ${FREQUENCY_ADJECTIVES[frequency] || 'one-time'}`;
}

/**
 * The donation form's summary (spec section 2): the amount with its frequency, the cause with its
 * icon, and a link back to /donate to change them.
 */
export function DonationSummary({ selection }: { selection: DonationSelection }) {
  const cause = describeCause(selection.cause);
  return (
    <Box
      component="section"
      aria-label="Donation summary"
      sx={{
        display: 'flex',
        flexWrap: 'wrap',
        alignItems: 'center',
        justifyContent: 'space-between',
        gap: 2,
        p: 2,
        borderRadius: 2,
        bgcolor: '#e3f2fd',
        border: '1px solid #90caf9',
      }}
    >
      <Box sx={{ minWidth: 0 }}>
        <Typography variant="body2" color="text.secondary">
          Your donation
        </Typography>
        <Typography sx={{ fontSize: '1.5rem', fontWeight: 700, color: 'primary.main' }}>
          {summaryAmountText(selection.amount, selection.frequency)}
        </Typography>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mt: 0.5 }}>
          <CauseIcon name={cause.icon} color="primary" fontSize="small" />
          <Typography>{cause.displayName}</Typography>
        </Box>
      </Box>
      <Link component={AppAnchor} to={PATHS.donate} sx={{ fontWeight: 600, py: 1 }}>
        Change donation
      </Link>
    </Box>
  );
}
