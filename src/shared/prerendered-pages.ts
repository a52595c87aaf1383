import { localizedPath } from './i18n/locale-paths';
import { type Locale, LOCALES } from './i18n/locales';

/** A page the build pre-renders: its route, its file in the web root, and its language. */
export interface PrerenderedPage {
  /** The route, such as `/donate` or `/es/donate`. */
  path: string;
  /** The file in the web root: the route without its leading slash, plus `.html` (`es/donate.html`). */
  file: string;
  locale: Locale;
}

/**
 * The pages the build pre-renders into HTML (issue #5: the landing screen paints from the HTML, before
 * any JavaScript runs; decision 0021): the landing screen in every language of LOCALES (issue #24: `/donate`,
 * `/es/donate`). Shared because two sides use the same names: the build (scripts/prerender.ts) writes each page as
 * `file` in the web root, and the server answers `path` with that file instead of the plain shell (index.html), which
 * every other route gets.
 */
// NOTE: pure: the browser imports this module for its other exports, and must not build this list (issue #5 budget).
export const PRERENDERED_PAGES: readonly PrerenderedPage[] = /* @__PURE__ */ LOCALES.map((locale) => {
  const path = localizedPath(locale, '/donate');
  return { path, file: `${path.slice(1)}.html`, locale };
});

/**
 * Attribute of the `#root` element of a pre-rendered page naming the route it holds
 * (`<div id="root" data-prerendered-path="/donate">`): the browser hydrates the markup only when the
 * location is that route, and renders from scratch otherwise.
 */
export const PRERENDERED_PATH_ATTRIBUTE = 'data-prerendered-path';

/** `pathname` without trailing slashes ('/donate/' → '/donate'; '/' stays '/'), as React Router matches it. */
export function normalizePathname(pathname: string): string {
  return pathname.replace(/\/+$/, '') || '/';
}

/** The pre-rendered page of a request path (query string allowed), or undefined when the path has none. */
export function prerenderedPageFor(url: string): PrerenderedPage | undefined {
  const pathname = normalizePathname(url.split(/[?#]/, 1)[0] ?? '');
  return PRERENDERED_PAGES.find((page) => page.path === pathname);
}

/**
 * Id of the empty element at the top of the pre-rendered landing hero that the server fills, for a campaign link
 * (`/donate?campaign=<slug>`), with the campaign's hero (issue #34; decision 0102). The app keeps what the server put
 * there and hides the default hero's texts beside it.
 */
export const CAMPAIGN_HERO_SLOT_ID = 'campaign-hero';

/** Where the pre-rendered page's empty campaign hero slot ({@link CAMPAIGN_HERO_SLOT_ID}) opens and closes. */
const SLOT = /* @__PURE__ */ new RegExp(`(<div[^>]*\\sid="${CAMPAIGN_HERO_SLOT_ID}"[^>]*>)(</div>)`);

/** `page` with `heroHtml` inside its campaign hero slot; `page` itself when it has no empty slot. */
export function fillCampaignHeroSlot(page: string, heroHtml: string): string {
  return page.replace(SLOT, (_match, open: string, close: string) => `${open}${heroHtml}${close}`);
}
