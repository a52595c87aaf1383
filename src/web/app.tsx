import type { EmotionCache } from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { type ComponentType, type ReactNode, StrictMode } from 'react';
import { BrowserRouter } from 'react-router';
import { AppRoutes } from './app-routes';
import { AppShell } from './components/app-shell';
import { ScrollToTop } from './components/scroll-to-top';
import { LocaleProvider } from './i18n/locale-provider';
import { DonationStoreProvider } from './state/donation-store-provider';
import { theme } from './theme';

/** Props of {@link App}: the router that supplies the location. */
export interface AppProps {
  /**
   * The browser's history (BrowserRouter) by default; the build's pre-render passes a StaticRouter
   * at /donate (scripts/prerender.ts). The tree inside is the same either way, so the pre-rendered
   * HTML hydrates without a mismatch.
   */
  Router?: ComponentType<{ children?: ReactNode }>;
}

/** The whole site: theme, shared donation state, router, the shell and its routed screens (spec sections 1-2). */
export function App({ Router = BrowserRouter }: AppProps) {
  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      <DonationStoreProvider>
        <Router>
          <ScrollToTop />
          <LocaleProvider>
            <AppShell>
              <AppRoutes />
            </AppShell>
          </LocaleProvider>
        </Router>
      </DonationStoreProvider>
    </ThemeProvider>
  );
}

/** Props of {@link SiteRoot}: App's, and the emotion cache the styles go through. */
export interface SiteRootProps extends AppProps {
  cache: EmotionCache;
}

/**
 * The tree the browser renders or hydrates (main.tsx) and the build pre-renders (entry-prerender.tsx):
 * StrictMode, emotion's cache (in the browser, one whose style tags carry the page's CSP nonce: issue #4,
 * src/web/emotion-cache.ts) and {@link App}. One component for both, so the pre-rendered HTML and the first
 * client render cannot drift apart (a hydration mismatch; decision 0021).
 */
export function SiteRoot({ cache, Router }: SiteRootProps) {
  return (
    <StrictMode>
      <CacheProvider value={cache}>
        <App Router={Router} />
      </CacheProvider>
    </StrictMode>
  );
}
