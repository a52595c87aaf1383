import AutorenewIcon from '@mui/icons-material/Autorenew';
import Container from '@mui/material/Container';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { MANAGE_LINKS_API_PATH } from '../../../shared/recurring';
import { EmailLinksForm } from '../../components/email-links-form';
import { ScreenHeading } from '../../components/screen-heading';
import { usePageTitle } from '../../components/use-page-title';
import { useTranslation } from '../../i18n/use-translation';

/**
 * /donate/manage (issue #13): a donor who lost their link types the address they gave and gets an e-mail with a
 * link to manage each of their recurring gifts. The confirmation is the same whatever the address
 * (MANAGE_LINKS_CONFIRMATION, in the page's language): the page never says whether an address gives.
 */
export function ManageLinksPage() {
  const { i18n } = useTranslation();
  const title = i18n._('manage.links.heading');
  usePageTitle(title);
  return (
    <Container maxWidth="sm" sx={{ pt: { xs: 3, sm: 5 } }}>
      <Paper elevation={2} sx={{ p: { xs: 2, sm: 4 } }}>
        <Stack spacing={3}>
          <Stack spacing={1.5} sx={{ alignItems: 'center', textAlign: 'center' }}>
            <AutorenewIcon color="primary" sx={{ fontSize: 56 }} />
            <ScreenHeading>{title}</ScreenHeading>
            <Typography>{i18n._('manage.links.intro')}</Typography>
          </Stack>
          <EmailLinksForm
            path={MANAGE_LINKS_API_PATH}
            fieldId="manage-email"
            formLabel={i18n._('manage.links.formLabel')}
            helperText={i18n._('manage.links.helper')}
            submitLabel={i18n._('manage.links.submit')}
            confirmation={i18n._('manage.links.confirmation')}
          />
        </Stack>
      </Paper>
    </Container>
  );
}
