import MarkEmailReadIcon from '@mui/icons-material/MarkEmailRead';
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { RESEND_RECEIPTS_PATH } from '../../../shared/receipts';
import { EmailLinksForm } from '../../components/email-links-form';
import { ScreenHeading } from '../../components/screen-heading';
import { usePageTitle } from '../../components/use-page-title';
import { PATHS } from '../../../shared/site-paths';
import { AppAnchor } from '../../components/app-anchor';
import { useLocalizedPath, useTranslation } from '../../i18n/use-translation';

/**
 * /donate/receipts (issue #12, "Resend"): a donor types the address they gave with their donations and asks for
 * their receipts again; the server e-mails that address one message with a link to each receipt (PDF), if it has
 * donations. The confirmation is the same whatever the address (RESEND_RECEIPTS_CONFIRMATION, in the page's language): the page
 * never says whether an address gave. The address is checked with the donation form's rule before it is sent; a
 * failed request (offline, limit) says so and keeps the form. Linked from the thank-you page and every e-mail.
 */
export function ReceiptsPage() {
  const { i18n } = useTranslation();
  const to = useLocalizedPath();
  const title = i18n._('receipts.heading');
  usePageTitle(title);
  return (
    <Container maxWidth="sm" sx={{ pt: { xs: 3, sm: 5 } }}>
      <Paper elevation={2} sx={{ p: { xs: 2, sm: 4 } }}>
        <Stack spacing={3}>
          <Stack spacing={1.5} sx={{ alignItems: 'center', textAlign: 'center' }}>
            <ReceiptLongIcon color="primary" sx={{ fontSize: 56 }} />
            <ScreenHeading>{title}</ScreenHeading>
            <Typography>
              {i18n._('receipts.intro')}
            </Typography>
          </Stack>

          <EmailLinksForm
            path={RESEND_RECEIPTS_PATH}
            fieldId="receipts-email"
            formLabel={i18n._('receipts.formLabel')}
            helperText={i18n._('receipts.helper')}
            submitLabel={i18n._('receipts.submit')}
            confirmation={i18n._('receipts.confirmation')}
            confirmationIcon={<MarkEmailReadIcon fontSize="inherit" />}
          />

          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} useFlexGap sx={{ justifyContent: 'center' }}>
            <Button component={AppAnchor} to={to(PATHS.donate)} variant="outlined">
              {i18n._('receipts.donate')}
            </Button>
          </Stack>
        </Stack>
      </Paper>
    </Container>
  );
}
