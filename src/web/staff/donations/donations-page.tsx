import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import TextField from '@mui/material/TextField';
import { useMemo, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { EXPORT_FORMATS, type ExportFormat } from '../../../shared/export-formats';
import { useStaffData } from '../components/use-staff-data';
import { PageError } from '../components/page-error';
import { AppAnchor } from '../../components/app-anchor';
import { StaffPage } from '../components/staff-page';
import { useStaffSession } from '../identity/session/staff-session-context';
import { STAFF_PAGES } from '../staff-paths';
import { DonationFiltersForm, NO_FILTERS } from './donation-filters';
import { EmptyResult } from '../components/empty-result';
import { DonationTotals } from './donation-totals';
import { donationsExportUrl, fetchDonations } from './donations-api';
import { type DonationsView, donationsViewQuery, parseDonationsView } from './donations-query';
import { DonationsTable } from './donations-table';

/** The CSV formats of the export (the existing export's: issue #21), in words. */
const EXPORT_FORMAT_LABELS: Record<ExportFormat, string> = {
  standard: 'Standard CSV',
  npsp: 'Salesforce NPSP',
  bloomerang: 'Bloomerang',
  lgl: 'Little Green Light',
  civicrm: 'CiviCRM',
};

/**
 * `/staff/donations` (issue #21): the filters and search box, the totals of the filtered set (count, gross, refunded,
 * net), "Export these rows" (the filtered set, every page, in the chosen CSV format; finance and admin), and the table
 * of one page. The whole view is the URL's query string: each change pushes a new entry, so Back and a shared link give
 * the same view.
 */
export function DonationsPage() {
  const { search } = useLocation();
  const navigate = useNavigate();
  const { can } = useStaffSession();
  const view = useMemo(() => parseDonationsView(search), [search]);
  const query = donationsViewQuery(view);
  const { data: list, error, loading } = useStaffData(fetchDonations, query);
  const [format, setFormat] = useState<ExportFormat>(EXPORT_FORMATS[0]);

  const show = (next: DonationsView) => {
    const nextQuery = donationsViewQuery(next);
    void navigate(nextQuery ? `${STAFF_PAGES.donations}?${nextQuery}` : STAFF_PAGES.donations);
  };

  return (
    <StaffPage
      title="Donations"
      actions={
        can('offline_gifts') ? (
          <Button variant="contained" component={AppAnchor} to={STAFF_PAGES.newDonation}>
            Record a gift
          </Button>
        ) : undefined
      }
    >
      <DonationFiltersForm key={search} filters={view.filters} onApply={(filters) => show({ ...view, filters, page: 1 })} />
      <PageError message={error} />
      {list && (
        <Box aria-busy={loading} sx={{ opacity: loading ? 0.6 : 1 }}>
          <DonationTotals totals={list.totals} />
          {can('export') && (
            <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center', mb: 2 }}>
              <TextField
                select
                size="small"
                label="Export format"
                value={format}
                onChange={(event) => setFormat(event.target.value as ExportFormat)}
                slotProps={{ select: { native: true } }}
              >
                {EXPORT_FORMATS.map((value) => (
                  <option key={value} value={value}>
                    {EXPORT_FORMAT_LABELS[value]}
                  </option>
                ))}
              </TextField>
              <Button variant="outlined" href={donationsExportUrl(format, donationsViewQuery(view, { forExport: true }))} download>
                Export these rows
              </Button>
            </Box>
          )}
          {list.rows.length === 0 && (
            <EmptyResult what="donations" filtered={Object.values(view.filters).some((value) => value !== '')} onClear={() => show({ ...view, filters: NO_FILTERS, page: 1 })} />
          )}
          <DonationsTable rows={list.rows} view={view} count={list.totals.count} onChange={(change) => show({ ...view, ...change })} />
        </Box>
      )}
    </StaffPage>
  );
}
