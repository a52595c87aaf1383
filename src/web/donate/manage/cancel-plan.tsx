import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useState } from 'react';

/**
 * The cancel button of a plan with its one confirmation step (issue #13): a dialog that names the gift, where
 * 'Keep my gift' has the focus first (Escape keeps it too) and 'Yes, cancel my gift' cancels. Keyboard-only works:
 * MUI's Dialog traps the focus and gives it back to the button when it closes.
 */
export function CancelPlan({ giftLabel, busy, onConfirm }: { giftLabel: string; busy: boolean; onConfirm: () => void }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="outlined" color="error" onClick={() => setOpen(true)} disabled={busy}>
        Cancel Gift
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} aria-labelledby="cancel-plan-title" aria-describedby="cancel-plan-text">
        <DialogTitle id="cancel-plan-title">Cancel your {giftLabel} gift?</DialogTitle>
        <DialogContent>
          <DialogContentText id="cancel-plan-text">
            Nothing more will be charged. Your past gifts and their receipts stay as they are. You can give again at any time.
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button autoFocus onClick={() => setOpen(false)}>
            Keep My Gift
          </Button>
          <Button
            color="error"
            variant="contained"
            disabled={busy}
            onClick={() => {
              setOpen(false);
              onConfirm();
            }}
          >
            Yes, Cancel My Gift
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
