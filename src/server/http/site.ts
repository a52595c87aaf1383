import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { localeOfPath, localizedPath } from '../../shared/i18n/locale-paths';
import { type Locale, localeFromAcceptLanguage, LOCALES } from '../../shared/i18n/locales';
import { alternateLinksHtml, localizePageHead } from '../../shared/i18n/page-head';
import { fillCampaignHeroSlot, prerenderedPageFor, PRERENDERED_PAGES } from '../../shared/prerendered-pages';
import { CAMPAIGN_PARAM, normalizeCampaignSlug } from '../../shared/campaign';
import { isPageSectionPath, isStaffPagePath, PATHS } from '../../shared/site-paths';
import { serverI18n } from '../i18n/catalogues';
import { SITE_CONFIG_META_NAME, type SiteConfig } from '../../shared/site-config';
import type { ServerConfig } from '../platform/config';
import { issueCsrfCookies } from './csrf';
import { cspNonce, prepareNoncedPage, STAFF_PAGE_PERMISSIONS_POLICY } from './security-headers';
import { escapeHtml } from '../../shared/html-escape';
import { EMBED_PATH_PREFIX } from '../../shared/embed-path-prefix';
import { type EmbedTokens, frameHeadersOf, isEmbedPagePath } from './embed-frame';
import { EMBED_META_NAME } from '../../shared/embed-protocol';

/**
 * Serves the built React site (Vite's output in WEB_ROOT) from the same process as the API (issue #2):
 * - `/assets/*`: Vite's content-hashed files, cached for a year (`immutable`), or 404 when missing;
 * - any path in a section of the site's pages (`/donate/...`; PAGE_SECTIONS of the shared PATHS; decision 0080): the page,
 *   whatever its last segment looks like and whatever the client accepts (issue #19: `/donate/manage/<token>`,
 *   whose token has dots, answered 404 to curl, link checkers and mail gateways);
 * - any other path with a file extension (favicon, robots.txt): that file from WEB_ROOT, revalidated
 *   on each use (`no-cache`). When there is no such file, a browser navigation (an `Accept` header that
 *   includes text/html) gets the page, whose router sends any unknown path to /donate (spec section 2:
 *   `/old-page.php` is an unknown path like any other); other requests (scripts, images, fetch) get 404;
 * - any other GET path: the page (index.html), so the client-side router handles /donate, /donate/form...;
 *   a path of PRERENDERED_PAGES (/donate, /es/donate) gets its pre-rendered file instead (issue #5, decision 0021),
 *   whose `hreflang` alternates the server makes absolute with PUBLIC_URL;
 * - the shell in the language of the request path (issue #24): `<html lang="es">`, and the Spanish site name and
 *   description, under `/es`; the page itself then keeps them right as the donor navigates;
 * - `/`: a redirect (302, `Vary: Accept-Language`) to the landing screen in the language the browser asks for first
 *   (issue #24: `Accept-Language: es-BZ,es;q=0.9` → `/es/donate`, anything else → `/donate`), query string kept;
 * - the staff pages (`/staff` and below; issue #21): the same page, answered `Cache-Control: no-store` (a shared
 *   computer's cache or a proxy keeps nothing of the back office; OWASP Session Management) and `X-Robots-Tag: noindex,
 *   nofollow` (no search engine lists them), with a Permissions-Policy that allows passkeys (see
 *   {@link STAFF_PAGE_HEADERS}).
 */

/**
 * Headers of every staff page's answer (issue #21: "pages are noindex, answered no-store"), and the Permissions-Policy
 * that lets the page itself use passkeys.
 */
export const STAFF_PAGE_HEADERS = {
  'cache-control': 'no-store',
  'x-robots-tag': 'noindex, nofollow',
  'permissions-policy': STAFF_PAGE_PERMISSIONS_POLICY,
} as const;

/** Answer of page routes when WEB_ROOT has no index.html (the API keeps working). */
export const SITE_NOT_BUILT_MESSAGE = 'The site is not built yet. Run `npm run build`, then restart the server.';


/**
 * Puts `<meta name="site-config" content="{...}">` (SITE_CONFIG_META_NAME; the JSON of `{organizationUrl,
 * publicUrl, minAmountDollars, payments, feeCoverage}` (the fee the form offers to cover, issue #23), attribute-escaped) just before `</head>`, or at the start when there is no `</head>`.
 * This is how one build serves any deployment (issue #2: settings "read when the server starts").
 */
export function injectSiteConfig(html: string, site: SiteConfig): string {
  const json = JSON.stringify({
    organizationUrl: site.organizationUrl,
    publicUrl: site.publicUrl,
    minAmountDollars: site.minAmountDollars,
    payments: site.payments,
    feeCoverage: site.feeCoverage,
  });
  const meta = `<meta name="${SITE_CONFIG_META_NAME}" content="${escapeHtml(json)}">`;
  const headEnd = html.search(/<\/head>/i);
  return headEnd === -1 ? meta + html : `${html.slice(0, headEnd)}${meta}\n${html.slice(headEnd)}`;
}

/** A page file of WEB_ROOT (`index.html`, `donate.html`) as text, or undefined when it is missing. */
async function readPageFile(webRoot: string, file: string): Promise<string | undefined> {
  try {
    return await readFile(path.join(webRoot, file), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** True when the request is a browser navigation, i.e. it asks for a page: its `Accept` header includes text/html. */
function wantsPage(request: FastifyRequest): boolean {
  return (request.headers.accept ?? '').toLowerCase().includes('text/html');
}

/**
 * True when `file` (a URL path below WEB_ROOT) names a regular file inside `webRoot`. A path that leads out
 * of it (`..`) counts as no file without touching the disk, so answers never tell what exists outside.
 */
async function isSiteFile(webRoot: string, file: string): Promise<boolean> {
  const root = path.resolve(webRoot);
  const resolved = path.resolve(root, file);
  if (!resolved.startsWith(root + path.sep)) return false;
  try {
    return (await stat(resolved)).isFile();
  } catch {
    return false;
  }
}

const ONE_YEAR_MS = 365 * 24 * 60 * 60 * 1000;

/** The shell's texts in `locale` (issue #24): the site name as its title, its description and its noscript note. */
function shellTexts(locale: Locale): { title: string; description: string; noscript: string } {
  const i18n = serverI18n(locale);
  return { title: i18n._('site.name'), description: i18n._('head.description'), noscript: i18n._('head.noscript') };
}

/**
 * The campaign hero's markup (escaped, ready for the page) of the campaign `slug` (lower-case) in `locale`, or undefined
 * for an unknown or draft campaign (issue #34; decision 0102). Rejects when the figures cannot be read.
 */
export type CampaignHeroOf = (slug: string, locale: Locale) => Promise<string | undefined>;

/** What {@link registerSite} needs to serve the framed pages (issue #35; decision 0104). */
export interface EmbedPages {
  /** EMBED_ORIGINS: who may frame them. */
  origins: readonly string[];
  /** Their per-page tokens (decision 0105). */
  tokens: EmbedTokens;
  /** The Permissions-Policy of a framed page, when it differs from every page's (Stripe mode: `payment` for Stripe.js). */
  permissionsPolicy?: string;
}

/**
 * The style of a framed page (issue #35): the site's toolbar hidden (the host page is the frame's header) and the shell's
 * full-screen height dropped, so the page is as tall as its screen and the frame can follow it (no white space left
 * after a step shrinks). CSS rather than another React tree, so the pre-rendered /donate hydrates as it is; its selectors are
 * the shell's place (AppShell: root's child, its toolbar MUI's AppBar), so /donate's JavaScript carries nothing for it.
 */
export const EMBED_PAGE_STYLE = '#root>div>header.MuiAppBar-root{display:none!important}#root>div{min-height:0!important}#root>div>main{padding-bottom:16px!important}';

/** `html` with the framed page's `<meta name="embed-frame">` (its token and the origins it may post to) and style before `</head>`. */
function withEmbedHead(html: string, nonce: string, meta: { token: string; origins: readonly string[] }): string {
  const head = `<meta name="${EMBED_META_NAME}" content="${escapeHtml(JSON.stringify(meta))}"><style nonce="${nonce}">${EMBED_PAGE_STYLE}</style>`;
  const headEnd = html.search(/<\/head>/i);
  return headEnd === -1 ? head + html : `${html.slice(0, headEnd)}${head}${html.slice(headEnd)}`;
}

/**
 * Registers the site's routes on `app`. Reads WEB_ROOT/index.html once, now; when it is missing, page
 * routes answer 503 with {@link SITE_NOT_BUILT_MESSAGE} (API-only tests, or before `npm run build`).
 * The page response carries `Cache-Control: no-cache`, the CSRF cookies, the site-config meta tag and this
 * response's CSP nonce on its `<script>`/`<style>` tags and in `<meta property="csp-nonce">` (issue #4). A campaign link
 * to a pre-rendered page (`/donate?campaign=<slug>`) gets `campaignHero`'s markup in the page's campaign hero slot (issue
 * #34, decision 0102: the campaign's texts and figures in the first HTML); an unknown or draft campaign, or figures that
 * cannot be read (logged), leave the page as it is.
 */
export async function registerSite(
  app: FastifyInstance,
  config: Pick<ServerConfig, 'webRoot' | 'site'>,
  { campaignHero, embed }: { campaignHero?: CampaignHeroOf; embed?: EmbedPages } = {},
): Promise<void> {
  const indexHtml = await readPageFile(config.webRoot, 'index.html');
  // NOTE: the page is prepared once; each response only joins it with its own CSP nonce (issue #4).
  const prepare = (html: string) => prepareNoncedPage(injectSiteConfig(html, config.site));
  // The shell in each language (issue #24): its `<html lang>`, title, description and noscript note.
  const shells = new Map<Locale, ReturnType<typeof prepare>>();
  if (indexHtml !== undefined) {
    for (const locale of LOCALES) shells.set(locale, prepare(localizePageHead(indexHtml, { locale, ...shellTexts(locale) })));
  } else {
    app.log.warn({ webRoot: config.webRoot }, 'No index.html in WEB_ROOT: the site is not built');
  }
  // Pre-rendered routes (/donate, /es/donate: issue #5, decision 0021) get their own file; every other route, or
  // one whose file is missing (a plain `vite build`), gets the shell above.
  const prerendered = new Map<string, ReturnType<typeof prepare>>();
  for (const { path: route, file } of PRERENDERED_PAGES) {
    const html = await readPageFile(config.webRoot, file);
    if (html !== undefined) prerendered.set(route, prepare(html.replace(alternateLinksHtml(route), alternateLinksHtml(route, config.site.publicUrl))));
  }

  /** The campaign hero of `request`'s campaign link to the pre-rendered page in `locale`, or undefined. */
  const campaignHeroOfRequest = async (request: FastifyRequest, locale: Locale): Promise<string | undefined> => {
    if (campaignHero === undefined) return undefined;
    const slug = normalizeCampaignSlug(new URLSearchParams(request.url.split('?')[1]?.split('#')[0] ?? '').get(CAMPAIGN_PARAM));
    if (slug === null) return undefined;
    try {
      return await campaignHero(slug, locale);
    } catch (error) {
      request.log.error({ err: error, campaign: slug }, 'The campaign hero could not be read; the page is sent without it');
      return undefined;
    }
  };

  const sendPage = async (request: FastifyRequest, reply: FastifyReply) => {
    // A framed page (issue #35): the page of the path after `/embed`, with the framing headers and its token.
    const framed = embed !== undefined && isEmbedPagePath(request.url.split(/[?#]/, 1)[0] ?? '');
    const url = framed ? request.url.slice(EMBED_PATH_PREFIX.length) : request.url;
    const page = shells.get(localeOfPath(url.split(/[?#]/, 1)[0] ?? '/'));
    if (page === undefined) {
      return reply.code(503).header('cache-control', 'no-store').type('text/plain; charset=utf-8').send(SITE_NOT_BUILT_MESSAGE);
    }
    issueCsrfCookies(request, reply);
    const prerenderedPage = prerenderedPageFor(url);
    const chosen = prerendered.get(prerenderedPage?.path ?? '');
    if (isStaffPagePath(url.split('?')[0] ?? '')) reply.headers(STAFF_PAGE_HEADERS);
    else reply.header('cache-control', 'no-cache');
    const nonce = cspNonce(reply);
    let html = (chosen ?? page).render(nonce);
    if (framed && !isStaffPagePath(url.split('?')[0] ?? '')) {
      frameHeadersOf(reply, embed.origins, embed.permissionsPolicy);
      html = withEmbedHead(html, nonce, { token: embed.tokens.create(), origins: embed.origins });
    }
    const hero = chosen && prerenderedPage ? await campaignHeroOfRequest(request, prerenderedPage.locale) : undefined;
    return reply.type('text/html; charset=utf-8').send(hero === undefined ? html : fillCampaignHeroSlot(html, hero));
  };

  await app.register(fastifyStatic, {
    root: path.join(config.webRoot, 'assets'),
    prefix: '/assets/',
    maxAge: ONE_YEAR_MS,
    immutable: true,
    index: false,
    dotfiles: 'ignore',
    suppressWarning: true,
  });

  app.get('/', async (request, reply) => {
    const query = request.url.indexOf('?');
    const landing = localizedPath(localeFromAcceptLanguage(request.headers['accept-language']), PATHS.donate);
    return reply
      .code(302)
      .header('vary', 'Accept-Language')
      .header('cache-control', 'no-cache')
      .redirect(query === -1 ? landing : `${landing}${request.url.slice(query)}`, 302);
  });
  app.get('/index.html', sendPage);
  app.get('/*', async (request, reply) => {
    const rest = (request.params as { '*'?: string })['*'] ?? '';
    if (rest === 'api' || rest.startsWith('api/')) return reply.callNotFound();
    const lastSegment = rest.split('/').pop() ?? '';
    if (isPageSectionPath(`/${rest}`) || !/\.[^.]+$/.test(lastSegment)) return sendPage(request, reply);
    // NOTE: only navigations pay for the stat; a missing script or image still gets its 404 from sendFile.
    if (wantsPage(request) && !(await isSiteFile(config.webRoot, rest))) return sendPage(request, reply);
    reply.header('cache-control', 'no-cache');
    return reply.sendFile(rest, config.webRoot, { cacheControl: false, dotfiles: 'ignore', index: false });
  });
}
