import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import { ReasonField } from '../components/reason-field';
import Typography from '@mui/material/Typography';
import { type FormEvent, useState } from 'react';
import { FREQUENCY_LABELS, type Frequency } from '../../../shared/frequencies';
import { REFUND_REASON_MAX_LENGTH, REFUND_REASON_MIN_LENGTH } from '../../../shared/staff/donations-api';
import { CANCEL_REASON_MAX_LENGTH } from '../../../shared/staff/plans-api';
import { StaffApiError } from '../api/staff-fetch';
import { describeError } from '../components/describe-error';
import { formatCents } from '../components/format';
import { signInWithPasskey } from '../identity/session/session-api';
import { changePlan } from '../api/plans-api';
import { refundDonation } from '../api/donation-api';
import { parseRefundAmount } from './refund-amount';
import { describeRefund, type RefundSubject } from './refund-summary';
import { DialogError, DialogFooter } from '../components/dialog-footer';

/** A recurring plan still charging, which the dialog offers to cancel with the refund (issue #36, part 3). */
export interface RefundDialogPlan {
  id: string;
  amountCents: number;
  frequency: Frequency;
}

/**
 * Props of {@link RefundDialog}: the donation, the plan it belongs to when that plan still charges, and what to do
 * once refunded (with the sentence to announce) or closed.
 */
export interface RefundDialogProps {
  donationId: string;
  subject: RefundSubject;
  plan?: RefundDialogPlan | undefined;
  onRefunded: (message: string) => void;
  onClose: () => void;
}

/**
 * The refund dialog (issue #21): all that is left or a part (in dollars; neither chosen until staff choose one: issue
 * #36), a required reason, and a sentence that says exactly what the refund will do before "Refund" is pressed. For a
 * gift of a plan still charging, a box (unticked) to cancel the plan as well, with the cancel's own reason: the refund
 * is sent first, then the cancel, two actions each audited by the API (issue #36, part 3). One Idempotency-Key per dialog, so a second press or a
 * retry refunds once. When the server asks for a recent passkey (403 `staff_reauth_required`), the dialog asks the person
 * to confirm with their passkey, then sends the same refund again. Keyboard: focus starts on the first choice, Tab goes
 * through the fields and buttons, Escape closes.
 */
export function RefundDialog({ donationId, subject, plan, onRefunded, onClose }: RefundDialogProps) {
  const leftCents = subject.amountCents - subject.refundedCents;
  const [idempotencyKey] = useState(() => crypto.randomUUID());
  const [choice, setChoice] = useState<'whole' | 'part'>();
  const whole = choice === 'whole';
  const [cancelPlan, setCancelPlan] = useState(false);
  const [cancelReason, setCancelReason] = useState('');
  /** The refund's sentence once it is made (a cancel that then fails is tried again alone). */
  const [refunded, setRefunded] = useState<string>();
  const [amountText, setAmountText] = useState('');
  const [reason, setReason] = useState('');
  const [touched, setTouched] = useState(false);
  const [needsPasskey, setNeedsPasskey] = useState(false);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const amount: { amountCents?: number; error?: string } =
    choice === undefined ? { error: 'Choose how much to refund' } : whole ? { amountCents: leftCents } : parseRefundAmount(amountText, leftCents);
  const reasonError =
    reason.trim().length < REFUND_REASON_MIN_LENGTH
      ? `Say why the donation is refunded (at least ${REFUND_REASON_MIN_LENGTH} characters)`
      : undefined;
  const cancelReasonError =
    cancelPlan && cancelReason.trim().length < REFUND_REASON_MIN_LENGTH ? `Say why the plan is cancelled (at least ${REFUND_REASON_MIN_LENGTH} characters)` : undefined;

  const send = async () => {
    if (amount.amountCents === undefined || reasonError || cancelReasonError) return;
    setBusy(true);
    setError(undefined);
    try {
      const refundSentence = refunded ?? `Refunded ${formatCents(amount.amountCents)}.`;
      if (refunded === undefined) {
        await refundDonation(donationId, { amountCents: whole ? undefined : amount.amountCents, reason: reason.trim() }, idempotencyKey);
        setRefunded(refundSentence);
      }
      if (plan && cancelPlan) {
        await changePlan(plan.id, { action: 'cancel', cancelReason: cancelReason.trim() });
        onRefunded(`${refundSentence} The plan is cancelled: it is never charged again. The donor is e-mailed.`);
      } else {
        onRefunded(refundSentence);
      }
    } catch (caught) {
      if (caught instanceof StaffApiError && caught.code === 'staff_reauth_required') setNeedsPasskey(true);
      else setError(describeError(caught));
      setBusy(false);
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    void send();
  };

  const confirmAndRetry = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await signInWithPasskey();
      setNeedsPasskey(false);
    } catch (caught) {
      setError(describeError(caught));
      setBusy(false);
      return;
    }
    await send();
  };

  return (
    <Dialog open onClose={busy ? undefined : onClose} aria-labelledby="refund-title" aria-describedby="refund-summary">
      <form onSubmit={submit} noValidate>
      <DialogTitle id="refund-title">Refund this donation</DialogTitle>
      <DialogContent>
        <RadioGroup aria-label="How much to refund" aria-describedby="refund-choice-help" value={choice ?? ''} onChange={(event) => setChoice(event.target.value === 'whole' ? 'whole' : 'part')}>
          <FormControlLabel value="whole" control={<Radio autoFocus />} label={`All that is left: ${formatCents(leftCents)}`} disabled={refunded !== undefined} />
          <FormControlLabel value="part" control={<Radio />} label="Part of it" disabled={refunded !== undefined} />
        </RadioGroup>
        <FormHelperText id="refund-choice-help" error={touched && choice === undefined}>
          {touched && choice === undefined ? 'Choose how much to refund' : 'Nothing is chosen until you choose'}
        </FormHelperText>
        {choice === 'part' && (
          <TextField
            label="Amount to refund ($)"
            value={amountText}
            onChange={(event) => setAmountText(event.target.value)}
            required
            fullWidth
            margin="dense"
            error={touched && amount.error !== undefined}
            helperText={touched ? amount.error : `Up to ${formatCents(leftCents)}`}
            slotProps={{ htmlInput: { inputMode: 'decimal' } }}
          />
        )}
        <ReasonField label="Reason" value={reason} onChange={setReason} maxLength={REFUND_REASON_MAX_LENGTH} error={touched && reasonError !== undefined} helperText={touched && reasonError ? reasonError : 'Kept in the audit log with your name'} />
        {plan && (
          <>
            <FormControlLabel
              sx={{ mt: 1 }}
              control={<Checkbox checked={cancelPlan} onChange={(event) => setCancelPlan(event.target.checked)} />}
              label={`Also cancel the plan (${formatCents(plan.amountCents)} ${FREQUENCY_LABELS[plan.frequency].toLowerCase()}): it is never charged again`}
            />
            {cancelPlan && (
              <ReasonField label="Reason for cancelling the plan" value={cancelReason} onChange={setCancelReason} maxLength={CANCEL_REASON_MAX_LENGTH} error={touched && cancelReasonError !== undefined} helperText={touched && cancelReasonError ? cancelReasonError : 'Kept with the plan and in the audit log with your name'} />
            )}
          </>
        )}
        <Typography id="refund-summary" sx={{ mt: 2 }} aria-live="polite">
          {refunded
            ? `${refunded} The plan is not cancelled yet: press the button to try again.`
            : amount.amountCents !== undefined
              ? describeRefund(subject, amount.amountCents)
              : choice === undefined
                ? 'Choose how much to refund to see what the refund will do.'
                : 'Enter the amount to see what the refund will do.'}
        </Typography>
        {needsPasskey && (
          <Alert severity="warning" role="alert" sx={{ mt: 2 }}>
            Refunds need a passkey sign-in within the last 15 minutes. Confirm it is you with your passkey; the refund is then sent.
          </Alert>
        )}
        <DialogError message={error} />
      </DialogContent>
      <DialogFooter onClose={onClose} busy={busy}>
        {needsPasskey ? (
          <Button variant="contained" onClick={() => void confirmAndRetry()} disabled={busy}>
            Confirm with your passkey and refund
          </Button>
        ) : (
          <Button type="submit" variant="contained" color="error" disabled={busy}>
            {refunded ? 'Cancel the plan' : `Refund ${amount.amountCents !== undefined ? formatCents(amount.amountCents) : ''}${plan && cancelPlan ? ' and cancel the plan' : ''}`}
          </Button>
        )}
      </DialogFooter>
      </form>
    </Dialog>
  );
}
