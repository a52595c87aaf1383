import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { PageLoading } from '../../../components/page-loading';
import { StaffApiError } from '../../api/staff-fetch';
import { describeError } from '../../components/describe-error';
import { LinkRefused } from '../../components/link-refused';
import { PageError } from '../../components/page-error';
import { StaffPage } from '../../components/staff-page';
import { enrollWithPasskey, fetchEnrollmentEmail } from '../session/session-api';
import { STAFF_PAGES } from '../../staff-paths';

/** What the enrollment page knows of its invitation: still loading, refused, or its address and passkey options. */
type Invitation = { state: 'loading' } | { state: 'refused' } | ({ state: 'ready' } & Awaited<ReturnType<typeof fetchEnrollmentEmail>>);

/**
 * `/staff/enroll/<token>`, the page an invitation opens (issue #21): reads the invitation (the server checks the token
 * and consumes nothing, so a mail scanner's visit leaves it usable), then "Create a passkey" makes a discoverable
 * credential on this device; the server consumes the token and signs the new member in, and the page goes to the
 * donations. A used, expired or unknown invitation gets a page that says so.
 */
export function EnrollPage() {
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const [invitation, setInvitation] = useState<Invitation>({ state: 'loading' });
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let current = true;
    fetchEnrollmentEmail(token).then(
      (found) => current && setInvitation({ state: 'ready', ...found }),
      (caught: unknown) => {
        if (!current) return;
        if (caught instanceof StaffApiError && caught.status === 410) setInvitation({ state: 'refused' });
        else setError(describeError(caught));
      },
    );
    return () => {
      current = false;
    };
  }, [token]);

  const create = async () => {
    if (invitation.state !== 'ready') return;
    setBusy(true);
    setError(undefined);
    try {
      await enrollWithPasskey(token, invitation.options);
      void navigate(STAFF_PAGES.root, { replace: true });
    } catch (caught) {
      if (caught instanceof StaffApiError && caught.status === 410) setInvitation({ state: 'refused' });
      else setError(describeError(caught));
      setBusy(false);
    }
  };

  if (invitation.state === 'refused') return <LinkRefused kind="invitation" />;
  return (
    <StaffPage title="Welcome to the staff pages">
      <PageError message={error} />
      {invitation.state === 'loading' ? (
        !error && <PageLoading />
      ) : (
        <>
          <Typography sx={{ mb: 2, overflowWrap: 'anywhere' }}>
            You were invited as {invitation.email}. Create a passkey on this device to sign in: your fingerprint, face or
            screen lock instead of a password.
          </Typography>
          <Button variant="contained" size="large" onClick={() => void create()} disabled={busy}>
            Create a passkey
          </Button>
        </>
      )}
    </StaffPage>
  );
}
