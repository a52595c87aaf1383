import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import LightbulbIcon from '@mui/icons-material/Lightbulb';
import OpenInNewIcon from '@mui/icons-material/OpenInNew';
import PictureAsPdfIcon from '@mui/icons-material/PictureAsPdf';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Container from '@mui/material/Container';
import Divider from '@mui/material/Divider';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Navigate, useNavigate } from 'react-router';
import { conservationFact, thankYouImpactMessage } from '../../../shared/impact';
import { DOWNLOAD_RECEIPT_LABEL } from '../../../shared/receipts';
import { NEW_TAB_HINT_ID, NewTabHint } from '../../components/new-tab-hint';
import { ScreenHeading } from '../../components/screen-heading';
import { StatList } from '../../components/stat-list';
import { usePageTitle } from '../../components/use-page-title';
import { getSiteConfig } from '../../config/site-config';
import { THANK_YOU_STATS } from '../../content/site-copy';
import { PATHS } from '../../../shared/site-paths';
import { useDonationStore } from '../../state/use-donation-store';
import { useTranslation } from '../../i18n/use-translation';
import { DonationReceipt } from './donation-receipt';
import { NextStepsList } from './next-steps-list';
import { ShareButtons } from './share-buttons';
import { AppAnchor } from '../../components/app-anchor';
import { rememberedCampaign } from '../../state/campaign-memory';
import { campaignShareUrl } from './campaign-share';

const SCREEN_TITLE = 'Thank You!';

/**
 * The thank-you page, /donate/thank-you (spec section 2): the outcome with a 'Test Transaction'
 * badge for test payments, the impact message and conservation fact for the amount (spec section 9),
 * 'What Happens Next', the static stats, share buttons, 'Make Another Donation' (clears all donation
 * state, back to /donate) and 'Learn More About Our Work' (ORGANIZATION_URL in a new tab). Without a
 * result the donor is sent to /donate (spec section 4, guards). Under the details: 'Download your receipt (PDF)'
 * when the result carries its receipt link (a new tab), and how to get receipts again on /donate/receipts (issue #12).
 * The share buttons share /donate with the campaign of the donor's link, if any (issue #23).
 */
export function ThankYouPage() {
  const { i18n } = useTranslation();
  const { result, clearAll } = useDonationStore();
  const navigate = useNavigate();
  usePageTitle(SCREEN_TITLE);
  if (!result) return <Navigate to={PATHS.donate} replace />;
  const { organizationUrl, publicUrl } = getSiteConfig();

  const donateAgain = () => {
    clearAll();
    void navigate(PATHS.donate);
  };

  return (
    <Container maxWidth="md" sx={{ pt: { xs: 3, sm: 5 } }}>
      <NewTabHint />
      <Paper elevation={2} sx={{ p: { xs: 2, sm: 4 } }}>
        <Stack spacing={4}>
          <Stack spacing={1.5} sx={{ alignItems: 'center', textAlign: 'center' }}>
            <CheckCircleIcon color="success" sx={{ fontSize: 64 }} />
            <ScreenHeading>{SCREEN_TITLE}</ScreenHeading>
            <Typography sx={{ fontSize: '1.125rem' }}>Your donation has been processed successfully</Typography>
            {result.isTestPayment && (
              <Chip
                label="Test Transaction"
                sx={{ bgcolor: '#fff3e0', color: '#7a3e00', border: '1px solid #ffb74d', fontWeight: 600 }}
              />
            )}
          </Stack>

          <DonationReceipt result={result} />

          <Stack spacing={1.5} sx={{ alignItems: 'center', textAlign: 'center' }}>
            {result.receiptUrl && (
              <Button
                variant="outlined"
                href={result.receiptUrl}
                target="_blank"
                rel="noopener noreferrer"
                aria-describedby={NEW_TAB_HINT_ID}
                startIcon={<PictureAsPdfIcon />}
              >
                {DOWNLOAD_RECEIPT_LABEL}
              </Button>
            )}
            <Typography color="text.secondary">
              Lost your receipt?{' '}
              {/* NOTE: inline-block with a 24 px line, so the link is a 24 px target (WCAG 2.5.8) like the page's others. */}
              <Link component={AppAnchor} to={PATHS.receipts} sx={{ display: 'inline-block', lineHeight: '24px', minHeight: 24 }}>
                Get your receipts again
              </Link>{' '}
              with the email address you gave.
            </Typography>
          </Stack>

          <Stack spacing={2}>
            <Typography sx={{ fontSize: '1.125rem', fontWeight: 500 }}>{thankYouImpactMessage(i18n, result.amount)}</Typography>
            <Box sx={{ display: 'flex', gap: 1.5, p: 2, borderRadius: 2, bgcolor: '#e0f2f1' }}>
              <LightbulbIcon sx={{ color: 'secondary.main', mt: 0.25 }} />
              <Typography>
                <Box component="strong" sx={{ display: 'block' }}>
                  Did you know?
                </Box>
                {conservationFact(i18n, result.amount)}
              </Typography>
            </Box>
          </Stack>

          <Divider />

          <section aria-labelledby="next-steps-heading">
            <Typography variant="h2" id="next-steps-heading" sx={{ mb: 1 }}>
              What Happens Next
            </Typography>
            <NextStepsList />
          </section>

          <section aria-labelledby="reef-stats-heading">
            <Typography variant="h2" id="reef-stats-heading" sx={{ mb: 2 }}>
              The Reef You Are Helping Protect
            </Typography>
            <StatList stats={THANK_YOU_STATS} />
          </section>

          <section aria-labelledby="share-heading">
            <Typography variant="h2" id="share-heading" sx={{ mb: 2, textAlign: 'center' }}>
              Spread the Word
            </Typography>
            <ShareButtons url={campaignShareUrl(publicUrl, rememberedCampaign())} />
          </section>

          <Divider />

          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} useFlexGap sx={{ justifyContent: 'center' }}>
            <Button variant="contained" size="large" onClick={donateAgain}>
              Make Another Donation
            </Button>
            <Button
              variant="outlined"
              size="large"
              href={organizationUrl}
              target="_blank"
              rel="noopener noreferrer"
              aria-describedby={NEW_TAB_HINT_ID}
              endIcon={<OpenInNewIcon />}
            >
              Learn More About Our Work
            </Button>
          </Stack>
        </Stack>
      </Paper>
    </Container>
  );
}
