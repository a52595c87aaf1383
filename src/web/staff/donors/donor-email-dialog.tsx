import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormLabel from '@mui/material/FormLabel';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type FormEvent, useState } from 'react';
import type { StaffDonorDetail } from '../../../shared/staff/donors-api';
import { StaffApiError } from '../api/staff-fetch';
import { describeError } from '../components/describe-error';
import { DialogError, DialogFooter } from '../components/dialog-footer';
import { formatCents, formatInstant } from '../components/format';
import { correctEmail } from '../api/donation-api';
import { correctDonorEmail } from '../api/donors-api';

/** Props of {@link DonorEmailDialog}: the donor, and what to do once corrected (the message, the donor's key now) or closed. */
export interface DonorEmailDialogProps {
  donor: StaffDonorDetail;
  onCorrected: (message: string, donorKey: string) => void;
  onClose: () => void;
}

/**
 * "Correct the e-mail" on a donor's page (issue #36, part 1: "a correction is made on the donor: staff choose (a
 * checkbox, ticked) to apply it to every gift, receipt and plan of that address; receipts are resent only where staff
 * ask"): the new address; the checkbox (ticked) that applies it to every gift, receipt and plan, or, unticked, the one
 * gift it corrects (the per-gift correction, decision 0110); and the receipts to send again to it (none ticked).
 */
export function DonorEmailDialog({ donor, onCorrected, onClose }: DonorEmailDialogProps) {
  const [email, setEmail] = useState('');
  const [everywhere, setEverywhere] = useState(true);
  const [giftId, setGiftId] = useState(donor.gifts[0]?.id ?? '');
  const [resend, setResend] = useState<string[]>([]);
  const [fieldError, setFieldError] = useState<string>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const receipts = donor.gifts.filter((gift) => gift.receiptNumber !== null && !gift.receiptVoided);
  const shownReceipts = everywhere ? receipts : receipts.filter((gift) => gift.id === giftId);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    setFieldError(undefined);
    try {
      if (everywhere) {
        const chosen = resend.filter((id) => receipts.some((gift) => gift.id === id));
        const answer = await correctDonorEmail(donor.donorKey, email.trim(), chosen);
        const plans = answer.plansUpdated === 1 ? '1 plan' : `${answer.plansUpdated} plans`;
        const gifts = answer.donationsUpdated === 1 ? '1 gift' : `${answer.donationsUpdated} gifts`;
        onCorrected(
          `The e-mail address is now ${answer.email} on ${gifts} and ${plans}.${answer.receiptsQueued > 0 ? ` ${answer.receiptsQueued} receipt${answer.receiptsQueued === 1 ? ' is' : 's are'} on the way to it.` : ''}`,
          answer.donorKey,
        );
      } else {
        const answer = await correctEmail(giftId, email.trim(), resend.includes(giftId));
        onCorrected(`The e-mail address of that gift is now ${answer.email}.${answer.receiptQueued ? ' Its receipt is on the way to it.' : ''}`, donor.donorKey);
      }
    } catch (caught) {
      if (caught instanceof StaffApiError && caught.fieldErrors.email) setFieldError(caught.fieldErrors.email);
      else setError(describeError(caught));
      setBusy(false);
    }
  };

  const giftLabel = (gift: StaffDonorDetail['gifts'][number]) => `${formatInstant(gift.createdAt)}, ${formatCents(gift.amountCents)}${gift.receiptNumber ? `, receipt ${gift.receiptNumber}` : ''}`;

  return (
    <Dialog open onClose={busy ? undefined : onClose} aria-labelledby="donor-email-title" aria-describedby="donor-email-effect">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <DialogTitle id="donor-email-title">Correct the donor&apos;s e-mail</DialogTitle>
        <DialogContent>
          <Typography id="donor-email-effect" sx={{ mb: 1, overflowWrap: 'anywhere' }}>
            Now {donor.email}. The old address stays in the audit log.
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
          <FormControlLabel
            control={<Checkbox checked={everywhere} onChange={(event) => setEverywhere(event.target.checked)} />}
            label="Apply to every gift, receipt and plan of this address"
          />
          {!everywhere && (
            <TextField select label="The gift to correct" value={giftId} onChange={(event) => setGiftId(event.target.value)} fullWidth margin="dense" slotProps={{ select: { native: true } }}>
              {donor.gifts.map((gift) => (
                <option key={gift.id} value={gift.id}>
                  {giftLabel(gift)}
                </option>
              ))}
            </TextField>
          )}
          {shownReceipts.length > 0 && (
            <FormControl component="fieldset" sx={{ mt: 1, display: 'block' }}>
              <FormLabel component="legend">Send these receipts again to the new address</FormLabel>
              <FormGroup>
              {shownReceipts.map((gift) => (
                <FormControlLabel
                  key={gift.id}
                  control={
                    <Checkbox
                      checked={resend.includes(gift.id)}
                      onChange={(event) => setResend((chosen) => (event.target.checked ? [...chosen, gift.id] : chosen.filter((id) => id !== gift.id)))}
                    />
                  }
                  label={`Receipt ${gift.receiptNumber ?? ''} (${formatCents(gift.amountCents)})`}
                />
              ))}
              </FormGroup>
            </FormControl>
          )}
          <DialogError message={error} />
        </DialogContent>
        <DialogFooter onClose={onClose} busy={busy}>
          <Button type="submit" variant="contained" disabled={busy}>
            Correct the e-mail
          </Button>
        </DialogFooter>
      </form>
    </Dialog>
  );
}
