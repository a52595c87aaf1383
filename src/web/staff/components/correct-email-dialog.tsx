import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type FormEvent, useState } from 'react';
import { StaffApiError } from '../api/staff-fetch';
import { describeError } from './describe-error';
import { correctEmail } from '../api/donation-api';
import { correctDonorEmail } from '../api/donors-api';
import { DialogError, DialogFooter } from './dialog-footer';

/** Props of {@link CorrectEmailDialog}: the donation, its current address, and what to do once corrected or closed. */
export interface CorrectEmailDialogProps {
  donationId: string;
  currentEmail: string;
  hasPlan: boolean;
  /**
   * The gift's donor (issue #36): with it, the dialog offers (ticked) to apply the correction to every gift, receipt
   * and plan of the address; without it (the mail page), it corrects this gift only.
   */
  donorKey?: string;
  /** Whether the gift has a receipt that is not void (one the donor-wide correction may send again). */
  receiptResendable?: boolean;
  onCorrected: (message: string) => void;
  onClose: () => void;
}

/**
 * "Correct the donor's e-mail, then resend" (issue #21): the new address (the donor form's rules, checked by the
 * server), and whether to resend the receipt to it now (on by default). Says what changes: this donation's receipts
 * and, when it has one, its recurring plan's e-mails go to the new address; the old one stays in the audit log.
 */
export function CorrectEmailDialog({ donationId, currentEmail, hasPlan, donorKey, receiptResendable = true, onCorrected, onClose }: CorrectEmailDialogProps) {
  const [email, setEmail] = useState('');
  const [everywhere, setEverywhere] = useState(donorKey !== undefined);
  const [resend, setResend] = useState(true);
  const [fieldError, setFieldError] = useState<string>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    setFieldError(undefined);
    try {
      if (everywhere && donorKey !== undefined) {
        const answer = await correctDonorEmail(donorKey, email.trim(), resend && receiptResendable ? [donationId] : []);
        onCorrected(
          `The e-mail address is now ${answer.email} on ${answer.donationsUpdated} gift${answer.donationsUpdated === 1 ? '' : 's'} and ${answer.plansUpdated} plan${answer.plansUpdated === 1 ? '' : 's'}.${answer.receiptsQueued > 0 ? ' The receipt is on its way to it.' : ''}`,
        );
      } else {
        const answer = await correctEmail(donationId, email.trim(), resend);
        onCorrected(`The e-mail address is now ${answer.email}.${answer.receiptQueued ? ` The receipt is on its way to it.` : ''}`);
      }
    } catch (caught) {
      if (caught instanceof StaffApiError && caught.fieldErrors.email) setFieldError(caught.fieldErrors.email);
      else setError(describeError(caught));
      setBusy(false);
    }
  };

  return (
    <Dialog open onClose={busy ? undefined : onClose} aria-labelledby="correct-email-title" aria-describedby="correct-email-effect">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <DialogTitle id="correct-email-title">Correct the donor&apos;s e-mail</DialogTitle>
        <DialogContent>
          <Typography id="correct-email-effect" sx={{ mb: 1, overflowWrap: 'anywhere' }}>
            Now {currentEmail}.{' '}
            {everywhere
              ? 'From now on every gift, receipt and plan of this address goes to the new address'
              : `From now on this donation’s receipts${hasPlan ? ' and its recurring plan’s e-mails' : ''} go to the new address`}
            ; the old one stays in the audit log.
          </Typography>
          <TextField
            label="New email address"
            type="email"
            autoComplete="off"
            autoFocus
            required
            fullWidth
            margin="dense"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            error={fieldError !== undefined}
            helperText={fieldError}
          />
          {donorKey !== undefined && (
            <FormControlLabel
              control={<Checkbox checked={everywhere} onChange={(event) => setEverywhere(event.target.checked)} />}
              label="Apply to every gift, receipt and plan of this address"
            />
          )}
          <FormControlLabel control={<Checkbox checked={resend} onChange={(event) => setResend(event.target.checked)} />} label="Resend the receipt to the new address" />
          <DialogError message={error} />
        </DialogContent>
        <DialogFooter onClose={onClose} busy={busy}>
          <Button type="submit" variant="contained" disabled={busy}>
            {resend ? 'Correct and resend' : 'Correct the e-mail'}
          </Button>
        </DialogFooter>
      </form>
    </Dialog>
  );
}
