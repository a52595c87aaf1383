import { normalizePathname, PRERENDERED_PATH_ATTRIBUTE } from '../shared/prerendered-pages';

/** The empty root element of src/web/index.html, into which the app renders. */
const EMPTY_ROOT = '<div id="root"></div>';

/** What {@link fillPageTemplate} puts into the page: the route, its markup, and tags for `<head>`. */
export interface PrerenderedContent {
  /** The route the markup shows, e.g. '/donate' (written as {@link PRERENDERED_PATH_ATTRIBUTE}). */
  path: string;
  /** The app's HTML for that route (React's renderToString). */
  rootHtml: string;
  /**
   * Tags that go just before `</head>`: the critical CSS as emotion `<style data-emotion>` tags, and inline
   * scripts that must run before the screen can be touched (the early choices script, decision 0023).
   */
  headHtml: string;
  /** More attributes of the `#root` element, by name (values are escaped here). */
  rootAttributes?: Readonly<Record<string, string>>;
  /**
   * More root-relative module URLs the after-paint loader preloads with the entry's own (issue #24: the Spanish
   * landing catalogue's chunk on /es/donate, so it is not fetched only once the site stage asks for it).
   */
  preloads?: readonly string[];
}

/** `value` escaped for a double-quoted HTML attribute. */
function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
}

/** The built page's module entry script and its `modulepreload` links (Vite writes both into `<head>`). */
const ENTRY_SCRIPT = /<script type="module"[^>]*\ssrc="([^"]+)"[^>]*><\/script>\s*/;
const MODULE_PRELOAD = /<link rel="modulepreload"[^>]*\shref="([^"]+)"[^>]*>\s*/g;

/**
 * An inline script that starts loading the app only once the pre-rendered screen has painted: on the
 * browser's `first-contentful-paint` entry (Paint Timing), it adds the entry's preloads as
 * `<link rel="modulepreload">` and loads the entry by `import()`. A hidden tab (which paints nothing
 * yet), a page in a frame (issue #35: embed.js's button mode preloads the frame in a closed dialog, which never paints
 * until opened; a cross-site frame runs apart from the host page's main thread anyway) or a browser without paint
 * timing loads at once. `entry` and `preloads` are root-relative URLs
 * of Vite's build.
 */
function afterPaintLoader(entry: string, preloads: string[]): string {
  const urls = JSON.stringify([...preloads, entry]);
  return (
    `<script type="module">const u=${urls},e=u.pop(),l=()=>{for(const h of u){const k=document.createElement("link");` +
    `k.rel="modulepreload";k.href=h;document.head.append(k)}import(e)};` +
    `if(document.hidden||self!==top||!PerformanceObserver.supportedEntryTypes?.includes("paint"))l();` +
    `else new PerformanceObserver((p,o)=>{if(p.getEntriesByName("first-contentful-paint").length){o.disconnect();l()}})` +
    `.observe({type:"paint",buffered:true})</script>`
  );
}

/**
 * The built index.html (`template`) with `content` in it: the markup inside `<div id="root">`, which
 * also gets the route attribute and `content.rootAttributes`, and the head tags before `</head>` (issue #5, decision 0021: the
 * landing screen ships as HTML). The entry script and its module preloads leave `<head>` for
 * {@link afterPaintLoader} at the end of `<body>`: the screen paints from the HTML before any of the
 * app's JavaScript is fetched, so that JavaScript never competes with the first paint.
 * Throws when the template lacks the empty root, `</head>`, `</body>` or the entry script, so a
 * changed index.html fails the build instead of silently shipping a broken page.
 */
export function fillPageTemplate(template: string, content: PrerenderedContent): string {
  const entry = ENTRY_SCRIPT.exec(template)?.[1];
  if (entry === undefined) throw new Error('The page template has no module entry script');
  const preloads = [...template.matchAll(MODULE_PRELOAD)].map((match) => match[1] as string).concat(content.preloads ?? []);
  const page = template.replace(ENTRY_SCRIPT, '').replace(MODULE_PRELOAD, '');

  const rootAt = page.indexOf(EMPTY_ROOT);
  const headEndAt = page.search(/<\/head>/i);
  const bodyEndAt = page.search(/<\/body>/i);
  if (rootAt === -1) throw new Error(`The page template has no empty ${EMPTY_ROOT}`);
  if (headEndAt === -1 || headEndAt > rootAt) throw new Error('The page template has no </head> before its root element');
  if (bodyEndAt < rootAt) throw new Error('The page template has no </body> after its root element');
  const attributes = { [PRERENDERED_PATH_ATTRIBUTE]: content.path, ...content.rootAttributes };
  const attributesHtml = Object.entries(attributes).map(([name, value]) => ` ${name}="${escapeAttribute(value)}"`);
  const root = `<div id="root"${attributesHtml.join('')}>${content.rootHtml}</div>`;
  return (
    page.slice(0, headEndAt) +
    content.headHtml +
    page.slice(headEndAt, rootAt) +
    root +
    page.slice(rootAt + EMPTY_ROOT.length, bodyEndAt) +
    afterPaintLoader(entry, preloads) +
    page.slice(bodyEndAt)
  );
}

/**
 * Whether the browser should hydrate `container` rather than render into it from scratch: only when
 * it holds pre-rendered markup of the route at `pathname` (the server sends a pre-rendered page only
 * for its own route; this also guards against one reached under another URL).
 */
export function holdsPrerenderedRoute(container: Element, pathname: string): boolean {
  return container.firstElementChild !== null && container.getAttribute(PRERENDERED_PATH_ATTRIBUTE) === normalizePathname(pathname);
}
