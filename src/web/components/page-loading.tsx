import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';

/** What shows while a lazily loaded screen's code arrives: a centred spinner named 'Loading'. */
export function PageLoading() {
  return (
    <Box sx={{ display: 'flex', justifyContent: 'center', py: 8 }}>
      <CircularProgress aria-label="Loading" />
    </Box>
  );
}
