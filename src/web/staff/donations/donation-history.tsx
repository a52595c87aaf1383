import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { StaffDonationDetail } from '../../../shared/staff/donations-api';
import { formatCents, formatInstant } from '../components/format';
import { AuditEntryItem } from '../identity/audit/audit-entry';
import { HeadedTable } from '../components/scroll-table';
import { MAIL_STATE_LABELS } from '../components/mail-labels';
import { STAFF_MAIL_KIND_LABELS, type StaffMailKind } from '../../../shared/staff/mail-api';

/** A section heading of the donation page (h2). */
function SectionHeading({ children }: { children: string }) {
  return (
    <Typography component="h2" variant="h3" sx={{ mt: 3, mb: 1 }}>
      {children}
    </Typography>
  );
}

/** Who made a refund that no staff member asked for (issue #36: the refunds table says who refunded). */
const REFUNDED_BY_LABELS = { operator: 'The operator', gateway: 'In the gateway’s dashboard' } as const;

/**
 * The donation's history (issue #21): the one timeline of everything that happened to it (created, receipt, refunds,
 * e-mails, staff and operator actions, oldest first), then the e-mails with their state, attempts and last error, and
 * its refunds.
 */
export function DonationHistory({ detail }: { detail: StaffDonationDetail }) {
  return (
    <>
      <SectionHeading>Timeline</SectionHeading>
      <ol style={{ margin: 0, paddingLeft: '1.25rem' }} aria-label="Timeline">
        {detail.timeline.map((event, index) => {
          // Issue #36: a staff or operator action reads as a sentence with its details labelled (audit-sentence.ts).
          const entry = event.kind === 'audit' ? detail.audit.find((candidate) => candidate.id === event.refId) : undefined;
          return (
            <li key={`${event.at}-${index}`}>
              {entry ? (
                <AuditEntryItem entry={entry} at={event.at} who={detail.donation.donorName || undefined} />
              ) : (
                <>
                  <Typography component="span" sx={{ fontWeight: 600 }}>
                    {formatInstant(event.at)}
                  </Typography>{' '}
                  <span style={{ overflowWrap: 'anywhere' }}>{event.summary}</span>
                </>
              )}
            </li>
          );
        })}
      </ol>

      <SectionHeading>E-mails</SectionHeading>
      {detail.emails.length === 0 ? (
        <Typography>No e-mails about this donation.</Typography>
      ) : (
        <HeadedTable label="E-mails" headers={['Queued', 'Kind', 'To', 'State', 'Attempts', 'Last error']}>
          {detail.emails.map((email) => (
            <TableRow key={email.id}>
              <TableCell>{formatInstant(email.createdAt)}</TableCell>
              <TableCell>{STAFF_MAIL_KIND_LABELS[email.kind as StaffMailKind] ?? email.kind}</TableCell>
              <TableCell sx={{ overflowWrap: 'anywhere' }}><bdi>{email.recipient}</bdi></TableCell>
              <TableCell>{MAIL_STATE_LABELS[email.state]}</TableCell>
              <TableCell>{email.attempts}</TableCell>
              <TableCell>{email.lastError ?? '—'}</TableCell>
            </TableRow>
          ))}
        </HeadedTable>
      )}

      <SectionHeading>Refunds</SectionHeading>
      {detail.refunds.length === 0 ? (
        <Typography>No refunds.</Typography>
      ) : (
        <HeadedTable label="Refunds" headers={['When', 'Amount', 'By', 'Reason', 'Gateway refund id']}>
          {detail.refunds.map((refund) => (
            <TableRow key={refund.id}>
              <TableCell>{formatInstant(refund.createdAt)}</TableCell>
              <TableCell>{formatCents(refund.amountCents)}</TableCell>
              <TableCell sx={{ overflowWrap: 'anywhere' }}>{refund.by === 'staff' ? <bdi>{refund.byEmail}</bdi> : REFUNDED_BY_LABELS[refund.by]}</TableCell>
              <TableCell sx={{ whiteSpace: 'pre-line', minWidth: '10rem' }}>{refund.reason ?? '—'}</TableCell>
              <TableCell>{refund.gatewayRefundId}</TableCell>
            </TableRow>
          ))}
        </HeadedTable>
      )}
    </>
  );
}
