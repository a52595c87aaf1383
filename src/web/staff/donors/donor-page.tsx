import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { Fragment, useState } from 'react';
import { useParams } from 'react-router';
import { CAUSE_DETAILS } from '../../../shared/causes';
import { FREQUENCY_LABELS } from '../../../shared/frequencies';
import { PageLoading } from '../../components/page-loading';
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
import { donationPagePath, planPagePath, STAFF_PAGES } from '../staff-paths';
import { fetchDonor } from './donors-api';
import { StatementDialog } from './statement-dialog';
import { PLAN_STATUS_LABELS } from '../components/plan-labels';

/**
 * `/staff/donors/<donor key>` (issue #22, "A donor's page"): the donor's names and addresses, the totals net of refunds
 * (lifetime and this year), every gift (linking to the donation's page) with its receipt's PDF, their plans (linking to
 * the plan's page), and the year-end statements queued to them; for finance and admin "Send a statement again" (absent
 * for a viewer: the API refuses it anyway). After sending, the page reads the donor again and says what was done.
 */
export function DonorPage() {
  const { id = '' } = useParams();
  const { can } = useStaffSession();
  const { data: donor, error, reload } = useStaffData(fetchDonor, id);
  const [status, setStatus] = useState<string>();
  const [dialog, setDialog] = useState(false);

  const sent = (message: string) => {
    setDialog(false);
    setStatus(message);
    reload();
  };

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
          {can('resend') && donor.statementYears.length > 0 && (
            <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mb: 3 }}>
              <Button variant="outlined" onClick={() => setDialog(true)}>
                Send a statement again
              </Button>
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
          {dialog && <StatementDialog donorKey={donor.donorKey} email={donor.email} years={donor.statementYears} onSent={sent} onClose={() => setDialog(false)} />}
        </>
      )}
    </StaffPage>
  );
}
