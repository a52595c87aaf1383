import { type I18n, type Messages, setupI18n } from '@lingui/core';
import type { BrowserCataloguePart } from '../../shared/i18n/catalogue-parts';
import type { Locale } from '../../shared/i18n/locales';

/**
 * The browser's catalogues (issue #24). Every part of every language is its own chunk, loaded on demand: a language's
 * landing part by that language's pages before they render (its pre-rendered page preloads it with the app's start
 * chunks: scripts/prerender.ts), the `screens` parts with the lazily loaded screens. So /es/donate loads no English
 * texts and /donate no Spanish ones (decision 0091). Vite finds the languages by the files in src/locales
 * (import.meta.glob), so a new language needs no line here.
 */
type CatalogueModule = { messages: Messages };
const LANDING = import.meta.glob<CatalogueModule>('../../locales/*.json', { query: '?part=landing' });
const SCREENS = import.meta.glob<CatalogueModule>('../../locales/*.json', { query: '?part=screens' });
const LOADERS: Record<BrowserCataloguePart, Record<string, () => Promise<CatalogueModule>>> = { landing: LANDING, screens: SCREENS };

/** One Lingui instance per language, each active in its language: switching language swaps instances. */
const instances = new Map<Locale, I18n>();
/** Per `locale/part`: the load of each part asked for (a loaded part's stays, resolved; a failed one is dropped)... */
const loads = new Map<string, Promise<void>>();
/** ...and the parts loaded. */
const loaded = new Set<string>();

/** The Lingui instance of `locale` (created on first use, with no messages until {@link loadCatalogue} loads them). */
export function i18nFor(locale: Locale): I18n {
  let i18n = instances.get(locale);
  if (!i18n) {
    i18n = setupI18n({ locale, messages: { [locale]: {} } });
    instances.set(locale, i18n);
  }
  return i18n;
}

/**
 * Loads `part` of `locale`'s catalogue into its instance, once; resolves when its messages can be used. Rejects when
 * the chunk cannot be fetched (the route error boundary offers a reload), and a later call tries again.
 */
export function loadCatalogue(locale: Locale, part: BrowserCataloguePart): Promise<void> {
  const key = `${locale}/${part}`;
  let load = loads.get(key);
  if (!load) {
    const loader = LOADERS[part][`../../locales/${locale}.json`];
    if (!loader) return Promise.reject(new Error(`No ${part} catalogue for ${locale}`));
    load = loader().then(
      ({ messages }) => {
        i18nFor(locale).load(locale, messages);
        loaded.add(key);
      },
      (error: unknown) => {
        loads.delete(key);
        throw error;
      },
    );
    loads.set(key, load);
  }
  return load;
}

/** True when `part` of `locale` is loaded: its messages can be used without waiting. */
export function isCatalogueLoaded(locale: Locale, part: BrowserCataloguePart): boolean {
  return loaded.has(`${locale}/${part}`);
}
