import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useState } from 'react';
import { useTranslation } from '../../i18n/use-translation';

/**
 * The cancel button of a plan with its one confirmation step (issue #13): a dialog that names the gift, where
 * 'Keep my gift' has the focus first (Escape keeps it too) and 'Yes, cancel my gift' cancels. Keyboard-only works:
 * MUI's Dialog traps the focus and gives it back to the button when it closes.
 */
export function CancelPlan({ giftLabel, busy, onConfirm }: { giftLabel: string; busy: boolean; onConfirm: () => void }) {
  const [open, setOpen] = useState(false);
  const { i18n } = useTranslation();
  return (
    <>
      <Button variant="outlined" color="error" onClick={() => setOpen(true)} disabled={busy}>
        {i18n._('manage.cancel.button')}
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} aria-labelledby="cancel-plan-title" aria-describedby="cancel-plan-text">
        <DialogTitle id="cancel-plan-title">{i18n._('manage.cancel.title', { gift: giftLabel })}</DialogTitle>
        <DialogContent>
          <DialogContentText id="cancel-plan-text">
            {i18n._('manage.cancel.text')}
          </DialogContentText>
        </DialogContent>
        <DialogActions>
          <Button autoFocus onClick={() => setOpen(false)}>
            {i18n._('manage.cancel.keep')}
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
            {i18n._('manage.cancel.confirm')}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
