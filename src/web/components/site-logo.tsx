import WavesIcon from '@mui/icons-material/Waves';
import Link from '@mui/material/Link';
import { PATHS } from '../../shared/site-paths';
import { useLocalizedPath, useTranslation } from '../i18n/use-translation';
import { AppAnchor } from './app-anchor';

/**
 * The site logo of the top toolbar (spec section 1): a wave icon and the site name, linking to the
 * selection screen in the page's language (issue #24). The link's accessible name is the site name; the icon is decorative.
 */
export function SiteLogo() {
  const { i18n } = useTranslation();
  const to = useLocalizedPath();
  return (
    <Link
      component={AppAnchor}
      to={to(PATHS.donate)}
      color="inherit"
      underline="none"
      sx={{
        display: 'inline-flex',
        alignItems: 'center',
        gap: 1,
        minHeight: 44,
        fontWeight: 700,
        fontSize: { xs: '1rem', sm: '1.25rem' },
        lineHeight: 1.2,
        '&:focus-visible': { outline: '2px solid currentColor', outlineOffset: 4, borderRadius: 1 },
      }}
    >
      <WavesIcon aria-hidden fontSize="large" />
      <span>{i18n._('site.name')}</span>
    </Link>
  );
}
