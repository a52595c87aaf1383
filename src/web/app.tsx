import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { BrowserRouter } from 'react-router';
import { AppRoutes } from './app-routes';
import { AppShell } from './components/app-shell';
import { ScrollToTop } from './components/scroll-to-top';
import { DonationStoreProvider } from './state/donation-store-provider';
import { theme } from './theme';

/** The whole site: theme, shared donation state, router, the shell and its routed screens (spec sections 1-2). */
export function App() {
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <DonationStoreProvider>
        <BrowserRouter>
          <ScrollToTop />
          <AppShell>
            <AppRoutes />
          </AppShell>
        </BrowserRouter>
      </DonationStoreProvider>
    </ThemeProvider>
  );
}
