import Box from '@mui/material/Box';
import Skeleton from '@mui/material/Skeleton';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useLocation, useNavigate } from 'react-router';
import { DASHBOARD_PERIODS, DEFAULT_DASHBOARD_PERIOD, type DashboardPeriod } from '../../../shared/staff/dashboard-api';
import { PageError } from '../components/page-error';
import { StaffPage } from '../components/staff-page';
import { useStaffData } from '../components/use-staff-data';
import { STAFF_PAGES } from '../staff-paths';
import { BreakdownTables } from './breakdown-tables';
import { fetchDashboard } from './dashboard-api';
import { CauseChart, DailyChart, MonthlyChart } from './dashboard-charts';
import { formatDays, PERIOD_LABELS } from './dashboard-labels';
import { PeriodCards } from './period-cards';
import { StatusCards } from './status-cards';

/** The period of the URL's `period` parameter, or the default one when it has none or an unknown one. */
export function periodOf(search: string): DashboardPeriod {
  const asked = new URLSearchParams(search).get('period');
  return DASHBOARD_PERIODS.find((period) => period === asked) ?? DEFAULT_DASHBOARD_PERIOD;
}

/**
 * The dashboard's layout while its figures load (issue #36, part 3: "the dashboard shows its layout while loading
 * instead of a blank page"): the line of text, the four period cards, the status cards and a chart, as grey shapes of
 * about their size (MUI Skeleton), announced once as "Loading the dashboard" (`aria-busy`, and the shapes hidden from
 * screen readers).
 */
function DashboardSkeleton() {
  return (
    <Box aria-busy="true" role="status" aria-label="Loading the dashboard">
      <Skeleton variant="text" width="70%" sx={{ mb: 2 }} aria-hidden />
      <Box aria-hidden sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(15rem, 1fr))', gap: 2, mb: 3 }}>
        {[0, 1, 2, 3].map((card) => (
          <Skeleton key={card} variant="rounded" height={190} />
        ))}
      </Box>
      <Box aria-hidden sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(12rem, 1fr))', gap: 2, mb: 3 }}>
        {[0, 1, 2].map((card) => (
          <Skeleton key={card} variant="rounded" height={96} />
        ))}
      </Box>
      <Skeleton variant="rounded" height={320} aria-hidden />
    </Box>
  );
}

/**
 * `/staff`, the page staff land on (issue #22, "Dashboard /staff"): the net raised after refunds today, the last 7 and
 * 30 days and this year, each with a year before; plans, failing renewals and failing e-mails now; the breakdowns of
 * the period chosen (in the URL: `?period=`, so Back and a shared link give the same view) by cause, one-time versus
 * recurring and new versus returning donors; and charts of money over time and by cause, each with its table. Days are
 * the staff's time zone's (TZ), named on the page. Every role reads it.
 */
export function DashboardPage() {
  const { search } = useLocation();
  const navigate = useNavigate();
  const period = periodOf(search);
  const query = period === DEFAULT_DASHBOARD_PERIOD ? '' : new URLSearchParams({ period }).toString();
  const { data, error, loading } = useStaffData(fetchDashboard, query);

  const choose = (next: DashboardPeriod) => {
    void navigate(next === DEFAULT_DASHBOARD_PERIOD ? STAFF_PAGES.root : `${STAFF_PAGES.root}?${new URLSearchParams({ period: next }).toString()}`);
  };

  return (
    <StaffPage title="Dashboard">
      <PageError message={error} />
      {!data && !error && <DashboardSkeleton />}
      {data && (
        <Box aria-busy={loading} sx={{ opacity: loading ? 0.6 : 1 }}>
          <Typography variant="body2" sx={{ mb: 2 }}>
            Net raised is what the charity keeps: gifts less refunds and disputes. Days are those of {data.timeZone}; today is {formatDays({ from: data.today, to: data.today })}.
          </Typography>
          <PeriodCards periods={data.periods} />
          <StatusCards dashboard={data} />
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 2, alignItems: 'center', mb: 2 }}>
            <TextField
              select
              size="small"
              label="Breakdowns for"
              value={period}
              onChange={(event) => choose(event.target.value as DashboardPeriod)}
              slotProps={{ select: { native: true } }}
            >
              {DASHBOARD_PERIODS.map((value) => (
                <option key={value} value={value}>
                  {PERIOD_LABELS[value]}
                </option>
              ))}
            </TextField>
            <Typography variant="body2">{formatDays(data.selected.days)}</Typography>
          </Box>
          <CauseChart dashboard={data} />
          <BreakdownTables dashboard={data} />
          <DailyChart daily={data.daily} />
          <MonthlyChart monthly={data.monthly} />
        </Box>
      )}
    </StaffPage>
  );
}
