import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { type FormEvent, type ReactNode, useId } from 'react';
import { DialogError, DialogFooter } from '../components/dialog-footer';

/** Props of {@link PlanDialog}. */
export interface PlanDialogProps {
  title: string;
  /** What the change will do, said before it is made (the dialog's description). */
  effect: ReactNode;
  /** The dialog's fields. */
  children?: ReactNode;
  /** The submit button's words ("Lower the amount", "Cancel the plan"). */
  submitLabel: string;
  /** True for a change that cannot be undone (the button is red). */
  destructive?: boolean;
  /** Whether the change is being sent (the buttons are disabled; Escape does not close). */
  busy: boolean;
  /** Why the last try failed (the page's useStaffAction actionError), shown in the dialog. */
  error: string | undefined;
  /** Sends the change (the page's `act`); the page closes the dialog once it is made. */
  onSubmit: () => void;
  onClose: () => void;
}

/**
 * The frame of every change of a plan (issue #22, "Actions ... in dialogs"): a title, a sentence saying what the change
 * will do (from the next charge, the donor e-mailed), its fields, and "Keep as it is" / the action. Keyboard: focus goes
 * into the dialog (its first field, or the action), Tab cycles inside, Escape closes; errors are announced (role alert).
 */
export function PlanDialog({ title, effect, children, submitLabel, destructive = false, busy, error, onSubmit, onClose }: PlanDialogProps) {
  const id = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <Dialog open onClose={busy ? undefined : onClose} aria-labelledby={`${id}-title`} aria-describedby={`${id}-effect`}>
      <form onSubmit={submit} noValidate>
        <DialogTitle id={`${id}-title`}>{title}</DialogTitle>
        <DialogContent>
          <Typography id={`${id}-effect`} sx={{ mb: 1 }}>
            {effect}
          </Typography>
          {children}
          <DialogError message={error} />
        </DialogContent>
        <DialogFooter onClose={onClose} busy={busy} closeLabel="Keep as it is">
          <Button type="submit" variant="contained" color={destructive ? 'error' : 'primary'} disabled={busy} autoFocus={children === undefined}>
            {submitLabel}
          </Button>
        </DialogFooter>
      </form>
    </Dialog>
  );
}
