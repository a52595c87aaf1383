import Button from '@mui/material/Button';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import type { StaffCampaign } from '../../../shared/staff/campaigns-api';
import { PageError } from '../components/page-error';
import { HeadedTable } from '../components/scroll-table';
import { hideSupporter } from './campaigns-api';

/** An instant as a short date and time in the browser's words. */
const when = (iso: string) => new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

/**
 * A campaign's supporters' list for staff (issue #34, "its supporters' list with a 'hide' action (audited)"; decision
 * 0103): each donor who chose to show the name, with when they gave, the message they chose to show, and whether the
 * public sees them; `canHide` (right `campaigns`) adds "Hide" to each one still shown, then `onHidden` reloads the page.
 */
export function SupportersTable({ campaign, canHide, onHidden }: { campaign: StaffCampaign; canHide: boolean; onHidden: () => void }) {
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState<string | null>(null);
  const hide = (donationId: string) => {
    setBusy(donationId);
    setError(undefined);
    hideSupporter(campaign.id, donationId)
      .then(onHidden)
      .catch((cause: unknown) => setError(cause instanceof Error ? cause.message : 'The supporter could not be hidden.'))
      .finally(() => setBusy(null));
  };
  return (
    <div>
      <Typography component="h2" variant="h6" sx={{ fontSize: '1.1rem' }}>
        Supporters
      </Typography>
      <p>
        {campaign.fields.showSupporters
          ? 'The campaign page lists the latest ten supporters shown here: names as donors typed them, never amounts, e-mail addresses or places.'
          : 'The supporters’ list is off: the campaign page lists no one. Donors can choose to be listed only while it is on.'}
      </p>
      <PageError message={error} />
      {campaign.supporters.length === 0 ? (
        <p>No donor has chosen to be listed yet.</p>
      ) : (
        <HeadedTable label="Supporters" headers={['Name', 'Gave', 'Message', 'On the page', ...(canHide ? ['Action'] : [])]}>
          {campaign.supporters.map((supporter) => (
            <TableRow key={supporter.donationId}>
              <TableCell component="th" scope="row" sx={{ overflowWrap: 'anywhere' }}>
                {supporter.name}
              </TableCell>
              <TableCell>{when(supporter.givenAt)}</TableCell>
              <TableCell sx={{ overflowWrap: 'anywhere' }}>{supporter.message ?? '—'}</TableCell>
              <TableCell>{supporter.hiddenAt === null ? 'Shown' : `Hidden ${when(supporter.hiddenAt)}`}</TableCell>
              {canHide && (
                <TableCell>
                  {supporter.hiddenAt === null && (
                    <Button size="small" variant="outlined" disabled={busy !== null} onClick={() => hide(supporter.donationId)} aria-label={`Hide ${supporter.name}`}>
                      Hide
                    </Button>
                  )}
                </TableCell>
              )}
            </TableRow>
          ))}
        </HeadedTable>
      )}
    </div>
  );
}
