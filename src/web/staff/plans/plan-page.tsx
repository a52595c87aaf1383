import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import { ReasonField } from '../components/reason-field';
import Typography from '@mui/material/Typography';
import { type ReactNode, useState } from 'react';
import { useParams } from 'react-router';
import { CAUSE_DETAILS, CAUSES, type Cause } from '../../../shared/causes';
import { FREQUENCY_LABELS } from '../../../shared/frequencies';
import { dollarsToCents } from '../../../shared/money';
import { REFUND_REASON_MAX_LENGTH } from '../../../shared/staff/donations-api';
import type { StaffPlanDetail } from '../../../shared/staff/plans-api';
import { PageLoading } from '../../components/page-loading';
import { StaffApiError } from '../api/staff-fetch';
import { formatCents, formatInstant } from '../components/format';
import { PageError } from '../components/page-error';
import { HeadedTable } from '../components/scroll-table';
import { StaffLink } from '../components/staff-link';
import { StaffPage } from '../components/staff-page';
import { useStaffAction } from '../components/use-staff-action';
import { useStaffData } from '../components/use-staff-data';
import { describePayment, DONATION_STATUS_LABELS, plainCode } from '../components/donation-labels';
import { FieldList } from '../components/donation-fields';
import { signInWithPasskey } from '../identity/session/session-api';
import { useStaffSession } from '../identity/session/staff-session-context';
import { donationPagePath, donorPagePath, STAFF_PAGES } from '../staff-paths';
import { PlanDialog } from './plan-dialog';
import { PLAN_STATUS_LABELS, planActionLabel, planActorLabel } from '../components/plan-labels';
import { changePlan, fetchPlan, sendManageLink, type PlanChangeBody } from '../api/plans-api';

/** The dialogs of a plan's page. */
type DialogKind = 'amount' | 'cause' | 'pause' | 'cancel';

/** Said of every change: when it counts from, and that the donor hears of it (issue #22, "Actions"). */
const FROM_NEXT_CHARGE = 'It counts from the next charge, and the donor is e-mailed about it as if they had made it.';

/** A plan's amount and frequency in words: `$30.00 monthly`. */
function amountOf(plan: Pick<StaffPlanDetail, 'amountCents' | 'frequency'>, amountCents = plan.amountCents): string {
  return `${formatCents(amountCents)} ${FREQUENCY_LABELS[plan.frequency].toLowerCase()}`;
}

/** The plan's fields (issue #22, "A plan's page"): donor, amount, cause, card, next charge, dunning state. */
function PlanFields({ plan }: { plan: StaffPlanDetail }) {
  const { dunning } = plan;
  return (
    <FieldList
      items={[
        ['Donor', <>{plan.donor.name ? <bdi>{plan.donor.name}</bdi> : 'Anonymous'}, <StaffLink to={donorPagePath(plan.donor.donorKey)}><bdi>{plan.donor.email}</bdi></StaffLink></>],
        ['Amount', `${amountOf(plan)} ${plan.currency}`],
        ['Cause', CAUSE_DETAILS[plan.cause].displayName],
        ['Status', `${PLAN_STATUS_LABELS[plan.status]}${plan.pausedUntil ? ` until ${plan.pausedUntil}` : ''}`],
        ['Next charge', plan.nextChargeOn ?? '—'],
        ['Card', `${plan.card.brand} •••• ${plan.card.last4}, expires ${String(plan.card.expiryMonth).padStart(2, '0')}/${plan.card.expiryYear}`],
        ['Charges so far', String(plan.chargeCount)],
        ['Renewal retries', dunning ? `Retry ${dunning.retry} of ${dunning.retriesTotal} on ${formatInstant(dunning.nextRetryAt)} (declined since ${formatInstant(dunning.pastDueSince)})` : 'None: no renewal is failing'],
        ['Started', formatInstant(plan.createdAt)],
        ['First gift', <StaffLink key="first" to={donationPagePath(plan.firstDonationId)}>The first donation</StaffLink>],
        ['Payment', describePayment(plan.gateway, plan.mode)],
        ...(plan.cancelReason ? [['Cancelled because', <bdi key="reason" style={{ whiteSpace: 'pre-line' }}>{plan.cancelReason}</bdi>] satisfies [string, ReactNode]] : []),
      ]}
    />
  );
}

/** Every charge of the plan with its receipt and outcome, newest first, each linking to its donation. */
function PlanCharges({ plan }: { plan: StaffPlanDetail }) {
  return (
    <HeadedTable label="Charges" headers={['Date', 'Amount', 'Outcome', 'Receipt']}>
      {plan.charges.map((charge) => (
        <TableRow key={charge.donationId}>
          <TableCell>
            <StaffLink to={donationPagePath(charge.donationId)}>{charge.date}</StaffLink>
            {charge.attempt > 1 ? ` (try ${charge.attempt})` : ''}
          </TableCell>
          <TableCell>
            {formatCents(charge.amountCents)}
            {charge.refundedCents > 0 ? `, ${formatCents(charge.refundedCents)} refunded` : ''}
          </TableCell>
          <TableCell>
            {DONATION_STATUS_LABELS[charge.status]}
            {charge.declineCode ? ` (${plainCode(charge.declineCode).toLowerCase()})` : ''}
          </TableCell>
          <TableCell>{charge.receiptNumber ?? '—'}</TableCell>
        </TableRow>
      ))}
    </HeadedTable>
  );
}

/** Every change of the plan, newest first, with who made it. */
function PlanChanges({ plan }: { plan: StaffPlanDetail }) {
  if (plan.changes.length === 0) return <Typography sx={{ mb: 2 }}>No change recorded yet.</Typography>;
  return (
    <HeadedTable label="Changes" headers={['When', 'Change', 'By', 'Details']}>
      {plan.changes.map((change) => (
        <TableRow key={change.id}>
          <TableCell>{formatInstant(change.createdAt)}</TableCell>
          <TableCell>{planActionLabel(change.action)}</TableCell>
          <TableCell sx={{ overflowWrap: 'anywhere' }}>{planActorLabel(change.actorType, change.staffEmail)}</TableCell>
          <TableCell sx={{ overflowWrap: 'anywhere' }}>{describeDetails(change.details)}</TableCell>
        </TableRow>
      ))}
    </HeadedTable>
  );
}

/** A change's details in words (amounts in dollars). */
function describeDetails(details: Record<string, unknown> | null): string {
  if (!details) return '—';
  const words: string[] = [];
  if (typeof details.fromAmountCents === 'number' && typeof details.toAmountCents === 'number') words.push(`${formatCents(details.fromAmountCents)} → ${formatCents(details.toAmountCents)}`);
  if (typeof details.fromCause === 'string' && typeof details.toCause === 'string') words.push(`${causeName(details.fromCause)} → ${causeName(details.toCause)}`);
  if (typeof details.until === 'string') words.push(`until ${details.until}`);
  if (details.until === null) words.push('until resumed');
  if (typeof details.nextChargeOn === 'string') words.push(`next charge ${details.nextChargeOn}`);
  if (typeof details.retryAt === 'string') words.push(`retry on ${formatInstant(details.retryAt)}`);
  if (typeof details.cardLast4 === 'string') words.push(`card •••• ${details.cardLast4}`);
  return words.length > 0 ? words.join('; ') : '—';
}

/** A cause's name, or the text itself for a cause no longer offered. */
function causeName(cause: string): string {
  return (CAUSES as readonly string[]).includes(cause) ? CAUSE_DETAILS[cause as Cause].displayName : cause;
}

/**
 * `/staff/plans/<id>` (issue #22, "A plan's page"): the plan, its charges and changes; for finance and admin the
 * actions (absent for a viewer: the API refuses them anyway): change the amount or the cause, pause (until a date or
 * until resumed), resume, cancel (optionally refunding the last charge: a passkey confirmed within 15 minutes), and
 * e-mail the donor their manage link. Each runs through useStaffAction: its outcome announced, the plan read again.
 */
export function PlanPage() {
  const { id = '' } = useParams();
  const { can } = useStaffSession();
  const { data: plan, error: loadError, reload } = useStaffData(fetchPlan, id);
  const { busy, actionError, status, act, clear } = useStaffAction(reload);
  const [dialog, setDialog] = useState<DialogKind>();
  const [amountText, setAmountText] = useState('');
  const [amountError, setAmountError] = useState<string>();
  const [cause, setCause] = useState<Cause>(CAUSES[0]);
  const [pauseUntil, setPauseUntil] = useState('');
  const [refund, setRefund] = useState(false);
  const [reason, setReason] = useState('');
  const [needsPasskey, setNeedsPasskey] = useState(false);
  const [idempotencyKey, setIdempotencyKey] = useState('');

  const open = (kind: DialogKind) => {
    if (!plan) return;
    clear();
    setAmountText((plan.amountCents / 100).toFixed(2));
    setAmountError(undefined);
    setCause(plan.cause);
    setPauseUntil('');
    setRefund(false);
    setReason('');
    setNeedsPasskey(false);
    // NOTE: one Idempotency-Key per cancel dialog, so a retry (after a passkey confirmation, or a lost answer) refunds once.
    setIdempotencyKey(crypto.randomUUID());
    setDialog(kind);
  };
  /** Sends `body`; closes the dialog once it is made. */
  const send = (body: PlanChangeBody, done: string, key?: string) =>
    act(async () => {
      try {
        await changePlan(id, body, key);
      } catch (caught) {
        if (caught instanceof StaffApiError && caught.code === 'staff_reauth_required') setNeedsPasskey(true);
        if (caught instanceof StaffApiError && caught.fieldErrors.amountCents) setAmountError(caught.fieldErrors.amountCents);
        throw caught;
      }
      setDialog(undefined);
    }, done);

  const submitAmount = () => {
    const text = amountText.trim();
    if (!/^\d+(\.\d{1,2})?$/.test(text)) {
      setAmountError('Enter an amount in dollars, like 15.00');
      return;
    }
    setAmountError(undefined);
    const amountCents = dollarsToCents(Number(text));
    void send({ action: 'change_amount', amountCents }, `The amount is now ${plan ? amountOf(plan, amountCents) : formatCents(amountCents)} from the next charge. The donor is e-mailed.`);
  };
  const submitCancel = () => {
    const body: PlanChangeBody = refund ? { action: 'cancel', refundLastCharge: true, reason: reason.trim() } : { action: 'cancel' };
    const done = refund ? 'The plan is cancelled and its last charge refunded. The donor is e-mailed.' : 'The plan is cancelled: it is never charged again. The donor is e-mailed.';
    void send(body, done, refund ? idempotencyKey : undefined);
  };
  const confirmPasskeyAndCancel = () =>
    act(async () => {
      await signInWithPasskey();
      setNeedsPasskey(false);
      await changePlan(id, { action: 'cancel', refundLastCharge: true, reason: reason.trim() }, idempotencyKey);
      setDialog(undefined);
    }, 'The plan is cancelled and its last charge refunded. The donor is e-mailed.');

  const error = actionError ?? loadError;
  const changeable = plan && plan.status !== 'cancelled';
  const lastCharge = plan?.lastCharge;
  return (
    <StaffPage title={plan ? `Plan of ${amountOf(plan)} by ${plan.donor.name || 'Anonymous'}` : 'Recurring plan'}>
      <Typography sx={{ mb: 2 }}>
        <StaffLink to={STAFF_PAGES.plans}>All plans</StaffLink>
      </Typography>
      {!dialog && <PageError message={error} />}
      <Typography role="status" sx={{ mb: status ? 2 : 0, fontWeight: 600 }}>
        {status}
      </Typography>
      {!plan ? (
        !error && <PageLoading />
      ) : (
        <>
          {can('plans') && changeable && (
            <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, mb: 3 }}>
              <Button variant="outlined" onClick={() => open('amount')} disabled={busy}>
                Change the amount
              </Button>
              <Button variant="outlined" onClick={() => open('cause')} disabled={busy}>
                Change the cause
              </Button>
              {plan.status === 'paused' ? (
                <Button variant="outlined" onClick={() => void act(() => changePlan(id, { action: 'resume' }).then(() => undefined), 'The plan is active again from its next charge date. The donor is e-mailed.')} disabled={busy}>
                  Resume
                </Button>
              ) : null}
              <Button variant="outlined" onClick={() => open('pause')} disabled={busy}>
                {plan.status === 'paused' ? 'Change the pause' : 'Pause'}
              </Button>
              <Button variant="outlined" onClick={() => void act(async () => void (await sendManageLink(id)), 'The donor is e-mailed the link to manage their gift.')} disabled={busy}>
                E-mail the manage link
              </Button>
              <Button variant="contained" color="error" onClick={() => open('cancel')} disabled={busy}>
                Cancel the plan
              </Button>
            </Box>
          )}
          <PlanFields plan={plan} />
          <Typography component="h2" variant="h3" sx={{ mt: 3, mb: 1 }}>
            Charges
          </Typography>
          <PlanCharges plan={plan} />
          <Typography component="h2" variant="h3" sx={{ mt: 3, mb: 1 }}>
            Changes
          </Typography>
          <PlanChanges plan={plan} />
          {dialog === 'amount' && (
            <PlanDialog title="Change the amount" effect={`Now ${amountOf(plan)}. ${FROM_NEXT_CHARGE}`} submitLabel="Change the amount" busy={busy} error={amountError ? undefined : actionError} onSubmit={submitAmount} onClose={() => setDialog(undefined)}>
              <TextField
                label="New amount ($)"
                value={amountText}
                onChange={(event) => setAmountText(event.target.value)}
                required
                fullWidth
                autoFocus
                margin="dense"
                error={amountError !== undefined}
                helperText={amountError ?? `Charged ${FREQUENCY_LABELS[plan.frequency].toLowerCase()}`}
                slotProps={{ htmlInput: { inputMode: 'decimal' } }}
              />
            </PlanDialog>
          )}
          {dialog === 'cause' && (
            <PlanDialog title="Change the cause" effect={`Now ${CAUSE_DETAILS[plan.cause].displayName}. ${FROM_NEXT_CHARGE}`} submitLabel="Change the cause" busy={busy} error={actionError} onSubmit={() => void send({ action: 'change_cause', cause }, `The gift now goes to ${CAUSE_DETAILS[cause].displayName} from the next charge. The donor is e-mailed.`)} onClose={() => setDialog(undefined)}>
              <TextField label="Cause" select fullWidth autoFocus margin="dense" value={cause} onChange={(event) => setCause(event.target.value as Cause)} slotProps={{ select: { native: true } }}>
                {CAUSES.map((value) => (
                  <option key={value} value={value}>
                    {CAUSE_DETAILS[value].displayName}
                  </option>
                ))}
              </TextField>
            </PlanDialog>
          )}
          {dialog === 'pause' && (
            <PlanDialog
              title="Pause the plan"
              effect={`No charge is made while it is paused: until the date below (it then resumes on its own), or, without a date, until it is resumed. ${FROM_NEXT_CHARGE}`}
              submitLabel={pauseUntil ? `Pause until ${pauseUntil}` : 'Pause until resumed'}
              busy={busy}
              error={actionError}
              onSubmit={() => void send(pauseUntil ? { action: 'pause', until: pauseUntil } : { action: 'pause' }, pauseUntil ? `The plan is paused until ${pauseUntil}. The donor is e-mailed.` : 'The plan is paused until it is resumed. The donor is e-mailed.')}
              onClose={() => setDialog(undefined)}
            >
              <TextField
                label="Pause until (leave empty: until resumed)"
                type="date"
                fullWidth
                autoFocus
                margin="dense"
                value={pauseUntil}
                onChange={(event) => setPauseUntil(event.target.value)}
                slotProps={{ inputLabel: { shrink: true } }}
              />
            </PlanDialog>
          )}
          {dialog === 'cancel' && (
            <PlanDialog
              title="Cancel the plan"
              effect="The plan is never charged again, and the donor is e-mailed as if they had cancelled it. This cannot be undone."
              submitLabel={refund ? 'Cancel and refund' : 'Cancel the plan'}
              destructive
              busy={busy}
              error={actionError}
              onSubmit={submitCancel}
              onClose={() => setDialog(undefined)}
            >
              {can('refund') && lastCharge && lastCharge.refundableCents > 0 && (
                <>
                  <FormControlLabel
                    control={<Checkbox autoFocus checked={refund} onChange={(event) => setRefund(event.target.checked)} />}
                    label={`Also refund the last charge: ${formatCents(lastCharge.refundableCents)}${lastCharge.receiptNumber ? `, receipt ${lastCharge.receiptNumber}` : ''}`}
                  />
                  {refund && (
                    <ReasonField label="Reason for the refund" value={reason} onChange={setReason} maxLength={REFUND_REASON_MAX_LENGTH} helperText="Kept in the audit log with your name" />
                  )}
                </>
              )}
              {needsPasskey && (
                <Box sx={{ mt: 2 }}>
                  <Typography sx={{ mb: 1 }}>Refunds need a passkey sign-in within the last 15 minutes.</Typography>
                  <Button variant="contained" onClick={() => void confirmPasskeyAndCancel()} disabled={busy}>
                    Confirm with your passkey, then cancel and refund
                  </Button>
                </Box>
              )}
            </PlanDialog>
          )}
        </>
      )}
    </StaffPage>
  );
}
