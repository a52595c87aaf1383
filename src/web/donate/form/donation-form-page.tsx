import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { Navigate } from 'react-router';
import { ScreenHeading } from '../../components/screen-heading';
import { usePageTitle } from '../../components/use-page-title';
import { PATHS } from '../../../shared/site-paths';
import { useDonationStore } from '../../state/use-donation-store';
import { DonationForm } from './donation-form';
import { DonationSummary } from './donation-summary';
import { feeCoverageCharge } from './fee-coverage-charge';
import { FeeCoverageCheckbox } from './fee-coverage-checkbox';
import { useLocalizedPath, useTranslation } from '../../i18n/use-translation';

/**
 * The donation form screen, /donate/form (spec section 2): its heading, the summary of the
 * selection, the fee coverage checkbox when the deployment offers it (issue #23), and the form. Without a selection the
 * donor is sent to /donate (spec section 4, guards).
 */
export function DonationFormPage() {
  const { selection } = useDonationStore();
  const [coverFee, setCoverFee] = useState(false);
  const { i18n } = useTranslation();
  const to = useLocalizedPath();
  const title = i18n._('form.heading');
  usePageTitle(title);
  if (!selection) return <Navigate to={to(PATHS.donate)} replace />;
  const { offeredFeeDollars } = feeCoverageCharge(selection.amount, coverFee);
  return (
    <Container maxWidth="md" sx={{ pt: { xs: 3, sm: 5 } }}>
      <Paper elevation={2} sx={{ p: { xs: 2, sm: 4 } }}>
        <Stack spacing={3}>
          <div>
            <ScreenHeading variant="h2" sx={{ fontSize: { xs: '1.75rem', sm: '2rem' } }}>
              {title}
            </ScreenHeading>
            <Typography color="text.secondary" sx={{ mt: 0.5 }}>
              {i18n._('form.requiredNote')}
            </Typography>
          </div>
          <DonationSummary selection={selection} />
          {offeredFeeDollars !== null && (
            <FeeCoverageCheckbox feeDollars={offeredFeeDollars} giftDollars={selection.amount} checked={coverFee} onChange={setCoverFee} />
          )}
          <DonationForm selection={selection} coverFee={coverFee && offeredFeeDollars !== null} />
        </Stack>
      </Paper>
    </Container>
  );
}
