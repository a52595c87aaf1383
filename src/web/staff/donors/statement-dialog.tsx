import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type FormEvent, useState } from 'react';
import { describeError } from '../components/describe-error';
import { resendStatement } from '../api/donors-api';
import { DialogError, DialogFooter } from '../components/dialog-footer';

/** Props of {@link StatementDialog}: the donor, their address, the years with a statement, and what to do once sent or closed. */
export interface StatementDialogProps {
  donorKey: string;
  email: string;
  years: readonly number[];
  onSent: (message: string) => void;
  onClose: () => void;
}

/**
 * "Send a year's statement again" (issue #22, "A donor's page"): the year (those with a statement, newest first), and
 * where it goes (the address of the donor's latest gift). The server audits it.
 */
export function StatementDialog({ donorKey, email, years, onSent, onClose }: StatementDialogProps) {
  const [year, setYear] = useState(String(years[0] ?? ''));
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const answer = await resendStatement(donorKey, Number(year));
      onSent(`The ${answer.year} statement is on its way to ${answer.recipient}.`);
    } catch (caught) {
      setError(describeError(caught));
      setBusy(false);
    }
  };

  return (
    <Dialog open onClose={busy ? undefined : onClose} aria-labelledby="statement-title" aria-describedby="statement-effect">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <DialogTitle id="statement-title">Send a year-end statement again</DialogTitle>
        <DialogContent>
          <Typography id="statement-effect" sx={{ mb: 2, overflowWrap: 'anywhere' }}>
            The statement lists the year&apos;s gifts that still stand and goes to {email}.
          </Typography>
          <TextField select label="Year" value={year} onChange={(event) => setYear(event.target.value)} fullWidth slotProps={{ select: { native: true } }}>
            {years.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </TextField>
          <DialogError message={error} />
        </DialogContent>
        <DialogFooter onClose={onClose} busy={busy}>
          <Button type="submit" variant="contained" disabled={busy}>
            Send the statement
          </Button>
        </DialogFooter>
      </form>
    </Dialog>
  );
}
