import Box from '@mui/material/Box';
import { visuallyHidden } from './visually-hidden';

/** Id of the hidden 'Opens in a new tab' text; point a new-tab link's aria-describedby at it. */
export const NEW_TAB_HINT_ID = 'new-tab-hint';

/**
 * Renders the hidden 'Opens in a new tab' description once per page, so links with target _blank
 * warn screen reader users without changing their accessible names.
 */
export function NewTabHint() {
  return (
    <Box component="span" id={NEW_TAB_HINT_ID} sx={visuallyHidden}>
      Opens in a new tab
    </Box>
  );
}
