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
import { conservationFact, thankYouImpactMessage } from '../../../shared/thank-you-impact';
import { NEW_TAB_HINT_ID, NewTabHint } from '../../components/new-tab-hint';
import { ScreenHeading } from '../../components/screen-heading';
import { StatList } from '../../components/stat-list';
import { usePageTitle } from '../../components/use-page-title';
import { getSiteConfig } from '../../config/site-config';
import { THANK_YOU_STATS } from '../../content/site-copy';
import { PATHS } from '../../../shared/site-paths';
import { useDonationStore } from '../../state/use-donation-store';
import { useLocalizedPath, useTranslation } from '../../i18n/use-translation';
import { DonationReceipt } from './donation-receipt';
import { NextStepsList } from './next-steps-list';
import { ShareButtons } from './share-buttons';
import { AppAnchor } from '../../components/app-anchor';
import { rememberedCampaign } from '../../state/campaign-memory';
import { campaignShareUrl } from './campaign-share';
import { SupporterChoiceBoxes } from './supporter-choice';
import { useEffect } from 'react';
import { postToHost } from '../../embed/frame/embed-frame';
import { isEmbeddedPage } from '../../embed/frame/embed-path';

/**
 * The thank-you page, /donate/thank-you (spec section 2): the outcome with a 'Test Transaction'
 * badge for test payments, the impact message and conservation fact for the amount (spec section 9),
 * 'What Happens Next', the static stats, share buttons, 'Make Another Donation' (clears all donation
 * state, back to /donate) and 'Learn More About Our Work' (ORGANIZATION_URL in a new tab). Without a
 * result the donor is sent to /donate (spec section 4, guards). Under the details: 'Download your receipt (PDF)'
 * when the result carries its receipt link (a new tab), and how to get receipts again on /donate/receipts (issue #12).
 * The share buttons share /donate with the campaign of the donor's link, if any (issue #23). After a gift by a campaign's
 * link, "Show my name on the campaign page" (issue #34, decision 0103: SupporterChoiceBoxes). Inside `<reef-donate>`'s
 * frame (issue #35) it tells the host page the gift was made (amount, frequency, campaign, currency: nothing personal),
 * and the receipts link opens a new top-level tab.
 */
export function ThankYouPage() {
  const { i18n } = useTranslation();
  const to = useLocalizedPath();
  const { result, clearAll } = useDonationStore();
  const navigate = useNavigate();
  const title = i18n._('thankYou.heading');
  usePageTitle(title);
  // Inside the frame (issue #35): the host page hears of the gift, without the donor's name, e-mail or card.
  useEffect(() => {
    if (result) postToHost({ event: 'completed', amount: result.amount, frequency: result.recurring?.frequency ?? 'one-time', campaign: rememberedCampaign(), currency: 'USD' });
  }, [result]);
  if (!result) return <Navigate to={to(PATHS.donate)} replace />;
  const { organizationUrl, publicUrl } = getSiteConfig();
  // In the frame (issue #35) the receipts page opens as a new top-level tab, like the other outbound links.
  const embedded = isEmbeddedPage();

  const donateAgain = () => {
    clearAll();
    void navigate(to(PATHS.donate));
  };

  return (
    <Container maxWidth="md" sx={{ pt: { xs: 3, sm: 5 } }}>
      <NewTabHint />
      <Paper elevation={2} sx={{ p: { xs: 2, sm: 4 } }}>
        <Stack spacing={4}>
          <Stack spacing={1.5} sx={{ alignItems: 'center', textAlign: 'center' }}>
            <CheckCircleIcon color="success" sx={{ fontSize: 64 }} />
            <ScreenHeading>{title}</ScreenHeading>
            <Typography sx={{ fontSize: '1.125rem' }}>{i18n._('thankYou.processed')}</Typography>
            {result.isTestPayment && (
              <Chip
                label={i18n._('thankYou.testTransaction')}
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
                {i18n._('thankYou.downloadReceipt')}
              </Button>
            )}
            <Typography color="text.secondary">
              {/* NOTE: inline-block with a 24 px line, so the link is a 24 px target (WCAG 2.5.8) like the page's others. */}
              {i18n._('thankYou.lostReceipt')}{' '}
              <Link
                {...(embedded
                  ? { href: new URL(to(PATHS.receipts), publicUrl).href, target: '_blank', rel: 'noopener noreferrer', 'aria-describedby': NEW_TAB_HINT_ID }
                  : { component: AppAnchor, to: to(PATHS.receipts) })}
                sx={{ display: 'inline-block', lineHeight: '24px', minHeight: 24 }}
              >
                {i18n._('thankYou.lostReceiptLink')}
              </Link>
            </Typography>
          </Stack>

          {result.receiptUrl && rememberedCampaign() !== null && <SupporterChoiceBoxes receiptUrl={result.receiptUrl} />}

          <Stack spacing={2}>
            <Typography sx={{ fontSize: '1.125rem', fontWeight: 500 }}>{thankYouImpactMessage(i18n, result.amount)}</Typography>
            <Box sx={{ display: 'flex', gap: 1.5, p: 2, borderRadius: 2, bgcolor: '#e0f2f1' }}>
              <LightbulbIcon sx={{ color: 'secondary.main', mt: 0.25 }} />
              <Typography>
                <Box component="strong" sx={{ display: 'block' }}>
                  {i18n._('thankYou.didYouKnow')}
                </Box>
                {conservationFact(i18n, result.amount)}
              </Typography>
            </Box>
          </Stack>

          <Divider />

          <section aria-labelledby="next-steps-heading">
            <Typography variant="h2" id="next-steps-heading" sx={{ mb: 1 }}>
              {i18n._('thankYou.nextStepsHeading')}
            </Typography>
            <NextStepsList />
          </section>

          <section aria-labelledby="reef-stats-heading">
            <Typography variant="h2" id="reef-stats-heading" sx={{ mb: 2 }}>
              {i18n._('thankYou.statsHeading')}
            </Typography>
            <StatList stats={THANK_YOU_STATS} />
          </section>

          <section aria-labelledby="share-heading">
            <Typography variant="h2" id="share-heading" sx={{ mb: 2, textAlign: 'center' }}>
              {i18n._('thankYou.shareHeading')}
            </Typography>
            <ShareButtons url={campaignShareUrl(publicUrl, rememberedCampaign())} />
          </section>

          <Divider />

          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} useFlexGap sx={{ justifyContent: 'center' }}>
            <Button variant="contained" size="large" onClick={donateAgain}>
              {i18n._('thankYou.donateAgain')}
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
              {i18n._('thankYou.learnMore')}
            </Button>
          </Stack>
        </Stack>
      </Paper>
    </Container>
  );
}
