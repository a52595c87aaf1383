import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';

/** Query parameter of the passkeys page that asks the member to add a passkey now (after a sign-in by link). */
export const ADD_PASSKEY_PARAM = 'add';

/**
 * The request to add a passkey after a sign-in by e-mailed link (issue #21: "after signing in by link, the page asks
 * them to add a passkey"), with its button; `onAdd` runs the browser's passkey creation.
 */
export function AddPasskeyPrompt({ onAdd, busy }: { onAdd: () => void; busy: boolean }) {
  return (
    <Alert
      severity="info"
      sx={{ mb: 2 }}
      action={
        <Button color="inherit" variant="outlined" onClick={onAdd} disabled={busy}>
          Add a passkey
        </Button>
      }
    >
      You signed in with an e-mailed link. Add a passkey on this device so that you can sign in without one next time.
    </Alert>
  );
}
