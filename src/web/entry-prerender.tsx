import createEmotionServer from '@emotion/server/create-instance';
import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { localizedPath } from '../shared/i18n/locale-paths';
import type { Locale } from '../shared/i18n/locales';
import { PATHS } from '../shared/site-paths';
import { SiteRoot } from './app';
import { EARLY_CHOICES_MARKUP } from './donate/selection/early-choices';
import { earlyChoicesScriptTag } from './donate/selection/early-choices-script';
import { linkChoicesScriptTag } from './donate/selection/campaign-link-script';
import { createEmotionCache } from './emotion-cache';
import { i18nFor, loadCatalogue } from './i18n/catalogues';
import type { PrerenderedContent } from './prerender-page';

/** The landing screen in one language: its markup, and its title (the site name). */
export interface LandingScreen {
  content: PrerenderedContent;
  title: string;
}

/**
 * Renders the landing screen in `locale` (`/donate`, `/es/donate`: issue #24) to HTML at build time (issue #5,
 * decision 0021; built by Vite as an SSR entry and run by scripts/prerender.ts). The tree is main.tsx's, SiteRoot of
 * app.tsx, with a StaticRouter at the language's path, in the default state: no stored selection exists at build
 * time, and the selection screen applies one only after hydrating. The language's landing catalogue is loaded first,
 * as the browser loads it before hydrating (start/site-stage.tsx), so nothing suspends and the markup matches.
 * Returns the markup and the critical CSS as emotion `<style data-emotion>` tags (globals such as
 * CssBaseline first), which the browser's emotion cache with the same key adopts instead of inserting
 * them again (emotion SSR with @emotion/server's extractCriticalToChunks), then the early choices script,
 * which makes the markup answer the donor's taps until the app is live (issue #10, decision 0023), and the campaign
 * link script, which makes a link's choices on that markup before the first paint (issue #23, decision 0079). The tags
 * carry no nonce: the server adds the per-response nonce to every tag of the page it sends.
 */
export async function renderLandingScreen(locale: Locale): Promise<LandingScreen> {
  await loadCatalogue(locale, 'landing');
  const path = localizedPath(locale, PATHS.donate);
  const AtLanding = ({ children }: { children?: ReactNode }) => <StaticRouter location={path}>{children}</StaticRouter>;
  const cache = createEmotionCache();
  const { extractCriticalToChunks, constructStyleTagsFromChunks } = createEmotionServer(cache);
  const rootHtml = renderToString(<SiteRoot cache={cache} Router={AtLanding} />);
  const i18n = i18nFor(locale);
  return {
    content: {
      path,
      rootHtml,
      headHtml: constructStyleTagsFromChunks(extractCriticalToChunks(rootHtml)) + earlyChoicesScriptTag() + linkChoicesScriptTag(),
      rootAttributes: { [EARLY_CHOICES_MARKUP.state]: '' },
    },
    title: i18n._('site.name'),
  };
}
