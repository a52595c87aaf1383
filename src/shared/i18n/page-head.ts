import { escapeHtml } from '../html-escape';
import { localizedPath, unlocalizedPath } from './locale-paths';
import { type Locale, LOCALES, SOURCE_LOCALE } from './locales';

/**
 * The language-dependent parts of a page's HTML (issue #24): `<html lang>`, `<title>`, the description, the
 * `<noscript>` note and the `hreflang` alternates. Shared: the build writes them into the pre-rendered pages
 * (scripts/prerender.ts), the server into the shell it answers every other page with (src/server/http/site.ts).
 */

/** One page's alternate in one language: `hreflang` (a locale or `x-default`) and its URL. */
export interface Alternate {
  hrefLang: string;
  href: string;
}

/**
 * The alternates of the page at `pathname` (any language's path, such as `/es/donate/form`): the same screen in every
 * language of LOCALES, and `x-default` for the source language's (Google's "Tell Google about localized versions of
 * your page"). `baseUrl` (PUBLIC_URL, no trailing slash) makes the URLs absolute; without it they are root-relative paths.
 */
export function pageAlternates(pathname: string, baseUrl = ''): Alternate[] {
  const path = unlocalizedPath(pathname);
  const base = baseUrl.replace(/\/+$/, '');
  return [
    ...LOCALES.map((locale) => ({ hrefLang: locale, href: `${base}${localizedPath(locale, path)}` })),
    { hrefLang: 'x-default', href: `${base}${localizedPath(SOURCE_LOCALE, path)}` },
  ];
}

/** The `<link rel="alternate" hreflang>` tags of {@link pageAlternates}. */
export function alternateLinksHtml(pathname: string, baseUrl = ''): string {
  return pageAlternates(pathname, baseUrl)
    .map(({ hrefLang, href }) => `<link rel="alternate" hreflang="${hrefLang}" href="${escapeHtml(href)}">`)
    .join('');
}

/** What {@link localizePageHead} writes into a page: its language and texts, and the path its alternates are of. */
export interface PageHeadTexts {
  locale: Locale;
  /** The `<title>` (the site name, `site.name`, for the shell and the landing screen). */
  title: string;
  /** The `<meta name="description">` content (`site.description`). */
  description: string;
  /** The `<noscript>` note (`site.noscript`). */
  noscript: string;
  /** When given, the `hreflang` alternates of this path go before `</head>` ({@link alternateLinksHtml}). */
  alternatesOf?: string;
  /** The base of the alternates' URLs (see {@link pageAlternates}). */
  baseUrl?: string;
}

/**
 * `html` (src/web/index.html as built) in `texts.locale`: its `<html lang>` set, its `<title>`, description and
 * `<noscript>` (each where the page has one) replaced by `texts` (escaped), and the alternates added before
 * `</head>`. Throws when the page has no `<html>` element, or no `</head>` for the alternates: a changed index.html
 * then fails the build and the server's start instead of serving a page in the wrong language.
 */
export function localizePageHead(html: string, texts: PageHeadTexts): string {
  if (!/<html\b[^>]*>/i.test(html)) throw new Error('The page has no <html> element');
  const page = html
    .replace(/<html\b[^>]*>/i, () => `<html lang="${texts.locale}">`)
    .replace(/<title>[^<]*<\/title>/i, () => `<title>${escapeHtml(texts.title)}</title>`)
    .replace(/<meta\s+name="description"\s+content="[^"]*"\s*\/?>/i, () => `<meta name="description" content="${escapeHtml(texts.description)}" />`)
    .replace(/<noscript>[^<]*<\/noscript>/i, () => `<noscript>${escapeHtml(texts.noscript)}</noscript>`);
  if (texts.alternatesOf === undefined) return page;
  const headEnd = page.search(/<\/head>/i);
  if (headEnd === -1) throw new Error('The page has no </head>');
  return page.slice(0, headEnd) + alternateLinksHtml(texts.alternatesOf, texts.baseUrl) + page.slice(headEnd);
}
