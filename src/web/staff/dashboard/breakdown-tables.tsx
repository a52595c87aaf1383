import Box from '@mui/material/Box';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { StaffDashboard } from '../../../shared/staff/dashboard-api';
import { formatCents } from '../components/format';
import { HeadedTable } from '../components/scroll-table';
import { PERIOD_LABELS } from './dashboard-labels';

/** The frequencies as the dashboard names them: one-time versus the recurring ones. */
const FREQUENCY_NAMES: Record<StaffDashboard['byFrequency'][number]['frequency'], string> = {
  'one-time': 'One-time',
  monthly: 'Recurring, monthly',
  yearly: 'Recurring, yearly',
};

/**
 * The selected period's breakdowns besides causes (issue #22, "Dashboard /staff"): one-time versus recurring gifts
 * (with a year before), and new versus returning donors (a donor is an e-mail address, compared case-insensitively;
 * new = their first gift is in the period). Plain tables, each a labelled region.
 */
export function BreakdownTables({ dashboard }: { dashboard: Pick<StaffDashboard, 'byFrequency' | 'donors' | 'selected'> }) {
  const period = PERIOD_LABELS[dashboard.selected.period].toLowerCase();
  const { newDonors, returningDonors } = dashboard.donors;
  return (
    <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 20rem), 1fr))', gap: 2, mb: 3 }}>
      <section>
        <Typography component="h2" variant="h6" sx={{ fontSize: '1.1rem', mb: 1 }}>
          One-time and recurring, {period}
        </Typography>
        <HeadedTable label={`One-time and recurring, ${period}`} headers={['Kind', 'Gifts', 'Net raised', 'A year before']}>
          {dashboard.byFrequency.map((row) => (
            <TableRow key={row.frequency}>
              <TableCell component="th" scope="row">
                {FREQUENCY_NAMES[row.frequency]}
              </TableCell>
              <TableCell>{row.count.toLocaleString('en-US')}</TableCell>
              <TableCell>{formatCents(row.netCents)}</TableCell>
              <TableCell>{formatCents(row.yearBeforeNetCents)}</TableCell>
            </TableRow>
          ))}
        </HeadedTable>
      </section>
      <section>
        <Typography component="h2" variant="h6" sx={{ fontSize: '1.1rem', mb: 1 }}>
          New and returning donors, {period}
        </Typography>
        <HeadedTable label={`New and returning donors, ${period}`} headers={['Donors', 'How many', 'Net raised']}>
          {[
            ['New (first gift in the period)', newDonors],
            ['Returning (gave before)', returningDonors],
          ].map(([label, group]) => (
            <TableRow key={label as string}>
              <TableCell component="th" scope="row">
                {label as string}
              </TableCell>
              <TableCell>{(group as typeof newDonors).donorCount.toLocaleString('en-US')}</TableCell>
              <TableCell>{formatCents((group as typeof newDonors).netCents)}</TableCell>
            </TableRow>
          ))}
        </HeadedTable>
      </section>
    </Box>
  );
}
