import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import { causeIcon, causeName } from '../../../shared/causes';
import type { DonationSelection } from '../../../shared/donation';
import { amountWithFrequency } from '../../../shared/frequencies';
import { formatDollars } from '../../../shared/money';
import { CauseIcon } from '../../components/cause-icon';
import { PATHS } from '../../../shared/site-paths';
import { AppAnchor } from '../../components/app-anchor';
import { useLocalizedPath, useTranslation } from '../../i18n/use-translation';

/**
 * The donation form's summary (spec section 2): the amount with its frequency, the cause with its
 * icon, and a link back to /donate to change them.
 */
export function DonationSummary({ selection }: { selection: DonationSelection }) {
  const { i18n, locale } = useTranslation();
  const to = useLocalizedPath();
  return (
    <Box
      component="section"
      aria-label={i18n._('form.summary.ariaLabel')}
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
          {i18n._('form.summary.heading')}
        </Typography>
        <Typography sx={{ fontSize: '1.5rem', fontWeight: 700, color: 'primary.main' }}>
          {amountWithFrequency(i18n, formatDollars(selection.amount, locale), selection.frequency)}
        </Typography>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mt: 0.5 }}>
          <CauseIcon name={causeIcon(selection.cause)} color="primary" fontSize="small" />
          <Typography>{causeName(i18n, selection.cause)}</Typography>
        </Box>
      </Box>
      <Link component={AppAnchor} to={to(PATHS.donate)} sx={{ fontWeight: 600, py: 1 }}>
        {i18n._('form.summary.change')}
      </Link>
    </Box>
  );
}
