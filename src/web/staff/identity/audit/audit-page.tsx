import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import { useMemo } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { filledFields, FilterForm } from '../../components/filter-form';
import { formatInstant } from '../../components/format';
import { PageError } from '../../components/page-error';
import { QueryPagination } from '../../components/query-pagination';
import { useStaffData } from '../../components/use-staff-data';
import { HeadedTable } from '../../components/scroll-table';
import { StaffPage } from '../../components/staff-page';
import { STAFF_PAGES } from '../../staff-paths';
import { fetchAudit } from './audit-api';
import { AuditDetails, AuditSubjectLink } from './audit-entry';
import { actorOf, auditSentence } from './audit-sentence';

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

/**
 * `/staff/audit` (issue #21, admin): every staff and operator action with who, when, what and on which record, newest
 * first; what was done reads as a sentence and its details as labelled values (issue #36: audit-sentence.ts), and the
 * record links to its page (a donation, a plan, a donor...). The filters and the page are the URL's query, so a link or Back gives the
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
                <TableCell sx={{ overflowWrap: 'anywhere', minWidth: '12rem' }}>{auditSentence(row).sentence}</TableCell>
                <TableCell sx={{ overflowWrap: 'anywhere' }}>
                  <AuditSubjectLink subjectType={row.subjectType} subjectId={row.subjectId} />
                </TableCell>
                <TableCell sx={{ overflowWrap: 'anywhere', minWidth: '12rem' }}>
                  {auditSentence(row).details.length === 0 ? '—' : <AuditDetails details={auditSentence(row).details} />}
                </TableCell>
              </TableRow>
            ))}
          </HeadedTable>
          <QueryPagination total={data.total} page={page} pageSize={AUDIT_PAGE_SIZE} params={params} show={show} />
        </>
      )}
    </StaffPage>
  );
}
