import Box from '@mui/material/Box';
import { visuallyHidden } from './visually-hidden';
import { useTranslation } from '../i18n/use-translation';

/** Id of the hidden 'Opens in a new tab' text; point a new-tab link's aria-describedby at it. */
export const NEW_TAB_HINT_ID = 'new-tab-hint';

/**
 * Renders the hidden 'Opens in a new tab' description once per page, so links with target _blank
 * warn screen reader users without changing their accessible names.
 */
export function NewTabHint() {
  const { i18n } = useTranslation();
  return (
    <Box component="span" id={NEW_TAB_HINT_ID} sx={visuallyHidden}>
      {i18n._('page.opensInNewTab')}
    </Box>
  );
}
