import MarkEmailReadIcon from '@mui/icons-material/MarkEmailRead';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { RESEND_RECEIPTS_CONFIRMATION, RESEND_RECEIPTS_PATH } from '../../../shared/receipts';
import { EmailLinksForm } from '../../components/email-links-form';
import { ScreenHeading } from '../../components/screen-heading';
import { usePageTitle } from '../../components/use-page-title';
import { PATHS } from '../../../shared/site-paths';
import { AppAnchor } from '../../components/app-anchor';

const SCREEN_TITLE = 'Get Your Receipts';

/**
 * /donate/receipts (issue #12, "Resend"): a donor types the address they gave with their donations and asks for
 * their receipts again; the server e-mails that address one message with a link to each receipt (PDF), if it has
 * donations. The confirmation is the same whatever the address ({@link RESEND_RECEIPTS_CONFIRMATION}): the page
 * never says whether an address gave. The address is checked with the donation form's rule before it is sent; a
 * failed request (offline, limit) says so and keeps the form. Linked from the thank-you page and every e-mail.
 */
export function ReceiptsPage() {
  usePageTitle(SCREEN_TITLE);
  return (
    <Container maxWidth="sm" sx={{ pt: { xs: 3, sm: 5 } }}>
      <Paper elevation={2} sx={{ p: { xs: 2, sm: 4 } }}>
        <Stack spacing={3}>
          <Stack spacing={1.5} sx={{ alignItems: 'center', textAlign: 'center' }}>
            <ReceiptLongIcon color="primary" sx={{ fontSize: 56 }} />
            <ScreenHeading>{SCREEN_TITLE}</ScreenHeading>
            <Typography>
              Lost a receipt? Enter the email address you gave with your donation and we will email it a link to each of
              your receipts (PDF), for every donation made with that address.
            </Typography>
          </Stack>

          <EmailLinksForm
            path={RESEND_RECEIPTS_PATH}
            fieldId="receipts-email"
            formLabel="Ask for your receipts"
            helperText="The address you gave with your donation"
            submitLabel="Email My Receipts"
            confirmation={RESEND_RECEIPTS_CONFIRMATION}
            confirmationIcon={<MarkEmailReadIcon fontSize="inherit" />}
          />

          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} useFlexGap sx={{ justifyContent: 'center' }}>
            <Button component={AppAnchor} to={PATHS.donate} variant="outlined">
              Make a Donation
            </Button>
          </Stack>
        </Stack>
      </Paper>
    </Container>
  );
}
