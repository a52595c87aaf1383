import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type FormEvent, useId, useState } from 'react';
import { OFFLINE_VOID_REASON_MAX_LENGTH } from '../../../shared/offline-gifts';
import { describeError } from '../components/describe-error';
import { DialogError, DialogFooter } from '../components/dialog-footer';
import { voidOfflineGift } from '../api/offline-gifts-api';

/**
 * The void of a gift received outside the site (issue #37, "Correcting one"): a required reason (a bounced cheque, a
 * mistyped amount); no money moves. Says what will happen before "Void" is pressed. `onVoided` gets the sentence to announce.
 */
export function VoidDialog({ donationId, receiptNumber, onVoided, onClose }: { donationId: string; receiptNumber: string | null; onVoided: (message: string) => void; onClose: () => void }) {
  const id = useId();
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const answer = await voidOfflineGift(donationId, reason);
      onVoided(`The gift is voided${answer.receiptVoided ? ` and receipt ${receiptNumber ?? ''} with it` : ''}${answer.donorNotified ? '; the donor is told by e-mail.' : '.'}`);
    } catch (caught) {
      setError(describeError(caught));
      setBusy(false);
    }
  };
  return (
    <Dialog open onClose={busy ? undefined : onClose} aria-labelledby={`${id}-title`} fullWidth maxWidth="sm">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <DialogTitle id={`${id}-title`}>Void this gift</DialogTitle>
        <DialogContent>
          <Typography sx={{ mb: 1 }}>
            The gift stops counting in every figure and its receipt is voided. No money moves. If its receipt was e-mailed, the donor is told.
          </Typography>
          <TextField
            id={`${id}-reason`}
            label="Reason"
            helperText="For example: cheque bounced, amount mistyped"
            value={reason}
            onChange={(event) => setReason(event.target.value)}
            required
            fullWidth
            margin="dense"
            autoFocus
            slotProps={{ htmlInput: { maxLength: OFFLINE_VOID_REASON_MAX_LENGTH }, inputLabel: { shrink: true } }}
          />
          <DialogError message={error} />
        </DialogContent>
        <DialogFooter onClose={onClose} busy={busy}>
          <Button type="submit" variant="contained" color="error" disabled={busy}>
            Void
          </Button>
        </DialogFooter>
      </form>
    </Dialog>
  );
}
