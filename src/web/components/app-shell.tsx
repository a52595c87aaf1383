import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Container from '@mui/material/Container';
import Toolbar from '@mui/material/Toolbar';
import type { ReactNode } from 'react';
import { useLocation } from 'react-router';
import { isStaffPagePath } from '../../shared/site-paths';
import { LanguageSwitcher } from './language-switcher';
import { SiteLogo } from './site-logo';

/**
 * The root shell (spec section 1): a top toolbar with the site logo and the language switcher (issue #24), and the routed screen in the
 * page's `main` landmark. The staff back office (issue #21) draws its own header and navigation: its pages get the
 * routed screen alone.
 */
export function AppShell({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  if (isStaffPagePath(pathname)) return children;
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column', bgcolor: 'background.default' }}>
      <AppBar position="static" color="primary" elevation={0} component="header">
        <Container maxWidth="md">
          <Toolbar disableGutters sx={{ gap: 2 }}>
            <SiteLogo />
            <LanguageSwitcher />
          </Toolbar>
        </Container>
      </AppBar>
      <Box component="main" sx={{ flex: 1, pb: 6 }}>
        {children}
      </Box>
    </Box>
  );
}
