/**
 * How one language's catalogue is split for the browser (issue #24: /donate's JavaScript budget holds). A message id's
 * first segment (`selection` of `selection.heading`) names its part:
 * - `landing`: what /donate shows, loaded before the landing screen renders (in English, inside /donate's own chunks);
 * - `screens`: the other donor screens' texts, loaded with the first lazily loaded screen;
 * - `server`: texts only the server and the build use (e-mails, the PDF receipt, the page's `<head>` description and
 *   noscript note), never sent to the browser.
 * The server loads every part.
 */
export const CATALOGUE_PARTS = {
  landing: ['site', 'shell', 'selection', 'cause', 'frequency', 'impact'],
  server: ['email', 'pdf', 'head'],
} as const;

/** A part of the browser's catalogue: `landing` or `screens` (see {@link CATALOGUE_PARTS}). */
export type BrowserCataloguePart = 'landing' | 'screens';

/** The part a message id belongs to: `landing`, `screens` or `server`. */
export function partOfMessage(id: string): BrowserCataloguePart | 'server' {
  const section = id.split('.', 1)[0] ?? '';
  if ((CATALOGUE_PARTS.landing as readonly string[]).includes(section)) return 'landing';
  if ((CATALOGUE_PARTS.server as readonly string[]).includes(section)) return 'server';
  return 'screens';
}
