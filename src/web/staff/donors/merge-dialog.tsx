import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type FormEvent, useState } from 'react';
import type { StaffDonorDetail, StaffDonorRow } from '../../../shared/staff/donors-api';
import { describeError } from '../components/describe-error';
import { DialogError, DialogFooter } from '../components/dialog-footer';
import { formatCents } from '../components/format';
import { fetchDonors, mergeDonor } from '../api/donors-api';

/** Props of {@link MergeDialog}: the donor kept, and what to do once merged or closed. */
export interface MergeDialogProps {
  donor: StaffDonorDetail;
  onMerged: (message: string) => void;
  onClose: () => void;
}

/**
 * "Merge another donor into this one" (issue #36, part 1; decision 0110): staff search the donors list for the other
 * record (a typo, a second address), choose it, and merge; this donor is kept, and every gift, plan and receipt of the
 * other moves to it. Says that the merge can be undone for 30 days.
 */
export function MergeDialog({ donor, onMerged, onClose }: MergeDialogProps) {
  const [query, setQuery] = useState('');
  const [found, setFound] = useState<StaffDonorRow[]>();
  const [chosen, setChosen] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const search = async () => {
    setError(undefined);
    setBusy(true);
    try {
      const answer = await fetchDonors(new URLSearchParams({ q: query.trim(), pageSize: '10' }).toString());
      const others = answer.rows.filter((row) => row.donorKey !== donor.donorKey);
      setFound(others);
      setChosen(others[0]?.donorKey ?? '');
    } catch (caught) {
      setError(describeError(caught));
    }
    setBusy(false);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!chosen) {
      await search();
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      const answer = await mergeDonor(donor.donorKey, chosen);
      const merged = found?.find((row) => row.donorKey === chosen)?.email ?? 'The other donor';
      onMerged(`${merged} is merged into this donor: ${answer.donationsMoved} gift${answer.donationsMoved === 1 ? '' : 's'} moved. The merge can be undone for 30 days.`);
    } catch (caught) {
      setError(describeError(caught));
      setBusy(false);
    }
  };

  return (
    <Dialog open onClose={busy ? undefined : onClose} aria-labelledby="merge-title" aria-describedby="merge-effect">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <DialogTitle id="merge-title">Merge another donor into this one</DialogTitle>
        <DialogContent>
          <Typography id="merge-effect" sx={{ mb: 1, overflowWrap: 'anywhere' }}>
            This donor ({donor.email}) is kept. Every gift, plan and receipt of the other donor moves here and takes this donor&apos;s e-mail and name. You
            can undo the merge for 30 days.
          </Typography>
          <TextField
            label="Find the other donor (name or e-mail)"
            autoComplete="off"
            autoFocus
            fullWidth
            margin="dense"
            value={query}
            onChange={(event) => {
              setQuery(event.target.value);
              setChosen('');
            }}
          />
          <Button onClick={() => void search()} disabled={busy || query.trim() === ''} sx={{ mb: 1 }}>
            Search
          </Button>
          {found && found.length === 0 && <Typography role="status">No other donor matches.</Typography>}
          {found && found.length > 0 && (
            <FormControl component="fieldset" sx={{ display: 'block' }}>
              <FormLabel component="legend">The donor to merge into this one</FormLabel>
              <RadioGroup value={chosen} onChange={(event) => setChosen(event.target.value)}>
                {found.map((row) => (
                  <FormControlLabel
                    key={row.donorKey}
                    value={row.donorKey}
                    control={<Radio />}
                    label={<span style={{ overflowWrap: 'anywhere' }}>{`${row.names[0] ?? 'No name'}, ${row.email} (${row.giftCount} gift${row.giftCount === 1 ? '' : 's'}, ${formatCents(row.lifetimeCents)})`}</span>}
                  />
                ))}
              </RadioGroup>
            </FormControl>
          )}
          <DialogError message={error} />
        </DialogContent>
        <DialogFooter onClose={onClose} busy={busy}>
          <Button type="submit" variant="contained" disabled={busy || !chosen}>
            Merge into this donor
          </Button>
        </DialogFooter>
      </form>
    </Dialog>
  );
}
