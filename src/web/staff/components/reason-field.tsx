import TextField from '@mui/material/TextField';
import type { ReactNode } from 'react';

/**
 * The staff's "why" field of an action (a refund's, a cancellation's, a void's reason): a required text of two lines or
 * more, at most `maxLength` characters (the API's limit for that reason), with `helperText` under it, marked invalid
 * when `error` is true. One field, so every reason reads and behaves the same (issue #36, "Every screen speaks plainly").
 */
export function ReasonField({
  label,
  value,
  onChange,
  maxLength,
  helperText,
  error,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  maxLength: number;
  helperText: ReactNode;
  error?: boolean;
}) {
  return (
    <TextField
      label={label}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      required
      fullWidth
      multiline
      minRows={2}
      margin="dense"
      error={error}
      helperText={helperText}
      slotProps={{ htmlInput: { maxLength } }}
    />
  );
}
