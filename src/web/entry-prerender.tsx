import createEmotionServer from '@emotion/server/create-instance';
import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { PATHS } from '../shared/site-paths';
import { SiteRoot } from './app';
import { EARLY_CHOICES_MARKUP } from './donate/selection/early-choices';
import { earlyChoicesScriptTag } from './donate/selection/early-choices-script';
import { linkChoicesScriptTag } from './donate/selection/campaign-link-script';
import { createEmotionCache } from './emotion-cache';
import type { PrerenderedContent } from './prerender-page';

/** The landing screen's route under a StaticRouter: the location the pre-rendered markup shows. */
function AtDonate({ children }: { children?: ReactNode }) {
  return <StaticRouter location={PATHS.donate}>{children}</StaticRouter>;
}

/**
 * Renders the landing screen, /donate, to HTML at build time (issue #5, decision 0021; built by Vite
 * as an SSR entry and run by scripts/prerender.ts). The tree is main.tsx's, SiteRoot of app.tsx, with a
 * StaticRouter, in the default state: no stored selection exists at build time, and the selection screen applies one only after hydrating.
 * Returns the markup and the critical CSS as emotion `<style data-emotion>` tags (globals such as
 * CssBaseline first), which the browser's emotion cache with the same key adopts instead of inserting
 * them again (emotion SSR with @emotion/server's extractCriticalToChunks), then the early choices script,
 * which makes the markup answer the donor's taps until the app is live (issue #10, decision 0023), and the campaign
 * link script, which makes a link's choices on that markup before the first paint (issue #23, decision 0079). The tags
 * carry no nonce: the server adds the per-response nonce to every tag of the page it sends.
 */
export function renderLandingScreen(): PrerenderedContent {
  const cache = createEmotionCache();
  const { extractCriticalToChunks, constructStyleTagsFromChunks } = createEmotionServer(cache);
  const rootHtml = renderToString(<SiteRoot cache={cache} Router={AtDonate} />);
  return {
    path: PATHS.donate,
    rootHtml,
    headHtml: constructStyleTagsFromChunks(extractCriticalToChunks(rootHtml)) + earlyChoicesScriptTag() + linkChoicesScriptTag(),
    rootAttributes: { [EARLY_CHOICES_MARKUP.state]: '' },
  };
}
