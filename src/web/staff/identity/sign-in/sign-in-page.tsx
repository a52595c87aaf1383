import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { type FormEvent, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { describeError } from '../../components/describe-error';
import { PageError } from '../../components/page-error';
import { StaffPage } from '../../components/staff-page';
import { pageAfterSignIn } from '../layout/sign-in-redirect';
import { requestSignInLink, signInWithPasskey } from '../session/session-api';

/**
 * `/staff/sign-in` (issue #21): "Sign in with a passkey" (a discoverable credential: no e-mail to type), or "Email me a
 * sign-in link" with the field "Email address", which answers the same whether or not the address is staff. After
 * signing in, goes to the page the person came for (`?next=`), else the donations.
 */
export function SignInPage() {
  const navigate = useNavigate();
  const { search } = useLocation();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [email, setEmail] = useState('');
  const [linkSent, setLinkSent] = useState(false);

  const passkey = async () => {
    setBusy(true);
    setError(undefined);
    try {
      await signInWithPasskey();
      void navigate(pageAfterSignIn(search), { replace: true });
    } catch (caught) {
      setError(describeError(caught));
      setBusy(false);
    }
  };

  const sendLink = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await requestSignInLink(email.trim());
      setLinkSent(true);
    } catch (caught) {
      setError(describeError(caught));
    }
    setBusy(false);
  };

  return (
    <StaffPage title="Staff sign-in">
      <Box sx={{ maxWidth: 480 }}>
        <PageError message={error} />
        <Button variant="contained" size="large" onClick={() => void passkey()} disabled={busy}>
          Sign in with a passkey
        </Button>
        <Divider sx={{ my: 3 }} />
        <Typography component="h2" variant="h3" gutterBottom>
          No passkey on this device?
        </Typography>
        {linkSent ? (
          <Alert severity="success" role="status">
            If {email.trim()} belongs to a staff member, a sign-in link is on its way. It works once, within 15 minutes.
          </Alert>
        ) : (
          <Box component="form" onSubmit={(event) => void sendLink(event)} sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
            <TextField label="Email address" type="email" autoComplete="email" required value={email} onChange={(event) => setEmail(event.target.value)} />
            <Button type="submit" variant="outlined" disabled={busy} sx={{ alignSelf: 'flex-start' }}>
              Email me a sign-in link
            </Button>
          </Box>
        )}
      </Box>
    </StaffPage>
  );
}
