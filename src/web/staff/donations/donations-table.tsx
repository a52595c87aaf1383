import Chip from '@mui/material/Chip';
import { PAYMENT_METHOD_LABELS } from '../../../shared/offline-gifts';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import { createColumnHelper, flexRender, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { CAUSE_DETAILS } from '../../../shared/causes';
import { feeCoveredLine } from '../components/fee-covered';
import { FREQUENCY_LABELS } from '../../../shared/frequencies';
import type { StaffDonationRow } from '../../../shared/staff/donations-api';
import { formatCents, formatInstant } from '../components/format';
import { ScrollTable } from '../components/scroll-table';
import { StaffLink } from '../components/staff-link';
import { donationPagePath } from '../staff-paths';
import { describePayment, DONATION_STATUS_LABELS } from '../components/donation-labels';
import { type DonationSort, type DonationsView, PAGE_SIZES } from './donations-query';

const column = createColumnHelper<StaffDonationRow>();

/**
 * The columns (decision 0088: TanStack Table's column model drawn with MUI's Table): the two the server sorts by carry
 * their sort key in `meta`.
 */
const COLUMNS = [
  column.accessor('createdAt', { header: 'Date', cell: (cell) => formatInstant(cell.getValue()), meta: { sort: 'date' } }),
  column.accessor('donorName', {
    header: 'Donor',
    cell: (cell) => (
      <>
        <StaffLink to={donationPagePath(cell.row.original.id)}>{cell.getValue() ? <bdi>{cell.getValue()}</bdi> : 'Anonymous'}</StaffLink>
        {cell.row.original.isAnonymous && cell.getValue() !== '' && (
          <>
            {' '}
            <Chip size="small" variant="outlined" label="Anonymous" title="The donor asked not to be named in public" />
          </>
        )}
        <br />
        <bdi style={{ whiteSpace: 'nowrap' }}>{cell.row.original.email}</bdi>
      </>
    ),
  }),
  column.accessor('amountCents', {
    header: 'Amount',
    cell: (cell) => (
      <>
        {formatCents(cell.getValue())}
        {cell.row.original.feeCoveredCents > 0 && (
          <>
            <br />
            {feeCoveredLine(cell.row.original.feeCoveredCents)}
          </>
        )}
        {cell.row.original.refundedCents > 0 && (
          <>
            <br />
            {formatCents(cell.row.original.refundedCents)} refunded
          </>
        )}
      </>
    ),
    meta: { sort: 'amount' },
  }),
  column.accessor('status', { header: 'Status', cell: (cell) => DONATION_STATUS_LABELS[cell.getValue()] }),
  column.accessor('frequency', { header: 'Frequency', cell: (cell) => FREQUENCY_LABELS[cell.getValue()] }),
  column.accessor('cause', { header: 'Cause', cell: (cell) => CAUSE_DETAILS[cell.getValue()].displayName }),
  column.accessor('receiptNumber', { header: 'Receipt', cell: (cell) => <span style={{ whiteSpace: 'nowrap' }}>{cell.getValue() ?? '—'}</span> }),
  column.accessor('paymentMethod', { header: 'Method', cell: (cell) => PAYMENT_METHOD_LABELS[cell.getValue()] }),
  column.accessor('last4', {
    header: 'Card',
    cell: (cell) => (cell.getValue() ? `${cell.row.original.cardBrand ?? 'Card'} •••• ${cell.getValue()}` : '—'),
  }),
  column.accessor('mode', { header: 'Payment', cell: (cell) => describePayment(cell.row.original.gateway, cell.getValue()) }),
  column.accessor('campaign', { header: 'Campaign', cell: (cell) => cell.getValue() ?? '—' }),
];

/** Props of {@link DonationsTable}: one page of rows, the view it shows, the count of the filtered set, and how to change the view. */
export interface DonationsTableProps {
  rows: StaffDonationRow[];
  view: DonationsView;
  count: number;
  onChange: (change: Partial<Pick<DonationsView, 'page' | 'pageSize' | 'sort' | 'order'>>) => void;
}

/**
 * The donations table (issue #21): one page the server chose (manual sorting and pagination), Date and Amount sortable
 * by their header's button (`aria-sort` on the sorted column), the donor's name linking to the donation's page, and the
 * page controls under it. Changing sort or rows per page goes back to page 1.
 */
export function DonationsTable({ rows, view, count, onChange }: DonationsTableProps) {
  // NOTE: TanStack Table's instance is not memoizable by React's compiler; the table is one page of at most 100 rows.
  // eslint-disable-next-line react-hooks/incompatible-library
  const table = useReactTable({
    data: rows,
    columns: COLUMNS,
    getCoreRowModel: getCoreRowModel(),
    manualSorting: true,
    manualPagination: true,
    rowCount: count,
    getRowId: (row) => row.id,
  });
  const sortBy = (sort: DonationSort) =>
    onChange({ sort, order: view.sort === sort && view.order === 'desc' ? 'asc' : 'desc', page: 1 });
  return (
    <>
      <ScrollTable label="Donations">
        <Table size="small">
          <TableHead>
            {table.getHeaderGroups().map((group) => (
              <TableRow key={group.id}>
                {group.headers.map((header) => {
                  const sort = (header.column.columnDef.meta as { sort?: DonationSort } | undefined)?.sort;
                  const label = flexRender(header.column.columnDef.header, header.getContext());
                  const active = sort !== undefined && view.sort === sort;
                  return (
                    <TableCell key={header.id} scope="col" sortDirection={active ? view.order : false}>
                      {sort ? (
                        <TableSortLabel active={active} direction={active ? view.order : 'desc'} onClick={() => sortBy(sort)}>
                          {label}
                        </TableSortLabel>
                      ) : (
                        label
                      )}
                    </TableCell>
                  );
                })}
              </TableRow>
            ))}
          </TableHead>
          <TableBody>
            {table.getRowModel().rows.map((row) => (
              <TableRow key={row.id}>
                {row.getVisibleCells().map((cell) => (
                  <TableCell key={cell.id}>{flexRender(cell.column.columnDef.cell, cell.getContext())}</TableCell>
                ))}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </ScrollTable>
      <TablePagination
        component="div"
        count={count}
        page={view.page - 1}
        rowsPerPage={view.pageSize}
        rowsPerPageOptions={[...PAGE_SIZES]}
        onPageChange={(_event, page) => onChange({ page: page + 1 })}
        onRowsPerPageChange={(event) => onChange({ pageSize: Number(event.target.value), page: 1 })}
        sx={{ overflowX: 'auto' }}
      />
    </>
  );
}
