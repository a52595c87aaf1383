import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type FormEvent, useState } from 'react';
import { DONOR_NOTE_MAX_LENGTH, type StaffDonorNote } from '../../../shared/staff/donors-api';
import { StaffApiError } from '../api/staff-fetch';
import { describeError } from '../components/describe-error';
import { formatInstant } from '../components/format';
import { addDonorNote } from '../api/donors-api';

/** Props of {@link DonorNotes}: the donor, their notes (newest first), whether the member may write, and what to do once a note is added. */
export interface DonorNotesProps {
  donorKey: string;
  notes: readonly StaffDonorNote[];
  canWrite: boolean;
  onAdded: (message: string) => void;
}

/**
 * The notes on a donor (issue #36, part 1: "free text, who and when, audited; viewers read them"): each with who wrote
 * it and when, newest first; for finance and admin a form to add one (at most DONOR_NOTE_MAX_LENGTH characters, the
 * server's rules; its message under the field).
 */
export function DonorNotes({ donorKey, notes, canWrite, onAdded }: DonorNotesProps) {
  const [body, setBody] = useState('');
  const [fieldError, setFieldError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setFieldError(undefined);
    try {
      await addDonorNote(donorKey, body);
      setBody('');
      onAdded('The note is added.');
    } catch (caught) {
      setFieldError(caught instanceof StaffApiError && caught.fieldErrors.body ? caught.fieldErrors.body : describeError(caught));
    }
    setBusy(false);
  };

  return (
    <>
      <Typography component="h2" variant="h3" sx={{ mt: 3, mb: 1 }}>
        Notes
      </Typography>
      {notes.length === 0 ? (
        <Typography sx={{ mb: 1 }}>No notes yet.</Typography>
      ) : (
        <Box component="ul" sx={{ m: 0, mb: 1, pl: 2.5 }} aria-label="Notes">
          {notes.map((note) => (
            <li key={note.id}>
              <Typography sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                <bdi>{note.body}</bdi>
              </Typography>
              <Typography variant="body2" sx={{ overflowWrap: 'anywhere' }}>
                {note.authorEmail}, {formatInstant(note.createdAt)}
              </Typography>
            </li>
          ))}
        </Box>
      )}
      {canWrite && (
        <Box component="form" onSubmit={(event: FormEvent) => void submit(event)} noValidate sx={{ maxWidth: '40rem' }}>
          <TextField
            label="New note"
            multiline
            minRows={2}
            fullWidth
            margin="dense"
            value={body}
            onChange={(event) => setBody(event.target.value)}
            error={fieldError !== undefined}
            helperText={fieldError ?? `At most ${DONOR_NOTE_MAX_LENGTH} characters.`}
          />
          <Button type="submit" variant="outlined" disabled={busy}>
            Add the note
          </Button>
        </Box>
      )}
    </>
  );
}
