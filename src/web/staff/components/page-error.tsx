import Alert from '@mui/material/Alert';

/**
 * A page's error in words (issue #21: pages say what went wrong rather than failing obscurely), announced to screen
 * readers as it appears (role alert). Renders nothing without a message.
 */
export function PageError({ message }: { message: string | undefined }) {
  if (!message) return null;
  return (
    <Alert severity="error" role="alert" sx={{ my: 2 }}>
      {message}
    </Alert>
  );
}
