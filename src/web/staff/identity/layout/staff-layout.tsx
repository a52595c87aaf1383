import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { type ReactNode, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { roleHasRight, type StaffRight } from '../../../../shared/staff/roles';
import { PageLoading } from '../../../components/page-loading';
import { fetchStaffSession, signOut as signOutRequest } from '../session/session-api';
import { type StaffSession, StaffSessionContext } from '../session/staff-session-context';
import { StaffNav } from './staff-nav';
import { describeError } from '../../components/describe-error';
import { PageError } from '../../components/page-error';
import { useStaffData } from '../../components/use-staff-data';
import { STAFF_PAGES } from '../../staff-paths';

/**
 * The frame of every signed-in staff page (issue #21): reads the session (GET /api/staff/session); without one, goes
 * to the sign-in page (useStaffData), which comes back here after signing in. Signed in, it shows a header with the member's e-mail
 * and "Sign out" (always visible, at 320 px too), the navigation of what their role may open, and the page in `main`.
 * Pages inside read the session with useStaffSession.
 */
export function StaffLayout({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const { data, error, reload } = useStaffData(fetchStaffSession, '');
  const [signOutError, setSignOutError] = useState<string>();

  const session = useMemo<StaffSession | null>(
    () =>
      data
        ? {
            staff: { ...data.staffMember, passkeyCount: data.passkeyCount },
            can: (right: StaffRight) => roleHasRight(data.staffMember.role, right),
            refresh: reload,
            signOut: async () => {
              try {
                await signOutRequest();
                void navigate(STAFF_PAGES.signIn, { replace: true });
              } catch (caught) {
                setSignOutError(describeError(caught));
              }
            },
          }
        : null,
    [data, reload, navigate],
  );

  if (!session) return error ? <PageError message={error} /> : <PageLoading />;
  return (
    <StaffSessionContext.Provider value={session}>
      <AppBar
        position="static"
        component="header"
        elevation={0}
        // NOTE: the theme's dark focus ring would not show on the blue bar: white there (WCAG 2.4.7, 2.4.11).
        sx={{ px: { xs: 1.5, sm: 3 }, py: 1, '& a:focus-visible, & .Mui-focusVisible': { outlineColor: '#ffffff' } }}
      >
        <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, justifyContent: 'space-between' }}>
          <Typography component="p" sx={{ fontWeight: 700 }}>
            Reef donations · Staff
          </Typography>
          <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, minWidth: 0 }}>
            <Typography component="p" sx={{ overflowWrap: 'anywhere' }} data-testid="staff-email">
              {session.staff.email}
            </Typography>
            <Button variant="outlined" color="inherit" size="small" onClick={() => void session.signOut()}>
              Sign out
            </Button>
          </Box>
        </Box>
        <StaffNav />
      </AppBar>
      <Box component="main">
        <PageError message={signOutError} />
        {children}
      </Box>
    </StaffSessionContext.Provider>
  );
}
