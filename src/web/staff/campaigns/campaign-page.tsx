import { EmbedSnippets } from './embed-snippets';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TableCell from '@mui/material/TableCell';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { LineChart } from '@mui/x-charts/LineChart';
import { useState } from 'react';
import { useParams } from 'react-router';
import { centsToDollars } from '../../../shared/money';
import { PageLoading } from '../../components/page-loading';
import { FigureList } from '../components/figure-list';
import { formatCents, formatDay } from '../components/format';
import { PageError } from '../components/page-error';
import { HeadedTable } from '../components/scroll-table';
import { StaffLink } from '../components/staff-link';
import { StaffPage } from '../components/staff-page';
import { useStaffData } from '../components/use-staff-data';
import { ChartFigure } from '../components/chart-figure';
import { useStaffSession } from '../identity/session/staff-session-context';
import { STAFF_PAGES } from '../staff-paths';
import { CampaignDialog } from './campaign-dialog';
import { CAMPAIGN_STATUS_LABELS, goalText, localText, WHAT_COUNTS } from './campaign-labels';
import { fetchCampaign } from './campaigns-api';
import { SupportersTable } from './supporters-table';

/** Axis and tooltip values: dollars as money. */
const money = (value: number | null) => (value === null ? '' : formatCents(Math.round(value * 100)));

/**
 * `/staff/campaigns/<id>` (issue #34, "A campaign's staff page"): its figures (raised, goal, percentage, donors, status,
 * dates) and what they count, in a sentence; its figures over time (a line of the running total, with the same figures
 * as a table, as the dashboard's); its gifts (the donations list filtered by the campaign), its link, and its supporters'
 * list (decision 0103). Finance and admin get "Edit the campaign" and "Hide" on each supporter.
 */
export function CampaignPage() {
  const { id = '' } = useParams();
  const { can } = useStaffSession();
  const { data: campaign, error, reload } = useStaffData(fetchCampaign, id);
  const [editing, setEditing] = useState(false);
  const title = campaign?.fields.texts.en?.title ?? 'Campaign';

  return (
    <StaffPage
      title={title}
      actions={
        campaign && can('campaigns') ? (
          <Button variant="contained" onClick={() => setEditing(true)}>
            Edit the campaign
          </Button>
        ) : undefined
      }
    >
      <PageError message={error} />
      {!campaign ? (
        !error && <PageLoading />
      ) : (
        <>
          <FigureList
            items={[
              ['Status', CAMPAIGN_STATUS_LABELS[campaign.status]],
              ['Raised', formatCents(campaign.raisedCents)],
              ['Goal', goalText(campaign.goalCents)],
              ['Of the goal', campaign.percent === null ? '—' : `${campaign.percent}%`],
              ['Donors', String(campaign.donorCount)],
              [`Starts (${campaign.timeZone})`, localText(campaign.fields.startsAt)],
              [`Ends (${campaign.timeZone})`, localText(campaign.fields.endsAt)],
            ]}
          />
          <p>{WHAT_COUNTS}</p>
          <Typography component="h2" variant="h6" sx={{ fontSize: '1.1rem' }}>
            Its link
          </Typography>
          <Box component="p" sx={{ overflowWrap: 'anywhere' }}>
            <code>{campaign.link}</code>
          </Box>
          <p>
            <StaffLink to={`${STAFF_PAGES.donations}?campaign=${encodeURIComponent(campaign.fields.slug)}`}>Its gifts in the donations list</StaffLink>
          </p>
          <EmbedSnippets campaign={campaign.fields.slug} />
          <ChartFigure
            title="Raised over time"
            chartLabel="Line chart of the total raised by the end of each day with a gift; the table has the same figures."
            chart={
              <LineChart
                height={240}
                skipAnimation
                disableKeyboardNavigation
                xAxis={[{ scaleType: 'point', data: campaign.days.map((day) => day.date), valueFormatter: (date: string) => formatDay(date) }]}
                yAxis={[{ valueFormatter: money, width: 80 }]}
                series={[{ label: 'Raised in total', data: campaign.days.map((day) => centsToDollars(day.totalCents)), valueFormatter: money }]}
              />
            }
            table={
              <HeadedTable label="Raised by day" headers={['Day', 'Raised that day', 'In total']}>
                {campaign.days.map((day) => (
                  <TableRow key={day.date}>
                    <TableCell component="th" scope="row">
                      {formatDay(day.date)}
                    </TableCell>
                    <TableCell>{formatCents(day.raisedCents)}</TableCell>
                    <TableCell>{formatCents(day.totalCents)}</TableCell>
                  </TableRow>
                ))}
              </HeadedTable>
            }
          />
          <SupportersTable campaign={campaign} canHide={can('campaigns')} onHidden={reload} />
          {editing && (
            <CampaignDialog
              campaign={campaign}
              timeZone={campaign.timeZone}
              onClose={() => setEditing(false)}
              onSaved={() => {
                setEditing(false);
                reload();
              }}
            />
          )}
        </>
      )}
    </StaffPage>
  );
}
