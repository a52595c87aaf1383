import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

/**
 * The frame of the staff pages one opens without a session (sign-in, an e-mailed link, an invitation): the back
 * office's header and the page in `main`, without the navigation of the signed-in pages.
 */
export function PublicFrame({ children }: { children: ReactNode }) {
  return (
    <>
      <AppBar position="static" component="header" elevation={0} sx={{ px: { xs: 1.5, sm: 3 }, py: 1.5 }}>
        <Typography component="p" sx={{ fontWeight: 700 }}>
          Reef donations · Staff
        </Typography>
      </AppBar>
      <Box component="main">{children}</Box>
    </>
  );
}
