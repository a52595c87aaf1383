import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import { useTranslation } from '../i18n/use-translation';

/**
 * What shows while a lazily loaded screen's code arrives: a centred spinner named 'Loading'. Its name is in the
 * landing part of the catalogue (`shell.`), loaded before any lazily loaded screen (issue #24).
 */
export function PageLoading() {
  const { i18n } = useTranslation();
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', py: 8 }}>
      <CircularProgress aria-label={i18n._('shell.pageLoading')} />
    </Box>
  );
}
