import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import DialogActions from '@mui/material/DialogActions';
import type { ReactNode } from 'react';

/**
 * The error of a staff dialog's last attempt in words, announced as it appears (role alert), below the dialog's
 * fields; renders nothing without one (issue #21: dialogs say what went wrong).
 */
export function DialogError({ message }: { message: string | undefined }) {
  if (!message) return null;
  return (
    <Alert severity="error" role="alert" sx={{ mt: 2 }}>
      {message}
    </Alert>
  );
}

/** Props of {@link DialogFooter}: closing without acting (and its label), whether a request is under way, and the action buttons. */
export interface DialogFooterProps {
  onClose: () => void;
  busy: boolean;
  /** The closing button's text; "Cancel" unless the dialog says better (a plan's "Keep as it is"). */
  closeLabel?: string;
  children: ReactNode;
}

/**
 * The buttons of a staff dialog: the closing one first, then the dialog's own actions (`children`), wrapping on a
 * 320 px screen (WCAG 1.4.10 reflow); every button is disabled while a request is under way, so a double click sends
 * one request.
 */
export function DialogFooter({ onClose, busy, closeLabel = 'Cancel', children }: DialogFooterProps) {
  return (
    <DialogActions sx={{ flexWrap: 'wrap', gap: 1 }}>
      <Button onClick={onClose} disabled={busy}>
        {closeLabel}
      </Button>
      {children}
    </DialogActions>
  );
}
