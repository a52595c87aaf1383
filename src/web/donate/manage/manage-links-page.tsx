import AutorenewIcon from '@mui/icons-material/Autorenew';
import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { MANAGE_LINKS_API_PATH } from '../../../shared/recurring';
import { MANAGE_LINKS_CONFIRMATION } from '../../../shared/recurring-api';
import { EmailLinksForm } from '../../components/email-links-form';
import { ScreenHeading } from '../../components/screen-heading';
import { usePageTitle } from '../../components/use-page-title';

const SCREEN_TITLE = 'Manage Your Recurring Gifts';

/**
 * /donate/manage (issue #13): a donor who lost their link types the address they gave and gets an e-mail with a
 * link to manage each of their recurring gifts. The confirmation is the same whatever the address
 * ({@link MANAGE_LINKS_CONFIRMATION}): the page never says whether an address gives.
 */
export function ManageLinksPage() {
  usePageTitle(SCREEN_TITLE);
  return (
    <Container maxWidth="sm" sx={{ pt: { xs: 3, sm: 5 } }}>
      <Paper elevation={2} sx={{ p: { xs: 2, sm: 4 } }}>
        <Stack spacing={3}>
          <Stack spacing={1.5} sx={{ alignItems: 'center', textAlign: 'center' }}>
            <AutorenewIcon color="primary" sx={{ fontSize: 56 }} />
            <ScreenHeading>{SCREEN_TITLE}</ScreenHeading>
            <Typography>Enter the email address you gave with your monthly or yearly gift and we will email it a link to manage each gift.</Typography>
          </Stack>
          <EmailLinksForm
            path={MANAGE_LINKS_API_PATH}
            fieldId="manage-email"
            formLabel="Ask for your manage links"
            helperText="The address you gave with your gift"
            submitLabel="Email My Links"
            confirmation={MANAGE_LINKS_CONFIRMATION}
          />
        </Stack>
      </Paper>
    </Container>
  );
}
