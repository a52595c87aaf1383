import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { useState } from 'react';
import { useLocation } from 'react-router';
import { visuallyHidden } from '../../components/visually-hidden';
import { describeError } from '../components/describe-error';
import { formatInstant } from '../components/format';
import { PageError } from '../components/page-error';
import { useStaffData } from '../components/use-staff-data';
import { ScrollTable } from '../components/scroll-table';
import { StaffPage } from '../components/staff-page';
import { addPasskey } from '../session/session-api';
import { useStaffSession } from '../session/staff-session-context';
import { AddPasskeyPrompt, ADD_PASSKEY_PARAM } from './add-passkey-prompt';
import { fetchPasskeys, removePasskey } from './passkeys-api';

/**
 * `/staff/passkeys` (issue #21): the signed-in member's passkeys (created, last used, synced or not), "Add a passkey"
 * (one on each device they use) and "Remove" for each. After a sign-in by link (`?add=1`) or with no passkey at all, it
 * asks them to add one first.
 */
export function PasskeysPage() {
  const { staff, refresh } = useStaffSession();
  const { search } = useLocation();
  const { data: passkeys, error: loadError, reload } = useStaffData(fetchPasskeys, staff.id);
  const [actionError, setError] = useState<string>();
  const [status, setStatus] = useState<string>();
  const [busy, setBusy] = useState(false);

  const act = async (action: () => Promise<void>, done: string) => {
    setBusy(true);
    setError(undefined);
    setStatus(undefined);
    try {
      await action();
      setStatus(done);
      reload();
      refresh();
    } catch (caught) {
      setError(describeError(caught));
    }
    setBusy(false);
  };
  const add = () => void act(addPasskey, 'Passkey added.');
  const asked = new URLSearchParams(search).has(ADD_PASSKEY_PARAM) || staff.passkeyCount === 0;

  return (
    <StaffPage
      title="Your passkeys"
      actions={
        <Button variant="contained" onClick={add} disabled={busy}>
          Add a passkey
        </Button>
      }
    >
      {asked && staff.passkeyCount === 0 && <AddPasskeyPrompt onAdd={add} busy={busy} />}
      <PageError message={actionError ?? loadError} />
      <p role="status">{status}</p>
      {passkeys && (
        <ScrollTable label="Your passkeys">
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell scope="col">Created</TableCell>
                <TableCell scope="col">Last used</TableCell>
                <TableCell scope="col">Kind</TableCell>
                <TableCell scope="col">
                  <Box component="span" sx={visuallyHidden}>
                    Actions
                  </Box>
                </TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {passkeys.map((passkey, index) => (
                <TableRow key={passkey.id}>
                  <TableCell>{formatInstant(passkey.createdAt)}</TableCell>
                  <TableCell>{formatInstant(passkey.lastUsedAt)}</TableCell>
                  <TableCell>{passkey.backedUp ? 'Synced passkey' : 'Passkey on one device'}</TableCell>
                  <TableCell>
                    <Button
                      size="small"
                      color="error"
                      disabled={busy}
                      aria-label={`Remove passkey ${index + 1}, created ${formatInstant(passkey.createdAt)}`}
                      onClick={() => void act(() => removePasskey(passkey.id), 'Passkey removed.')}
                    >
                      Remove
                    </Button>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </ScrollTable>
      )}
    </StaffPage>
  );
}
