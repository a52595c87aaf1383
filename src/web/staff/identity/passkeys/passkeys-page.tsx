import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import { useLocation } from 'react-router';
import { visuallyHidden } from '../../../components/visually-hidden';
import { formatInstant } from '../../components/format';
import { PageError } from '../../components/page-error';
import { useStaffData } from '../../components/use-staff-data';
import { HeadedTable } from '../../components/scroll-table';
import { useStaffAction } from '../../components/use-staff-action';
import { StaffPage } from '../../components/staff-page';
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

  const { busy, actionError, status, act } = useStaffAction(() => {
    reload();
    refresh();
  });
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
        <HeadedTable
          label="Your passkeys"
          headers={[
            'Created',
            'Last used',
            'Kind',
            <Box key="actions" component="span" sx={visuallyHidden}>
              Actions
            </Box>,
          ]}
        >
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
        </HeadedTable>
      )}
    </StaffPage>
  );
}
