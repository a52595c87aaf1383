import Alert from '@mui/material/Alert';
import Typography from '@mui/material/Typography';
import { STAFF_PAGES } from '../staff-paths';
import { StaffLink } from './staff-link';
import { StaffPage } from './staff-page';

/**
 * The page of an e-mailed link the server refused (410 `staff_link_invalid`: used already, expired, or unknown; issue
 * #21): says so plainly and what to do instead. `kind` tells a sign-in link (ask for a new one) from an invitation
 * (ask an admin to invite again).
 */
export function LinkRefused({ kind }: { kind: 'sign-in' | 'invitation' }) {
  return (
    <StaffPage title={kind === 'sign-in' ? 'This sign-in link cannot be used' : 'This invitation cannot be used'}>
      <Alert severity="error" sx={{ mb: 2 }}>
        {kind === 'sign-in'
          ? 'The link has been used already or has expired: each link works once, within 15 minutes.'
          : 'The invitation has been used already or has expired: each invitation works once, within 72 hours.'}
      </Alert>
      <Typography>
        {kind === 'sign-in' ? (
          <StaffLink to={STAFF_PAGES.signIn}>Go to the sign-in page</StaffLink>
        ) : (
          'Ask an administrator to invite you again.'
        )}
      </Typography>
    </StaffPage>
  );
}
