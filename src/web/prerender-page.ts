import { normalizePathname, PRERENDERED_PATH_ATTRIBUTE } from '../shared/prerendered-pages';

/** The empty root element of src/web/index.html, into which the app renders. */
const EMPTY_ROOT = '<div id="root"></div>';

/** What {@link fillPageTemplate} puts into the page: the route, its markup, and tags for `<head>`. */
export interface PrerenderedContent {
  /** The route the markup shows, e.g. '/donate' (written as {@link PRERENDERED_PATH_ATTRIBUTE}). */
  path: string;
  /** The app's HTML for that route (React's renderToString). */
  rootHtml: string;
  /** Tags that go just before `</head>`: the critical CSS as emotion `<style data-emotion>` tags. */
  headHtml: string;
}

/**
 * The built index.html (`template`) with `content` in it: the markup inside `<div id="root">`, which
 * also gets the route attribute, and the head tags before `</head>` (issue #5, decision 0021: the
 * landing screen ships as HTML). Throws when the template lacks either spot, so a changed
 * index.html fails the build instead of silently shipping an empty page.
 */
export function fillPageTemplate(template: string, content: PrerenderedContent): string {
  const rootAt = template.indexOf(EMPTY_ROOT);
  const headEndAt = template.search(/<\/head>/i);
  if (rootAt === -1) throw new Error(`The page template has no empty ${EMPTY_ROOT}`);
  if (headEndAt === -1 || headEndAt > rootAt) throw new Error('The page template has no </head> before its root element');
  const root = `<div id="root" ${PRERENDERED_PATH_ATTRIBUTE}="${content.path}">${content.rootHtml}</div>`;
  return (
    template.slice(0, headEndAt) +
    content.headHtml +
    template.slice(headEndAt, rootAt) +
    root +
    template.slice(rootAt + EMPTY_ROOT.length)
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
