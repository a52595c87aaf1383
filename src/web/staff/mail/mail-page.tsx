import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { RECEIPT_KINDS, STAFF_MAIL_KIND_LABELS, STAFF_MAIL_KINDS, type StaffMailRow } from '../../../shared/staff/mail-api';
import { filledFields, FilterForm } from '../components/filter-form';
import { formatInstant } from '../components/format';
import { PageError } from '../components/page-error';
import { QueryPagination } from '../components/query-pagination';
import { HeadedTable } from '../components/scroll-table';
import { StaffLink } from '../components/staff-link';
import { StaffPage } from '../components/staff-page';
import { useStaffAction } from '../components/use-staff-action';
import { useStaffData } from '../components/use-staff-data';
import { CorrectEmailDialog } from '../components/correct-email-dialog';
import { useStaffSession } from '../identity/session/staff-session-context';
import { donationPagePath, STAFF_PAGES } from '../staff-paths';
import { MAIL_STATE_LABELS } from '../components/mail-labels';
import { fetchMail, retryMail } from './mail-api';

/** The state filter's choices ('' = the default, messages that need attention). */
const STATE_OPTIONS: [string, string][] = [
  ['', 'Needs attention (retrying or failed)'],
  ['queued', MAIL_STATE_LABELS.queued],
  ['retrying', MAIL_STATE_LABELS.retrying],
  ['failed', 'Failed (resolved or not)'],
  ['sent', MAIL_STATE_LABELS.sent],
  ['all', 'All'],
];
/** The kind filter's choices ('' = any kind). */
const KIND_OPTIONS: [string, string][] = [['', 'Any'], ...STAFF_MAIL_KINDS.map((kind): [string, string] => [kind, STAFF_MAIL_KIND_LABELS[kind]])];
/** Rows per page (the API's default). */
const MAIL_PAGE_SIZE = 25;

/** Whether the page offers "Correct the address" for `row`: a receipt not yet delivered nor resolved by a later copy. */
function correctable(row: StaffMailRow): boolean {
  return row.donationId !== null && RECEIPT_KINDS.includes(row.kind) && row.state !== 'sent' && row.resolvedBy === null;
}

/** A message's state in words, with a failed receipt's resolution (decision 0073) or a send under way. */
function stateOf(row: StaffMailRow): string {
  if (row.sending) return 'Being sent now';
  if (row.resolvedBy) return `Failed; sent again to ${row.resolvedBy.recipient} (${MAIL_STATE_LABELS[row.resolvedBy.state].toLowerCase()})`;
  return MAIL_STATE_LABELS[row.state];
}

/**
 * `/staff/mail` (issue #22, "Mail"): the outbox as staff need it, by default the messages that need attention
 * (retrying, or failed and not resolved), each with its kind, recipient, state, attempts, next try and last error;
 * filters by state and kind in the URL. For finance and admin: "Retry now" (the relay sends it at its next run), and on
 * a receipt not delivered "Correct the address" (the donation's e-mail correction with a resend, part 1's dialog).
 */
export function MailPage() {
  const { search } = useLocation();
  const navigate = useNavigate();
  const { can } = useStaffSession();
  const params = useMemo(() => new URLSearchParams(search), [search]);
  const page = Math.max(1, Number(params.get('page')) || 1);
  const { data, error, loading, reload } = useStaffData(fetchMail, params.toString());
  const { busy, actionError, status, act } = useStaffAction(reload);
  const [correcting, setCorrecting] = useState<StaffMailRow>();
  const [corrected, setCorrected] = useState<string>();

  const show = (next: URLSearchParams) => {
    const query = next.toString();
    void navigate(query ? `${STAFF_PAGES.mail}?${query}` : STAFF_PAGES.mail);
  };
  const apply = (form: HTMLFormElement) => show(filledFields(form, ['state', 'kind']));
  const retry = (row: StaffMailRow) =>
    act(async () => {
      await retryMail(row.id);
    }, `The ${STAFF_MAIL_KIND_LABELS[row.kind].toLowerCase()} to ${row.recipient} will be sent in a moment.`);

  return (
    <StaffPage title="Mail">
      <FilterForm key={search} label="Filter e-mails" columnMinRem={14} onSubmit={apply} onClear={() => show(new URLSearchParams())}>
        {(
          [
            ['state', 'State', STATE_OPTIONS],
            ['kind', 'Kind', KIND_OPTIONS],
          ] as const
        ).map(([name, label, options]) => (
          <TextField key={name} name={name} label={label} size="small" select defaultValue={params.get(name) ?? ''} slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}>
            {options.map(([value, text]) => (
              <option key={value} value={value}>
                {text}
              </option>
            ))}
          </TextField>
        ))}
      </FilterForm>
      <PageError message={error ?? actionError} />
      <Typography role="status" sx={{ mb: status || corrected ? 2 : 0, fontWeight: 600 }}>
        {status ?? corrected}
      </Typography>
      {data && (
        <Box aria-busy={loading} sx={{ opacity: loading ? 0.6 : 1 }}>
          <p>{data.total === 1 ? '1 e-mail' : `${data.total.toLocaleString('en-US')} e-mails`}.</p>
          <HeadedTable label="E-mails" headers={['Kind', 'Recipient', 'State', 'Attempts', 'Next try', 'Last error', 'Queued', ...(can('resend') || can('correct') ? ['Actions'] : [])]}>
            {data.rows.map((row) => (
              <TableRow key={row.id}>
                <TableCell>
                  {row.donationId ? <StaffLink to={donationPagePath(row.donationId)}>{STAFF_MAIL_KIND_LABELS[row.kind]}</StaffLink> : STAFF_MAIL_KIND_LABELS[row.kind]}
                </TableCell>
                <TableCell sx={{ overflowWrap: 'anywhere' }}><bdi>{row.recipient}</bdi></TableCell>
                <TableCell>{stateOf(row)}</TableCell>
                <TableCell>{row.attempts}</TableCell>
                <TableCell>{row.state === 'sent' || row.state === 'failed' ? '—' : formatInstant(row.nextAttemptAt)}</TableCell>
                <TableCell sx={{ minWidth: '12rem' }}>{row.lastError ?? '—'}</TableCell>
                <TableCell>{formatInstant(row.createdAt)}</TableCell>
                {(can('resend') || can('correct')) && (
                  <TableCell>
                    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1 }}>
                      {can('resend') && row.state !== 'sent' && !row.sending && (
                        <Button size="small" variant="outlined" disabled={busy} onClick={() => void retry(row)} aria-label={`Retry now: ${STAFF_MAIL_KIND_LABELS[row.kind]} to ${row.recipient}`}>
                          Retry now
                        </Button>
                      )}
                      {can('correct') && correctable(row) && (
                        <Button size="small" variant="outlined" disabled={busy} onClick={() => setCorrecting(row)} aria-label={`Correct the address: ${STAFF_MAIL_KIND_LABELS[row.kind]} to ${row.recipient}`}>
                          Correct the address
                        </Button>
                      )}
                    </Box>
                  </TableCell>
                )}
              </TableRow>
            ))}
          </HeadedTable>
          <QueryPagination total={data.total} page={page} pageSize={MAIL_PAGE_SIZE} params={params} show={show} />
        </Box>
      )}
      {correcting?.donationId && (
        <CorrectEmailDialog
          donationId={correcting.donationId}
          currentEmail={correcting.recipient}
          hasPlan={correcting.donationHasPlan}
          onCorrected={(message) => {
            setCorrecting(undefined);
            setCorrected(message);
            reload();
          }}
          onClose={() => setCorrecting(undefined)}
        />
      )}
    </StaffPage>
  );
}
