import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { PeriodFigures } from '../../../shared/staff/dashboard-api';
import { formatCents } from '../components/format';
import { describeChange, formatDays, PERIOD_LABELS } from './dashboard-labels';

/**
 * The headline cards (issue #22, "Dashboard /staff"): net raised after refunds today, the last 7 and 30 days and this
 * year, each with its days, the same period a year before and the change in words; then what the net is made of (gross,
 * refunded, disputed). Each card is a section with its own heading, its figures a description list, so a screen
 * reader reads label then value; the cards wrap one under another at 320 px (WCAG 1.4.10).
 */
export function PeriodCards({ periods }: { periods: readonly PeriodFigures[] }) {
  return (
    <Box component="ul" aria-label="Net raised after refunds" sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(15rem, 1fr))', gap: 2, listStyle: 'none', m: 0, mb: 3, p: 0 }}>
      {periods.map((entry) => (
        <Paper component="li" key={entry.period} variant="outlined" sx={{ p: 2 }}>
          <Typography component="h2" variant="h6" sx={{ fontSize: '1.1rem' }}>
            {PERIOD_LABELS[entry.period]}
          </Typography>
          <Typography variant="body2">{formatDays(entry.days)}</Typography>
          <Box component="dl" sx={{ m: 0, mt: 1, '& dd': { m: 0 }, '& dt': { mt: 0.5 } }}>
            <Typography component="dt" variant="body2">
              Net raised
            </Typography>
            <Typography component="dd" data-figure="net" sx={{ fontSize: '1.6rem', fontWeight: 700 }}>
              {formatCents(entry.totals.netCents)}
            </Typography>
            <Typography component="dt" variant="body2">
              A year before ({formatDays(entry.yearBefore.days)})
            </Typography>
            <Typography component="dd" data-figure="year-before">
              {formatCents(entry.yearBefore.totals.netCents)}, {describeChange(entry.totals.netCents, entry.yearBefore.totals.netCents)}
            </Typography>
            <Typography component="dt" variant="body2">
              Gifts, gross, refunded, disputed
            </Typography>
            <Typography component="dd" variant="body2" data-figure="made-of">
              {entry.totals.count.toLocaleString('en-US')} gifts, {formatCents(entry.totals.grossCents)} gross, {formatCents(entry.totals.refundedCents)} refunded,{' '}
              {formatCents(entry.totals.disputedCents)} disputed
            </Typography>
          </Box>
        </Paper>
      ))}
    </Box>
  );
}
