import EmailIcon from '@mui/icons-material/Email';
import FacebookIcon from '@mui/icons-material/Facebook';
import XIcon from '@mui/icons-material/X';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import { NEW_TAB_HINT_ID } from '../../components/new-tab-hint';
import { SHARE_MESSAGE } from '../../content/site-copy';
import { emailShareUrl, facebookShareUrl, tweetIntentUrl } from './share-links';
import { useTranslation } from '../../i18n/use-translation';

/**
 * The thank-you page's share buttons (spec section 2; issue #2): links named 'Facebook' and 'Tweet'
 * that open the networks' share pages in a new tab (rel noopener noreferrer), and 'Email', a mailto:
 * link. All share `url` (the deployment's PUBLIC_URL).
 */
export function ShareButtons({ url }: { url: string }) {
  const { i18n } = useTranslation();
  const newTab = { target: '_blank', rel: 'noopener noreferrer', 'aria-describedby': NEW_TAB_HINT_ID } as const;
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5} useFlexGap sx={{ justifyContent: 'center' }}>
      <Button variant="outlined" startIcon={<FacebookIcon />} href={facebookShareUrl(url)} {...newTab}>
        Facebook
      </Button>
      <Button variant="outlined" startIcon={<XIcon />} href={tweetIntentUrl(i18n._(SHARE_MESSAGE.text), url)} {...newTab}>
        {i18n._('thankYou.shareTweet')}
      </Button>
      <Button variant="outlined" startIcon={<EmailIcon />} href={emailShareUrl(i18n._(SHARE_MESSAGE.subject), i18n._(SHARE_MESSAGE.text), url)}>
        {i18n._('thankYou.shareEmail')}
      </Button>
    </Stack>
  );
}
