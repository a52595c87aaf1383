import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { describeError } from '../../components/describe-error';
import { LinkRefused } from '../../components/link-refused';
import { PageError } from '../../components/page-error';
import { StaffPage } from '../../components/staff-page';
import { StaffApiError } from '../../api/staff-fetch';
import { signInWithLink } from '../session/session-api';
import { STAFF_PAGES } from '../../staff-paths';
import { ADD_PASSKEY_PARAM } from '../passkeys/add-passkey-prompt';

/**
 * `/staff/sign-in/<token>`, the page an e-mailed sign-in link opens (issue #21). Opening it consumes nothing (mail
 * scanners open links): the token is used only by the POST its "Sign in" button makes. Signed in, a member without a
 * passkey is asked to add one; a used, expired or unknown link gets a page that says so and how to get a new one.
 */
export function SignInLinkPage() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const [error, setError] = useState<string>();
  const [refused, setRefused] = useState(false);
  const [busy, setBusy] = useState(false);

  const signIn = async () => {
    setBusy(true);
    setError(undefined);
    try {
      const { needsPasskey } = await signInWithLink(token);
      void navigate(needsPasskey ? `${STAFF_PAGES.passkeys}?${ADD_PASSKEY_PARAM}=1` : STAFF_PAGES.root, { replace: true });
    } catch (caught) {
      if (caught instanceof StaffApiError && caught.status === 410) setRefused(true);
      else setError(describeError(caught));
      setBusy(false);
    }
  };

  if (refused) return <LinkRefused kind="sign-in" />;
  return (
    <StaffPage title="Sign in to the staff pages">
      <PageError message={error} />
      <Typography sx={{ mb: 2 }}>This link signs you in once. Press the button to continue.</Typography>
      <Button variant="contained" size="large" onClick={() => void signIn()} disabled={busy}>
        Sign in
      </Button>
    </StaffPage>
  );
}
