import Box from '@mui/material/Box';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import { Fragment, useMemo } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { STAFF_DONOR_SORTS } from '../../../shared/staff/donors-api';
import { filledFields, FilterForm } from '../components/filter-form';
import { formatCents, formatInstant } from '../components/format';
import { PageError } from '../components/page-error';
import { QueryPagination } from '../components/query-pagination';
import { HeadedTable } from '../components/scroll-table';
import { StaffLink } from '../components/staff-link';
import { StaffPage } from '../components/staff-page';
import { useStaffData } from '../components/use-staff-data';
import { donorPagePath, STAFF_PAGES } from '../staff-paths';
import { fetchDonors } from '../api/donors-api';
import { EmptyResult } from '../components/empty-result';

/** The sort keys in words. */
const SORT_LABELS: Record<(typeof STAFF_DONOR_SORTS)[number], string> = {
  last_gift: 'Last gift',
  first_gift: 'First gift',
  lifetime: 'Lifetime total',
  gifts: 'Number of gifts',
};

/** The form's fields, in the URL as in GET /api/staff/donors's query: name, label, and a text type or select choices. */
const FIELDS: readonly { name: string; label: string; type?: string; options?: [string, string][] }[] = [
  { name: 'q', label: 'Search name or e-mail', type: 'search' },
  { name: 'plan', label: 'Recurring plan', options: [['', 'Any'], ['active', 'Has an active plan'], ['none', 'No active plan']] },
  { name: 'from', label: 'Last gift from', type: 'date' },
  { name: 'to', label: 'Last gift to', type: 'date' },
  { name: 'sort', label: 'Sort by', options: STAFF_DONOR_SORTS.map((sort) => [sort === 'last_gift' ? '' : sort, SORT_LABELS[sort]]) },
  { name: 'order', label: 'Order', options: [['', 'Highest or latest first'], ['asc', 'Lowest or earliest first']] },
];
/** Rows per page (the API's default). */
const DONORS_PAGE_SIZE = 25;

/**
 * `/staff/donors` (issue #22, "Donors"): one row per donor (an e-mail address, whatever its case), with the names they
 * used, first and last gift, number of gifts, and the lifetime and this year's totals net of refunds, and active plans;
 * search, filters, sort and page in the URL (a link or Back gives the same view); each donor links to their page.
 */
export function DonorsPage() {
  const { search } = useLocation();
  const navigate = useNavigate();
  const params = useMemo(() => new URLSearchParams(search), [search]);
  const page = Math.max(1, Number(params.get('page')) || 1);
  const { data, error, loading } = useStaffData(fetchDonors, params.toString());

  const show = (next: URLSearchParams) => {
    const query = next.toString();
    void navigate(query ? `${STAFF_PAGES.donors}?${query}` : STAFF_PAGES.donors);
  };
  const apply = (form: HTMLFormElement) => show(filledFields(form, FIELDS.map(({ name }) => name)));

  return (
    <StaffPage title="Donors">
      <FilterForm key={search} label="Find donors" onSubmit={apply} onClear={() => show(new URLSearchParams())}>
        {FIELDS.map(({ name, label, type, options }) => (
          <TextField
            key={name}
            name={name}
            label={label}
            type={options ? undefined : type}
            size="small"
            select={options !== undefined}
            defaultValue={params.get(name) ?? ''}
            sx={name === 'q' ? { gridColumn: '1 / -1' } : undefined}
            slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
          >
            {options?.map(([value, text]) => (
              <option key={value} value={value}>
                {text}
              </option>
            ))}
          </TextField>
        ))}
      </FilterForm>
      <PageError message={error} />
      {data && (
        <Box aria-busy={loading} sx={{ opacity: loading ? 0.6 : 1 }}>
          <p>
            {data.total === 1 ? '1 donor' : `${data.total.toLocaleString('en-US')} donors`}. Totals are net of refunds; “this year” is {data.year}.
          </p>
          {data.rows.length === 0 && <EmptyResult what="donors" filtered={FIELDS.some(({ name }) => params.has(name))} onClear={() => show(new URLSearchParams())} />}
          <HeadedTable label="Donors" headers={['Donor', 'First gift', 'Last gift', 'Gifts', 'Lifetime (net)', `${data.year} (net)`, 'Active plans']}>
            {data.rows.map((row) => (
              <TableRow key={row.donorKey}>
                <TableCell sx={{ minWidth: '12rem' }}>
                  <StaffLink to={donorPagePath(row.donorKey)}><bdi>{row.names[0] || row.email}</bdi></StaffLink>
                  {row.names.length > 1 && <> (also {row.names.slice(1).map((name, index) => <Fragment key={index}>{index > 0 && ', '}<bdi>{name}</bdi></Fragment>)})</>}
                  <br />
                  <bdi style={{ whiteSpace: 'nowrap' }}>{row.email}</bdi>
                </TableCell>
                <TableCell>{formatInstant(row.firstGiftAt)}</TableCell>
                <TableCell>{formatInstant(row.lastGiftAt)}</TableCell>
                <TableCell>{row.giftCount}</TableCell>
                <TableCell>{formatCents(row.lifetimeCents)}</TableCell>
                <TableCell>{formatCents(row.thisYearCents)}</TableCell>
                <TableCell>{row.activePlans}</TableCell>
              </TableRow>
            ))}
          </HeadedTable>
          <QueryPagination total={data.total} page={page} pageSize={DONORS_PAGE_SIZE} params={params} show={show} />
        </Box>
      )}
    </StaffPage>
  );
}
