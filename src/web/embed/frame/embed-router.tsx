import type { ReactNode } from 'react';
import { BrowserRouter } from 'react-router';
import { EMBED_PATH_PREFIX } from '../../../shared/embed-path-prefix';
import { startEmbedFrame } from './embed-frame';

/**
 * The router of the framed pages (issue #35; decision 0104): the browser's history under the basename `/embed`, so every
 * screen, link and redirect of the site works unchanged inside the frame (`/donate/form` is `/embed/donate/form`).
 */
export function EmbedRouter({ children }: { children?: ReactNode }) {
  return <BrowserRouter basename={EMBED_PATH_PREFIX}>{children}</BrowserRouter>;
}

/**
 * Starts the framed page's side (embed-frame.ts: `ready`, sizes, Esc, focus) and answers {@link EmbedRouter}. The site
 * stage loads this module by `import()` on a framed page only, so /donate's JavaScript carries none of it (issue #5).
 */
export function startFramedPage(): typeof EmbedRouter {
  startEmbedFrame();
  return EmbedRouter;
}
