import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import { useMemo } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { AuditRow } from '../../../../shared/staff/identity-api';
import { filledFields, FilterForm } from '../../components/filter-form';
import { formatInstant } from '../../components/format';
import { PageError } from '../../components/page-error';
import { QueryPagination } from '../../components/query-pagination';
import { useStaffData } from '../../components/use-staff-data';
import { HeadedTable } from '../../components/scroll-table';
import { StaffLink } from '../../components/staff-link';
import { StaffPage } from '../../components/staff-page';
import { donationPagePath, STAFF_PAGES } from '../../staff-paths';
import { fetchAudit } from './audit-api';

/** The audit page's filters, in its URL as in the API's query (issue #21: "filters in the URL"). */
const FILTERS = [
  ['actor', 'Who (e-mail or operator)', 'text'],
  ['action', 'Action', 'text'],
  ['subjectId', 'Record id', 'text'],
  ['from', 'From date', 'date'],
  ['to', 'To date', 'date'],
] as const;
/** Rows a page of the audit log shows. */
const AUDIT_PAGE_SIZE = 50;

/** Who did it, in words: the staff member's e-mail, the operator (bearer token), or the system. */
function actorOf(row: AuditRow): string {
  if (row.actorEmail) return row.actorEmail;
  return row.actorType === 'operator' ? 'Operator (API token)' : 'System';
}

/** An operator request's target (`email=ana%40example.org&role=admin`) as a person reads it (`email=ana@example.org&role=admin`). */
function readableTarget(target: string): string {
  try {
    return decodeURIComponent(target.replaceAll('+', ' '));
  } catch {
    return target;
  }
}

/** The details of an entry as short `key: value` text (the old address of an e-mail correction, a refund's reason...). */
function detailsOf(row: AuditRow): string {
  const parts = Object.entries(row.details ?? {}).map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`);
  if (row.target) parts.unshift(readableTarget(row.target));
  if (row.statusCode !== null) parts.push(`HTTP ${row.statusCode}`);
  return parts.join('; ') || '—';
}

/**
 * `/staff/audit` (issue #21, admin): every staff and operator action with who, when, what and on which record, newest
 * first; a donation's entries link to it. The filters and the page are the URL's query, so a link or Back gives the
 * same view.
 */
export function AuditPage() {
  const { search } = useLocation();
  const navigate = useNavigate();
  const params = useMemo(() => new URLSearchParams(search), [search]);
  const page = Math.max(1, Number(params.get('page')) || 1);
  const apiQuery = new URLSearchParams(params);
  apiQuery.set('pageSize', String(AUDIT_PAGE_SIZE));
  const { data, error } = useStaffData(fetchAudit, apiQuery.toString());

  const show = (next: URLSearchParams) => {
    const query = next.toString();
    void navigate(query ? `${STAFF_PAGES.audit}?${query}` : STAFF_PAGES.audit);
  };
  const apply = (form: HTMLFormElement) => show(filledFields(form, FILTERS.map(([key]) => key)));

  return (
    <StaffPage title="Audit log">
      <FilterForm key={search} label="Filter the audit log" onSubmit={apply} onClear={() => show(new URLSearchParams())}>
        {FILTERS.map(([key, label, type]) => (
          <TextField key={key} name={key} label={label} type={type} size="small" defaultValue={params.get(key) ?? ''} slotProps={{ inputLabel: { shrink: true } }} />
        ))}
      </FilterForm>
      <PageError message={error} />
      {data && (
        <>
          <HeadedTable label="Audit log" headers={['When', 'Who', 'What', 'Record', 'Details']}>
            {data.rows.map((row) => (
              <TableRow key={row.id}>
                <TableCell>{formatInstant(row.at)}</TableCell>
                <TableCell sx={{ overflowWrap: 'anywhere' }}>{actorOf(row)}</TableCell>
                <TableCell>{row.action}</TableCell>
                <TableCell sx={{ overflowWrap: 'anywhere' }}>
                  {row.subjectType === 'donation' && row.subjectId ? (
                    <StaffLink to={donationPagePath(row.subjectId)}>Donation {row.subjectId.slice(0, 8)}</StaffLink>
                  ) : row.subjectId ? (
                    `${row.subjectType ?? ''} ${row.subjectId}`
                  ) : (
                    '—'
                  )}
                </TableCell>
                <TableCell sx={{ overflowWrap: 'anywhere', minWidth: '12rem' }}>{detailsOf(row)}</TableCell>
              </TableRow>
            ))}
          </HeadedTable>
          <QueryPagination total={data.total} page={page} pageSize={AUDIT_PAGE_SIZE} params={params} show={show} />
        </>
      )}
    </StaffPage>
  );
}
