import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Snackbar, { type SnackbarCloseReason } from '@mui/material/Snackbar';
import { useState } from 'react';
import { useTranslation } from '../i18n/use-translation';

/** How long an error snackbar stays, in ms (spec section 9). */
export const ERROR_SNACKBAR_DURATION_MS = 5000;

/** Props of {@link ErrorSnackbar}: the message to show and what closing does. */
export interface ErrorSnackbarProps {
  /** The error's message; the snackbar reads 'Error: {message}' (spec section 8). */
  message: string;
  onClose: () => void;
}

/**
 * The error snackbar of spec section 8: 'Error: {message}' in an error-style alert (the message
 * has role alert) with a 'Close' action, dismissed after 5 seconds. Give each error a new React `key` so a new
 * snackbar replaces the previous one (spec section 4). A click elsewhere does not dismiss it.
 */
export function ErrorSnackbar({ message, onClose }: ErrorSnackbarProps) {
  const { i18n } = useTranslation();
  const [open, setOpen] = useState(true);
  const close = (_event?: unknown, reason?: SnackbarCloseReason) => {
    if (reason === 'clickaway') return;
    setOpen(false);
  };
  return (
    <Snackbar
      open={open}
      autoHideDuration={ERROR_SNACKBAR_DURATION_MS}
      onClose={close}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
      slotProps={{ transition: { onExited: onClose } }}
    >
      <Alert
        severity="error"
        variant="filled"
        // NOTE: the alert role sits on the message alone, so the alert reads exactly
        // 'Error: {message}' (without the button's 'Close') to screen readers and tests.
        role="none"
        slotProps={{ message: { role: 'alert' } }}
        sx={{ width: '100%', alignItems: 'center' }}
        action={
          <Button
            color="inherit"
            size="small"
            onClick={() => close()}
            // The theme's dark focus ring would vanish on the red alert: white on it instead.
            sx={{ '&.Mui-focusVisible': { outlineColor: 'currentColor' } }}
          >
            {i18n._('error.close')}
          </Button>
        }
      >
        {i18n._('error.snackbar', { message })}
      </Alert>
    </Snackbar>
  );
}
