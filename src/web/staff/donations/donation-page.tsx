import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useParams } from 'react-router';
import { PageLoading } from '../../components/page-loading';
import { describeError } from '../components/describe-error';
import { formatCents, formatInstant } from '../components/format';
import { PageError } from '../components/page-error';
import { useStaffData } from '../components/use-staff-data';
import { StaffLink } from '../components/staff-link';
import { StaffPage } from '../components/staff-page';
import { useStaffSession } from '../identity/session/staff-session-context';
import { planPagePath, STAFF_PAGES } from '../staff-paths';
import { CorrectEmailDialog } from '../components/correct-email-dialog';
import { fetchDonation, receiptPdfUrl, resendReceipt } from '../api/donation-api';
import { DonationFields, FieldList } from '../components/donation-fields';
import { DonationHistory } from './donation-history';
import { RefundDialog } from './refund-dialog';
import { FREQUENCY_LABELS } from '../../../shared/frequencies';
import { plainCode } from '../components/donation-labels';
import { PLAN_STATUS_LABELS } from '../components/plan-labels';
import { VoidDialog } from './void-dialog';
import { PAYMENT_METHOD_LABELS } from '../../../shared/offline-gifts';

/** Statuses whose donation can still be refunded (the existing refund semantics: charged, not all refunded, not disputed). */
const REFUNDABLE = new Set(['succeeded', 'partially_refunded']);

/**
 * `/staff/donations/<id>` (issue #21): every field of the donation, its receipt (download), its plan, and the
 * timeline, e-mails and refunds; for finance and admin the actions "Refund", "Resend the receipt" and "Correct the
 * e-mail" (absent for a viewer: the API refuses them anyway). After an action the page reads the donation again and
 * announces what was done.
 */
export function DonationPage() {
  const { id = '' } = useParams();
  const { can } = useStaffSession();
  const { data: detail, error: loadError, reload } = useStaffData(fetchDonation, id);
  const [actionError, setError] = useState<string>();
  const [status, setStatus] = useState<string>();
  const [dialog, setDialog] = useState<'refund' | 'email' | 'void'>();
  const [busy, setBusy] = useState(false);

  const done = (message: string) => {
    setDialog(undefined);
    setStatus(message);
    reload();
  };
  const resend = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const { recipient } = await resendReceipt(id);
      setStatus(`The receipt is on its way to ${recipient}.`);
      reload();
    } catch (caught) {
      setError(describeError(caught));
    }
    setBusy(false);
  };

  const donation = detail?.donation;
  const error = actionError ?? loadError;
  return (
    <StaffPage title={donation ? `Donation of ${formatCents(donation.amountCents)} by ${donation.donorName || 'Anonymous'}` : 'Donation'}>
      <Typography sx={{ mb: 2 }}>
        <StaffLink to={STAFF_PAGES.donations}>All donations</StaffLink>
      </Typography>
      <PageError message={error} />
      <Typography role="status" sx={{ mb: status ? 2 : 0, fontWeight: 600 }}>
        {status}
      </Typography>
      {!detail || !donation ? (
        !error && <PageLoading />
      ) : (
        <>
          <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mb: 3 }}>
            {can('offline_gifts') && donation.offline && !donation.offline.voidedAt && donation.status === 'succeeded' && (
              <Button variant="contained" color="error" onClick={() => setDialog('void')}>
                Void
              </Button>
            )}
            {can('refund') && donation.paymentMethod === 'card' && REFUNDABLE.has(donation.status) && (
              <Button variant="contained" color="error" onClick={() => setDialog('refund')}>
                Refund
              </Button>
            )}
            {can('resend') && detail.receipt && !detail.receipt.voidedAt && (
              <Button variant="outlined" onClick={() => void resend()} disabled={busy}>
                Resend the receipt
              </Button>
            )}
            {can('correct') && (
              <Button variant="outlined" onClick={() => setDialog('email')}>
                Correct the e-mail
              </Button>
            )}
          </Box>
          <DonationFields donation={donation} />
          {donation.offline && (
            <>
              <Typography component="h2" variant="h3" sx={{ mt: 3, mb: 1 }}>
                Received outside the site
              </Typography>
              <FieldList
                items={[
                  ['Method', PAYMENT_METHOD_LABELS[donation.paymentMethod]],
                  ['Reference', donation.offline.reference ?? 'None'],
                  ['Received on', donation.offline.receivedOn],
                  ['Note', donation.offline.note ?? 'None'],
                  ['Receipt e-mailed', donation.offline.receiptEmailed ? 'Yes' : 'No'],
                  ['Voided', donation.offline.voidedAt ? `${formatInstant(donation.offline.voidedAt)}: ${donation.offline.voidReason ?? ''}` : 'No'],
                ]}
              />
            </>
          )}
          {detail.receipt && (
            <>
              <Typography component="h2" variant="h3" sx={{ mt: 3, mb: 1 }}>
                Receipt
              </Typography>
              <FieldList
                items={[
                  ['Number', <Box component="span" key="number" sx={{ whiteSpace: 'nowrap' }}>{detail.receipt.number}</Box>],
                  ['Issued', formatInstant(detail.receipt.issuedAt)],
                  ['Voided', detail.receipt.voidedAt ? formatInstant(detail.receipt.voidedAt) : 'No'],
                ]}
              />
              <Button variant="outlined" href={receiptPdfUrl(id)} download>
                Download receipt <Box component="span" sx={{ whiteSpace: 'nowrap', ml: 0.5 }}>{detail.receipt.number}</Box>&nbsp;(PDF)
              </Button>
            </>
          )}
          {detail.plan && (
            <>
              <Typography component="h2" variant="h3" sx={{ mt: 3, mb: 1 }}>
                Recurring plan
              </Typography>
              <FieldList
                items={[
                  ['Status', PLAN_STATUS_LABELS[detail.plan.status]],
                  ['Amount', `${formatCents(detail.plan.amountCents)} ${FREQUENCY_LABELS[detail.plan.frequency].toLowerCase()}`],
                  ['Next charge', detail.plan.status === 'cancelled' ? '—' : detail.plan.nextChargeOn],
                  ['Charges so far', String(detail.plan.chargeCount)],
                ]}
              />
              <StaffLink to={planPagePath(detail.plan.id)}>The plan&apos;s page: its charges, changes and actions</StaffLink>
            </>
          )}
          {detail.dispute && <Typography sx={{ mt: 2 }}>Disputed by the card holder: {plainCode(detail.dispute.status).toLowerCase()}.</Typography>}
          <DonationHistory detail={detail} />
          {dialog === 'refund' && (
            <RefundDialog
              donationId={id}
              subject={{ ...donation, receiptNumber: detail.receipt?.number ?? null }}
              // Issue #36: a gift of a plan still charging offers to cancel the plan too (for those who may change plans).
              plan={can('plans') && detail.plan && detail.plan.status !== 'cancelled' ? detail.plan : undefined}
              onRefunded={done}
              onClose={() => setDialog(undefined)}
            />
          )}
          {dialog === 'void' && <VoidDialog donationId={id} receiptNumber={detail.receipt?.number ?? null} onVoided={done} onClose={() => setDialog(undefined)} />}
          {dialog === 'email' && (
            <CorrectEmailDialog
              donationId={id}
              currentEmail={donation.email}
              hasPlan={detail.plan !== null}
              donorKey={donation.donorKey}
              receiptResendable={detail.receipt !== null && detail.receipt.voidedAt === null}
              onCorrected={done} onClose={() => setDialog(undefined)} />
          )}
        </>
      )}
    </StaffPage>
  );
}
