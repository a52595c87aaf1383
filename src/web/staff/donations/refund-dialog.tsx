import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type FormEvent, useState } from 'react';
import { REFUND_REASON_MAX_LENGTH, REFUND_REASON_MIN_LENGTH } from '../../../shared/staff/donations-api';
import { StaffApiError } from '../api/staff-fetch';
import { describeError } from '../components/describe-error';
import { formatCents } from '../components/format';
import { signInWithPasskey } from '../identity/session/session-api';
import { refundDonation } from '../api/donation-api';
import { parseRefundAmount } from './refund-amount';
import { describeRefund, type RefundSubject } from './refund-summary';
import { DialogError, DialogFooter } from '../components/dialog-footer';

/** Props of {@link RefundDialog}: the donation, and what to do once refunded (with the sentence to announce) or closed. */
export interface RefundDialogProps {
  donationId: string;
  subject: RefundSubject;
  onRefunded: (message: string) => void;
  onClose: () => void;
}

/**
 * The refund dialog (issue #21): all that is left or a part (in dollars), a required reason, and a sentence that says
 * exactly what the refund will do before "Refund" is pressed. One Idempotency-Key per dialog, so a second press or a
 * retry refunds once. When the server asks for a recent passkey (403 `staff_reauth_required`), the dialog asks the person
 * to confirm with their passkey, then sends the same refund again. Keyboard: focus starts on the first choice, Tab goes
 * through the fields and buttons, Escape closes.
 */
export function RefundDialog({ donationId, subject, onRefunded, onClose }: RefundDialogProps) {
  const leftCents = subject.amountCents - subject.refundedCents;
  const [idempotencyKey] = useState(() => crypto.randomUUID());
  const [whole, setWhole] = useState(true);
  const [amountText, setAmountText] = useState('');
  const [reason, setReason] = useState('');
  const [touched, setTouched] = useState(false);
  const [needsPasskey, setNeedsPasskey] = useState(false);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const amount = whole ? { amountCents: leftCents } : parseRefundAmount(amountText, leftCents);
  const reasonError =
    reason.trim().length < REFUND_REASON_MIN_LENGTH
      ? `Say why the donation is refunded (at least ${REFUND_REASON_MIN_LENGTH} characters)`
      : undefined;

  const send = async () => {
    if (amount.amountCents === undefined || reasonError) return;
    setBusy(true);
    setError(undefined);
    try {
      await refundDonation(donationId, { amountCents: whole ? undefined : amount.amountCents, reason: reason.trim() }, idempotencyKey);
      onRefunded(`Refunded ${formatCents(amount.amountCents)}.`);
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
        <RadioGroup aria-label="How much to refund" value={whole ? 'whole' : 'part'} onChange={(event) => setWhole(event.target.value === 'whole')}>
          <FormControlLabel value="whole" control={<Radio autoFocus={whole} />} label={`All that is left: ${formatCents(leftCents)}`} />
          <FormControlLabel value="part" control={<Radio />} label="Part of it" />
        </RadioGroup>
        {!whole && (
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
        <TextField
          label="Reason"
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          required
          fullWidth
          multiline
          minRows={2}
          margin="dense"
          error={touched && reasonError !== undefined}
          helperText={touched && reasonError ? reasonError : 'Kept in the audit log with your name'}
          slotProps={{ htmlInput: { maxLength: REFUND_REASON_MAX_LENGTH } }}
        />
        <Typography id="refund-summary" sx={{ mt: 2 }} aria-live="polite">
          {amount.amountCents !== undefined ? describeRefund(subject, amount.amountCents) : 'Enter the amount to see what the refund will do.'}
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
            Refund {amount.amountCents !== undefined ? formatCents(amount.amountCents) : ''}
          </Button>
        )}
      </DialogFooter>
      </form>
    </Dialog>
  );
}
