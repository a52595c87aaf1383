// NOTE: first: zod must not probe for `eval` under the CSP (issue #4; see the module).
import './zod-csp';
import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { SiteRoot } from './app';
import { beginHydration } from './components/hydration';
import { createEmotionCache, readCspNonce } from './emotion-cache';
import { holdsPrerenderedRoute } from './prerender-page';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

const app = <SiteRoot cache={createEmotionCache(readCspNonce())} />;

// NOTE: /donate arrives pre-rendered (issue #5, decision 0021): hydrate its markup; every other
// route gets the empty shell and renders from scratch. Hydrating in a transition lets React yield
// every few milliseconds instead of blocking the main thread for the whole tree (Total Blocking
// Time); a click meanwhile makes React finish hydrating at once and then handle it.
if (holdsPrerenderedRoute(container, window.location.pathname)) {
  beginHydration();
  startTransition(() => void hydrateRoot(container, app));
} else {
  createRoot(container).render(app);
}
