import Box from '@mui/material/Box';
import TableCell from '@mui/material/TableCell';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useMemo } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { CAUSE_DETAILS } from '../../../shared/causes';
import { FREQUENCY_LABELS } from '../../../shared/frequencies';
import type { StaffPlanTotals } from '../../../shared/staff/plans-api';
import { FigureList } from '../components/figure-list';
import { formatCents } from '../components/format';
import { PageError } from '../components/page-error';
import { HeadedTable } from '../components/scroll-table';
import { StaffLink } from '../components/staff-link';
import { StaffPage } from '../components/staff-page';
import { useStaffData } from '../components/use-staff-data';
import { donorPagePath, planPagePath, STAFF_PAGES } from '../staff-paths';
import { PlanFiltersForm } from './plan-filters';
import { PLAN_STATUS_LABELS } from '../components/plan-labels';
import { fetchPlans } from '../api/plans-api';
import { PLAN_PAGE_SIZES, parsePlansView, plansViewQuery, type PlansView } from './plans-query';

/** The totals of the filtered set (issue #22): how many plans, how many are active, and their monthly equivalent. */
function PlanTotals({ totals }: { totals: StaffPlanTotals }) {
  const items: [string, string][] = [
    ['Plans', totals.count.toLocaleString('en-US')],
    ['Active', totals.activeCount.toLocaleString('en-US')],
    ['Active, per month', formatCents(totals.activeMonthlyCents)],
  ];
  return <FigureList items={items} />;
}

/**
 * `/staff/plans` (issue #22, "Recurring plans"): the filters, order and search box, the totals of the filtered set
 * (active plans and their monthly equivalent, yearly plans counting a twelfth), and one page of plans, each linking to
 * its page and to its donor's. The whole view is the URL's query string, as the donations page's.
 */
export function PlansPage() {
  const { search } = useLocation();
  const navigate = useNavigate();
  const view = useMemo(() => parsePlansView(search), [search]);
  const query = plansViewQuery(view);
  const { data: list, error, loading } = useStaffData(fetchPlans, query);

  const show = (next: PlansView) => {
    const nextQuery = plansViewQuery(next);
    void navigate(nextQuery ? `${STAFF_PAGES.plans}?${nextQuery}` : STAFF_PAGES.plans);
  };

  return (
    <StaffPage title="Recurring plans">
      <PlanFiltersForm key={search} filters={view.filters} order={view.order} onApply={(filters, order) => show({ ...view, filters, order, page: 1 })} />
      <PageError message={error} />
      {list && (
        <Box aria-busy={loading} sx={{ opacity: loading ? 0.6 : 1 }}>
          <PlanTotals totals={list.totals} />
          <HeadedTable label="Recurring plans" headers={['Donor', 'Amount', 'Status', 'Next charge', 'Cause', 'First receipt']}>
            {list.rows.map((plan) => (
              <TableRow key={plan.id}>
                <TableCell>
                  <StaffLink to={planPagePath(plan.id)}>{plan.donorName ? <bdi>{plan.donorName}</bdi> : 'Anonymous'}</StaffLink>
                  <br />
                  <StaffLink to={donorPagePath(plan.donorKey)} sx={{ overflowWrap: 'anywhere' }}>
                    <bdi>{plan.email}</bdi>
                  </StaffLink>
                </TableCell>
                <TableCell>
                  {formatCents(plan.amountCents)} {FREQUENCY_LABELS[plan.frequency].toLowerCase()}
                </TableCell>
                <TableCell>{PLAN_STATUS_LABELS[plan.status]}</TableCell>
                <TableCell>{plan.nextChargeOn ?? '—'}</TableCell>
                <TableCell>{CAUSE_DETAILS[plan.cause].displayName}</TableCell>
                <TableCell>{plan.firstReceiptNumber ?? '—'}</TableCell>
              </TableRow>
            ))}
          </HeadedTable>
          {list.rows.length === 0 && <Typography sx={{ mb: 2 }}>No plan matches these filters.</Typography>}
          <TablePagination
            component="div"
            count={list.totals.count}
            page={view.page - 1}
            rowsPerPage={view.pageSize}
            rowsPerPageOptions={[...PLAN_PAGE_SIZES]}
            onPageChange={(_event, page) => show({ ...view, page: page + 1 })}
            onRowsPerPageChange={(event) => show({ ...view, pageSize: Number(event.target.value), page: 1 })}
            sx={{ overflowX: 'auto' }}
          />
        </Box>
      )}
    </StaffPage>
  );
}
