import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type FormEvent, useState } from 'react';
import type { TeamMember } from '../../../../shared/staff/identity-api';
import { ROLE_DESCRIPTIONS, STAFF_ROLES, type StaffRole } from '../../../../shared/staff/roles';
import { formatInstant } from '../../components/format';
import { PageError } from '../../components/page-error';
import { useStaffData } from '../../components/use-staff-data';
import { HeadedTable } from '../../components/scroll-table';
import { useStaffAction } from '../../components/use-staff-action';
import { StaffPage } from '../../components/staff-page';
import { changeRole, fetchTeam, inviteMember, removeMember } from './team-api';
import { useStaffSession } from '../session/staff-session-context';

/** Each role's name as the team page writes it. */
const ROLE_NAMES: Readonly<Record<StaffRole, string>> = { viewer: 'Viewer', finance: 'Finance', admin: 'Admin' };

/** A role select: the browser's own control, labelled, one option a role by its name. */
function RoleSelect({ label, value, onChange, disabled }: { label: string; value: StaffRole; onChange: (role: StaffRole) => void; disabled?: boolean }) {
  return (
    <TextField select size="small" label={label} value={value} disabled={disabled} onChange={(event) => onChange(event.target.value as StaffRole)} slotProps={{ select: { native: true } }}>
      {STAFF_ROLES.map((role) => (
        <option key={role} value={role}>
          {ROLE_NAMES[role]}
        </option>
      ))}
    </TextField>
  );
}

/**
 * `/staff/team` (issue #21; issue #36: every member reads it, only an admin sees the invite form and the changes): invite someone (e-mail and role; the server e-mails the enrollment link), change a
 * member's role, remove a member (after a confirmation). The server refuses the last admin removing or demoting
 * themselves (409), which the page shows as it says it; a role change or removal ends that member's sessions at once.
 */
export function TeamPage() {
  // Issue #36: every member reads the team; only those with the right `team` (admins) see the invite form and the changes.
  const { can } = useStaffSession();
  const manages = can('team');
  const { data: members, error: loadError, reload } = useStaffData(fetchTeam, '');
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<StaffRole>('viewer');
  const [removing, setRemoving] = useState<TeamMember>();

  const { busy, actionError, status, act } = useStaffAction(reload);
  const invite = (event: FormEvent) => {
    event.preventDefault();
    const address = email.trim();
    void act(() => inviteMember(address, role), `Invitation sent to ${address}.`).then(() => setEmail(''));
  };

  return (
    <StaffPage title="Team">
      {manages ? (
        <Box component="form" onSubmit={invite} aria-label="Invite someone" sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, alignItems: 'flex-start', mb: 3 }}>
          <TextField label="Email address" type="email" size="small" required value={email} onChange={(event) => setEmail(event.target.value)} />
          <RoleSelect label="Role" value={role} onChange={setRole} />
          <Button type="submit" variant="contained" disabled={busy}>
            Invite
          </Button>
        </Box>
      ) : (
        <Typography sx={{ mb: 2 }}>Who works in the back office, and what each role may do. An admin invites people and changes their roles.</Typography>
      )}
      <Typography variant="body2" component="ul" sx={{ mb: 2, pl: 2.5 }}>
        {STAFF_ROLES.map((each) => (
          <li key={each}>
            {ROLE_NAMES[each]}: {ROLE_DESCRIPTIONS[each]}
          </li>
        ))}
      </Typography>
      <PageError message={actionError ?? loadError} />
      <Typography role="status" sx={{ mb: status ? 2 : 0, fontWeight: 600 }}>
        {status}
      </Typography>
      {members && (
        <HeadedTable label="Team members" headers={manages ? ['Email', 'Role', 'Passkeys', 'Last sign-in', 'Remove'] : ['Email', 'Role', 'Passkeys', 'Last sign-in']}>
          {members.map((member) => (
            <TableRow key={member.id}>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>
                <bdi>{member.email}</bdi>
              </TableCell>
              {!manages ? (
                <>
                  <TableCell>{ROLE_NAMES[member.role]}</TableCell>
                  <TableCell>{member.passkeyCount === 0 ? 'None yet (invited)' : member.passkeyCount}</TableCell>
                  <TableCell>{formatInstant(member.lastSignInAt)}</TableCell>
                </>
              ) : (
                <>
              <TableCell>
                <RoleSelect
                  label={`Role of ${member.email}`}
                  value={member.role}
                  disabled={busy}
                  onChange={(next) => void act(() => changeRole(member.id, next), `${member.email} is now ${next}.`)}
                />
              </TableCell>
              <TableCell>{member.passkeyCount === 0 ? 'None yet (invited)' : member.passkeyCount}</TableCell>
              <TableCell>{formatInstant(member.lastSignInAt)}</TableCell>
              <TableCell>
                <Button color="error" size="small" disabled={busy} onClick={() => setRemoving(member)} aria-label={`Remove ${member.email}`}>
                  Remove
                </Button>
              </TableCell>
                </>
              )}
            </TableRow>
          ))}
        </HeadedTable>
      )}
      {removing && (
        <Dialog open onClose={() => setRemoving(undefined)} aria-labelledby="remove-title" aria-describedby="remove-effect">
          <DialogTitle id="remove-title">Remove {removing.email}?</DialogTitle>
          <DialogContent>
            <DialogContentText id="remove-effect">They are signed out everywhere at once and can no longer sign in. Their actions stay in the audit log.</DialogContentText>
          </DialogContent>
          <DialogActions>
            <Button onClick={() => setRemoving(undefined)}>Cancel</Button>
            <Button
              color="error"
              variant="contained"
              onClick={() => {
                const member = removing;
                setRemoving(undefined);
                void act(() => removeMember(member.id), `${member.email} was removed.`);
              }}
            >
              Remove
            </Button>
          </DialogActions>
        </Dialog>
      )}
    </StaffPage>
  );
}
