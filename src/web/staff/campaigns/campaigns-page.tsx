import { EmbedSnippets } from './embed-snippets';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import { useMemo, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { CAMPAIGN_STATUSES } from '../../../shared/campaign-api';
import { filledFields, FilterForm } from '../components/filter-form';
import { formatCents } from '../components/format';
import { PageError } from '../components/page-error';
import { HeadedTable } from '../components/scroll-table';
import { StaffLink } from '../components/staff-link';
import { StaffPage } from '../components/staff-page';
import { useStaffData } from '../components/use-staff-data';
import { useStaffSession } from '../identity/session/staff-session-context';
import { campaignPagePath, STAFF_PAGES } from '../staff-paths';
import { CampaignDialog } from './campaign-dialog';
import { CAMPAIGN_STATUS_LABELS, goalText, localText, WHAT_COUNTS } from './campaign-labels';
import { fetchCampaigns } from './campaigns-api';

/** The status filter's choices ('' = every status). */
const STATUS_OPTIONS: [string, string][] = [['', 'Any'], ...CAMPAIGN_STATUSES.map((status): [string, string] => [status, CAMPAIGN_STATUS_LABELS[status]])];

/**
 * `/staff/campaigns` (issue #34, "Staff run campaigns"): every campaign with its status, raised, goal, percentage,
 * donors and dates (in TZ), newest first; filters by status and a slug or title search in the URL. Finance and admin
 * get "New campaign"; viewers read.
 */
export function CampaignsPage() {
  const { search } = useLocation();
  const navigate = useNavigate();
  const { can } = useStaffSession();
  const params = useMemo(() => new URLSearchParams(search), [search]);
  const { data, error, loading } = useStaffData(fetchCampaigns, params.toString());
  const [creating, setCreating] = useState(false);

  const show = (next: URLSearchParams) => {
    const query = next.toString();
    void navigate(query ? `${STAFF_PAGES.campaigns}?${query}` : STAFF_PAGES.campaigns);
  };

  return (
    <StaffPage
      title="Campaigns"
      actions={
        can('campaigns') ? (
          <Button variant="contained" onClick={() => setCreating(true)}>
            New campaign
          </Button>
        ) : undefined
      }
    >
      <FilterForm key={search} label="Filter campaigns" columnMinRem={14} onSubmit={(form) => show(filledFields(form, ['status', 'q']))} onClear={() => show(new URLSearchParams())}>
        <TextField name="status" label="Status" size="small" select defaultValue={params.get('status') ?? ''} slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}>
          {STATUS_OPTIONS.map(([value, text]) => (
            <option key={value} value={value}>
              {text}
            </option>
          ))}
        </TextField>
        <TextField name="q" label="Slug or title" size="small" defaultValue={params.get('q') ?? ''} slotProps={{ inputLabel: { shrink: true } }} />
      </FilterForm>
      <PageError message={error} />
      <p>{WHAT_COUNTS}</p>
      {data && (
        <Box aria-busy={loading} sx={{ opacity: loading ? 0.6 : 1 }}>
          <p>{data.rows.length === 1 ? '1 campaign' : `${data.rows.length} campaigns`}. Dates in {data.timeZone}.</p>
          <HeadedTable label="Campaigns" headers={['Campaign', 'Status', 'Raised', 'Goal', 'Of the goal', 'Donors', 'Starts', 'Ends']}>
            {data.rows.map((row) => (
              <TableRow key={row.id}>
                <TableCell component="th" scope="row">
                  <StaffLink to={campaignPagePath(row.id)}>{row.title}</StaffLink>
                  <Box component="span" sx={{ display: 'block', overflowWrap: 'anywhere' }}>
                    {row.slug}
                  </Box>
                </TableCell>
                <TableCell>{CAMPAIGN_STATUS_LABELS[row.status]}</TableCell>
                <TableCell>{formatCents(row.raisedCents)}</TableCell>
                <TableCell>{goalText(row.goalCents)}</TableCell>
                <TableCell>{row.percent === null ? '—' : `${row.percent}%`}</TableCell>
                <TableCell>{row.donorCount}</TableCell>
                <TableCell>{localText(row.startsAt)}</TableCell>
                <TableCell>{localText(row.endsAt)}</TableCell>
              </TableRow>
            ))}
          </HeadedTable>
        </Box>
      )}
      {/* The plain form's snippets, for a page with no campaign (issue #35). */}
      <EmbedSnippets />
      {creating && data && (
        <CampaignDialog timeZone={data.timeZone} onClose={() => setCreating(false)} onSaved={(id) => void navigate(campaignPagePath(id))} />
      )}
    </StaffPage>
  );
}
