import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { Fragment, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { CAUSE_DETAILS } from '../../../shared/causes';
import { FREQUENCY_LABELS } from '../../../shared/frequencies';
import { PageLoading } from '../../components/page-loading';
import { describeError } from '../components/describe-error';
import { formatCents, formatInstant } from '../components/format';
import { PageError } from '../components/page-error';
import { HeadedTable } from '../components/scroll-table';
import { StaffLink } from '../components/staff-link';
import { StaffPage } from '../components/staff-page';
import { useStaffData } from '../components/use-staff-data';
import { receiptPdfUrl } from '../api/donation-api';
import { FieldList } from '../components/donation-fields';
import { DONATION_STATUS_LABELS } from '../components/donation-labels';
import { MAIL_STATE_LABELS } from '../components/mail-labels';
import { useStaffSession } from '../identity/session/staff-session-context';
import { donationPagePath, donorPagePath, planPagePath, STAFF_PAGES } from '../staff-paths';
import { STAFF_MAIL_KIND_LABELS, type StaffMailKind } from '../../../shared/staff/mail-api';
import { AuditEntryItem } from '../identity/audit/audit-entry';
import { DonorEmailDialog } from './donor-email-dialog';
import { DonorNotes } from './donor-notes';
import { fetchDonor, undoMerge } from '../api/donors-api';
import { MergeDialog } from './merge-dialog';
import { StatementDialog } from './statement-dialog';
import { PLAN_STATUS_LABELS } from '../components/plan-labels';

/**
 * `/staff/donors/<donor key>` (issue #22, "A donor's page"): the donor's names and addresses, the totals net of refunds
 * (lifetime and this year), every gift (linking to the donation's page) with its receipt's PDF, their plans (linking to
 * the plan's page), and the year-end statements queued to them; for finance and admin "Send a statement again" (absent
 * for a viewer: the API refuses it anyway). After sending, the page reads the donor again and says what was done.
 * Issue #36: for finance and admin "Correct the e-mail" (on every gift, receipt and plan) and "Merge another donor";
 * the notes (everyone reads, finance and admin write); every e-mail about the donor; the merges into the donor with
 * their undo for 30 days; and the donor's audit entries as sentences, in one place.
 */
export function DonorPage() {
  const { id = '' } = useParams();
  const { can } = useStaffSession();
  const { data: donor, error, reload } = useStaffData(fetchDonor, id);
  const [status, setStatus] = useState<string>();
  const [dialog, setDialog] = useState<'statement' | 'email' | 'merge'>();
  const [undoing, setUndoing] = useState(false);
  const navigate = useNavigate();

  const sent = (message: string) => {
    setDialog(undefined);
    setStatus(message);
    reload();
  };
  const corrected = (message: string, donorKey: string) => {
    setDialog(undefined);
    setStatus(message);
    // NOTE: a donor-wide correction gives the donor a new key (their address's): the page moves to it.
    if (donorKey !== id) void navigate(donorPagePath(donorKey), { replace: true });
    else reload();
  };
  const undo = async (mergeId: string) => {
    setUndoing(true);
    try {
      const answer = await undoMerge(mergeId);
      setStatus(`The merge is undone: ${answer.donationsRestored} gift${answer.donationsRestored === 1 ? '' : 's'} went back to the other donor.`);
      reload();
    } catch (caught) {
      setStatus(`The merge was not undone: ${describeError(caught)}`);
    }
    setUndoing(false);
  };
  const who = donor?.names[0] || undefined;

  return (
    <StaffPage title={donor ? `Donor: ${donor.names[0] || donor.email}` : 'Donor'}>
      <Typography sx={{ mb: 2 }}>
        <StaffLink to={STAFF_PAGES.donors}>All donors</StaffLink>
      </Typography>
      <PageError message={error} />
      <Typography role="status" sx={{ mb: status ? 2 : 0, fontWeight: 600 }}>
        {status}
      </Typography>
      {!donor ? (
        !error && <PageLoading />
      ) : (
        <>
          {(can('correct') || (can('resend') && donor.statementYears.length > 0)) && (
            <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mb: 3 }}>
              {can('correct') && (
                <>
                  <Button variant="outlined" onClick={() => setDialog('email')}>
                    Correct the e-mail
                  </Button>
                  <Button variant="outlined" onClick={() => setDialog('merge')}>
                    Merge another donor into this one
                  </Button>
                </>
              )}
              {can('resend') && donor.statementYears.length > 0 && (
                <Button variant="outlined" onClick={() => setDialog('statement')}>
                  Send a statement again
                </Button>
              )}
            </Box>
          )}
          <FieldList
            items={[
              ['E-mail', donor.emails.map((email, index) => <Fragment key={index}>{index > 0 && ', '}<bdi>{email}</bdi></Fragment>)],
              ['Names used', donor.names.map((name, index) => <Fragment key={index}>{index > 0 && ', '}<bdi>{name}</bdi></Fragment>)],
              ['Lifetime total (net of refunds)', formatCents(donor.figures.lifetimeCents)],
              [`${donor.year} total (net of refunds)`, formatCents(donor.figures.thisYearCents)],
              ['Gifts', String(donor.figures.giftCount)],
              ['First gift', formatInstant(donor.figures.firstGiftAt)],
              ['Last gift', formatInstant(donor.figures.lastGiftAt)],
              ['Active plans', String(donor.figures.activePlans)],
            ]}
          />
          <Typography component="h2" variant="h3" sx={{ mt: 3, mb: 1 }}>
            Gifts
          </Typography>
          <HeadedTable label="Gifts" headers={['Date', 'Amount', 'Status', 'Cause', 'Frequency', 'Receipt']}>
            {donor.gifts.map((gift) => (
              <TableRow key={gift.id}>
                <TableCell>
                  <StaffLink to={donationPagePath(gift.id)}>{formatInstant(gift.createdAt)}</StaffLink>
                </TableCell>
                <TableCell>
                  {formatCents(gift.amountCents)}
                  {gift.refundedCents > 0 && <> ({formatCents(gift.refundedCents)} refunded)</>}
                </TableCell>
                <TableCell>{DONATION_STATUS_LABELS[gift.status]}</TableCell>
                <TableCell>{CAUSE_DETAILS[gift.cause].displayName}</TableCell>
                <TableCell>{FREQUENCY_LABELS[gift.frequency]}</TableCell>
                <TableCell>
                  {gift.receiptNumber ? (
                    <Link href={receiptPdfUrl(gift.id)} download sx={{ whiteSpace: 'nowrap' }}>
                      {gift.receiptNumber} ({gift.receiptVoided ? 'void, ' : ''}PDF)
                    </Link>
                  ) : (
                    '—'
                  )}
                </TableCell>
              </TableRow>
            ))}
          </HeadedTable>
          <Typography component="h2" variant="h3" sx={{ mt: 3, mb: 1 }}>
            Recurring plans
          </Typography>
          {donor.plans.length === 0 ? (
            <Typography>No recurring plan.</Typography>
          ) : (
            <HeadedTable label="Recurring plans" headers={['Plan', 'Status', 'Cause', 'Next charge', 'Charges so far']}>
              {donor.plans.map((plan) => (
                <TableRow key={plan.id}>
                  <TableCell>
                    <StaffLink to={planPagePath(plan.id)}>
                      {formatCents(plan.amountCents)} {FREQUENCY_LABELS[plan.frequency].toLowerCase()}
                    </StaffLink>
                  </TableCell>
                  <TableCell>{PLAN_STATUS_LABELS[plan.status]}</TableCell>
                  <TableCell>{CAUSE_DETAILS[plan.cause].displayName}</TableCell>
                  <TableCell>{plan.status === 'cancelled' ? '—' : plan.nextChargeOn}</TableCell>
                  <TableCell>{plan.chargeCount}</TableCell>
                </TableRow>
              ))}
            </HeadedTable>
          )}
          <Typography component="h2" variant="h3" sx={{ mt: 3, mb: 1 }}>
            Year-end statements
          </Typography>
          {donor.statements.length === 0 ? (
            <Typography>No statement sent yet.</Typography>
          ) : (
            <HeadedTable label="Year-end statements" headers={['Year', 'Sent to', 'State', 'Sent']}>
              {donor.statements.map((statement) => (
                <TableRow key={statement.id}>
                  <TableCell>{statement.year}</TableCell>
                  <TableCell sx={{ overflowWrap: 'anywhere' }}><bdi>{statement.recipient}</bdi></TableCell>
                  <TableCell>{MAIL_STATE_LABELS[statement.state]}</TableCell>
                  <TableCell>{formatInstant(statement.sentAt)}</TableCell>
                </TableRow>
              ))}
            </HeadedTable>
          )}
          <DonorNotes donorKey={donor.donorKey} notes={donor.notes} canWrite={can('correct')} onAdded={sent} />
          <Typography component="h2" variant="h3" sx={{ mt: 3, mb: 1 }}>
            E-mails
          </Typography>
          {donor.mail.length === 0 ? (
            <Typography>No e-mail to this donor yet.</Typography>
          ) : (
            <HeadedTable label="E-mails" headers={['Queued', 'Kind', 'To', 'State', 'Sent']}>
              {donor.mail.map((email) => (
                <TableRow key={email.id}>
                  <TableCell>{formatInstant(email.createdAt)}</TableCell>
                  <TableCell>{STAFF_MAIL_KIND_LABELS[email.kind as StaffMailKind] ?? email.kind}</TableCell>
                  <TableCell sx={{ overflowWrap: 'anywhere' }}><bdi>{email.recipient}</bdi></TableCell>
                  <TableCell>{MAIL_STATE_LABELS[email.state]}</TableCell>
                  <TableCell>{formatInstant(email.sentAt)}</TableCell>
                </TableRow>
              ))}
            </HeadedTable>
          )}
          {donor.merges.length > 0 && (
            <>
              <Typography component="h2" variant="h3" sx={{ mt: 3, mb: 1 }}>
                Merged donors
              </Typography>
              <HeadedTable label="Merged donors" headers={['Merged', 'Donor merged', 'Gifts', 'By', 'Undo']}>
                {donor.merges.map((merge) => (
                  <TableRow key={merge.id}>
                    <TableCell>{formatInstant(merge.mergedAt)}</TableCell>
                    <TableCell sx={{ overflowWrap: 'anywhere' }}><bdi>{merge.sourceEmail}</bdi></TableCell>
                    <TableCell>{merge.giftCount}</TableCell>
                    <TableCell sx={{ overflowWrap: 'anywhere' }}>{merge.mergedByEmail}</TableCell>
                    <TableCell>
                      {merge.undoneAt ? (
                        `Undone ${formatInstant(merge.undoneAt)}`
                      ) : can('correct') && merge.undoable ? (
                        <Button size="small" disabled={undoing} onClick={() => void undo(merge.id)} aria-label={`Undo the merge of ${merge.sourceEmail}`}>
                          Undo
                        </Button>
                      ) : (
                        `Possible until ${formatInstant(merge.undoableUntil)}`
                      )}
                    </TableCell>
                  </TableRow>
                ))}
              </HeadedTable>
            </>
          )}
          <Typography component="h2" variant="h3" sx={{ mt: 3, mb: 1 }}>
            History
          </Typography>
          {donor.audit.length === 0 ? (
            <Typography>No staff action on this donor yet.</Typography>
          ) : (
            <ol style={{ margin: 0, paddingLeft: '1.25rem' }} aria-label="History">
              {donor.audit.map((entry) => (
                <li key={entry.id}>
                  <AuditEntryItem entry={entry} at={entry.at} who={who} />
                </li>
              ))}
            </ol>
          )}
          {dialog === 'statement' && <StatementDialog donorKey={donor.donorKey} email={donor.email} years={donor.statementYears} onSent={sent} onClose={() => setDialog(undefined)} />}
          {dialog === 'email' && <DonorEmailDialog donor={donor} onCorrected={corrected} onClose={() => setDialog(undefined)} />}
          {dialog === 'merge' && <MergeDialog donor={donor} onMerged={sent} onClose={() => setDialog(undefined)} />}
        </>
      )}
    </StaffPage>
  );
}
