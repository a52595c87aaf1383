import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { SiteRoot } from '../app';
import { beginHydration } from '../components/hydration';
import { createEmotionCache, readCspNonce } from '../emotion-cache';
import { holdsPrerenderedRoute } from '../prerender-page';
import { loadCatalogue } from '../i18n/catalogues';
import { localeOfPath } from '../../shared/i18n/locale-paths';
import { appPathname, isEmbeddedPage } from '../embed/frame/embed-path';

/**
 * The last stage of the app's start (issue #20, decision 0070): the site itself (router, screens, MUI's
 * components), evaluated in a task of its own after the React and theme stages; `startSite` then renders or
 * hydrates it into `container`.
 * /donate arrives pre-rendered (issue #5, decision 0021): its markup is hydrated; every other route gets the empty
 * shell and renders from scratch. A framed page (`/embed/...`, issue #35) is the same app with the router's basename
 * `/embed`. Hydrating in a transition lets React yield every few milliseconds instead of
 * blocking the main thread for the whole tree (Total Blocking Time); a tap meanwhile makes React finish hydrating
 * what it lands on at once and then handle it.
 */
export async function startSite(container: HTMLElement): Promise<void> {
  // The page's language's landing texts before the first render: hydration must render what the markup shows (issue #24).
  // A framed page (issue #35): the same screens under `/embed`, talking to the page that frames it.
  // NOTE: its code is loaded on a framed page only, beside the catalogue: /donate carries none of it (issue #5's budget).
  const pathname = appPathname();
  const [Router] = await Promise.all([
    isEmbeddedPage() ? import('../embed/frame/embed-router').then(({ startFramedPage }) => startFramedPage()) : undefined,
    loadCatalogue(localeOfPath(pathname), 'landing'),
  ]);
  const app = <SiteRoot cache={createEmotionCache(readCspNonce())} Router={Router} />;
  if (holdsPrerenderedRoute(container, pathname)) {
    beginHydration();
    startTransition(() => void hydrateRoot(container, app));
  } else {
    createRoot(container).render(app);
  }
}
