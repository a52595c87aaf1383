import Link from '@mui/material/Link';
import { useLocation } from 'react-router';
import { switchLocaleOfPath } from '../../shared/i18n/locale-paths';
import { LOCALES, nativeLanguageName } from '../../shared/i18n/locales';
import { useTranslation } from '../i18n/use-translation';
import { AppAnchor } from './app-anchor';

/**
 * The toolbar's language switcher (issue #24): for each language but the page's, a link to the same screen in that
 * language (switchLocaleOfPath; query and fragment kept), named in that language ("Español", "English") and marked so
 * (`lang`, `hrefLang`), so a screen reader speaks it right. A plain link, not a menu: with two languages there is one
 * link, and /donate's JavaScript budget has no room for MUI's Menu (decision 0091). A client-side navigation, so the
 * donation store (sessionStorage, held above the router) keeps the donor's selection.
 */
export function LanguageSwitcher() {
  const { locale } = useTranslation();
  const { pathname, search, hash } = useLocation();
  return (
    <>
      {LOCALES.filter((other) => other !== locale).map((other, index) => (
        <Link
          key={other}
          component={AppAnchor}
          to={`${switchLocaleOfPath(pathname, other)}${search}${hash}`}
          lang={other}
          hrefLang={other}
          color="inherit"
          sx={{
            ml: index === 0 ? 'auto' : 0,
            display: 'inline-flex',
            alignItems: 'center',
            minHeight: 44,
            px: 0.5,
            fontWeight: 600,
            '&:focus-visible': { outline: '2px solid currentColor', outlineOffset: 2, borderRadius: 1 },
          }}
        >
          {nativeLanguageName(other)}
        </Link>
      ))}
    </>
  );
}
