import Alert from '@mui/material/Alert';
import Link from '@mui/material/Link';
import type { ReactNode } from 'react';
import { getSiteConfig } from '../../../config/site-config';
import { StaffPage } from '../../components/staff-page';
import { PublicFrame } from './public-frame';

/**
 * The origin the staff pages must be opened at: PUBLIC_URL's (the site config the server injects), which is the
 * passkeys' relying party (issue #21: RP ID = PUBLIC_URL's host; browsers refuse a passkey for another origin, and an IP
 * address as RP ID at all).
 */
export function staffOrigin(): string {
  return new URL(getSiteConfig().publicUrl).origin;
}

/**
 * Shows the staff pages only at {@link staffOrigin}; opened elsewhere (`http://127.0.0.1:3000` for
 * `http://localhost:3000`), a page that says where to open them instead, with a link to this same page there, rather
 * than a passkey prompt that fails obscurely (issue #21).
 */
export function RequireStaffOrigin({ children }: { children: ReactNode }) {
  const origin = staffOrigin();
  if (window.location.origin === origin) return children;
  const here = `${origin}${window.location.pathname}${window.location.search}`;
  return (
    <PublicFrame>
      <StaffPage title="Open the staff pages at their own address">
        <Alert severity="warning">
          Passkeys only work at the address this site was set up with. Open this page at{' '}
          <Link href={here} sx={{ overflowWrap: 'anywhere' }}>
            {here}
          </Link>{' '}
          instead.
        </Alert>
      </StaffPage>
    </PublicFrame>
  );
}
