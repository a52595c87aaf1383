import { readFile } from 'node:fs/promises';
import { createCompiledCatalog } from '@lingui/cli/api';
import type { Plugin } from 'vite';
import { type BrowserCataloguePart, partOfMessage } from '../src/shared/i18n/catalogue-parts';

/** `src/locales/es.json?part=landing`: a catalogue file and the part of it a module imports. */
const CATALOGUE_IMPORT = /[\\/]src[\\/]locales[\\/]([a-z]{2,3}(?:-[A-Za-z0-9]+)*)\.json\?part=(landing|screens)$/;

/**
 * Vite plugin compiling a language's catalogue for the browser (issue #24): importing
 * `src/locales/<locale>.json?part=landing` (or `?part=screens`) gives `{ messages }`, the messages of that part
 * (src/shared/i18n/catalogue-parts.ts) compiled by Lingui's own compiler (`createCompiledCatalog`, the one
 * `lingui compile` uses), so the browser needs no ICU parser. Fails the build on a message that does not compile or
 * on an empty translation (a missing key must never show a key to a donor).
 */
export function catalogues(): Plugin {
  return {
    name: 'reef-catalogues',
    enforce: 'pre',
    async load(id) {
      const match = CATALOGUE_IMPORT.exec(id);
      if (!match) return null;
      const [, locale = '', part] = match;
      const file = id.slice(0, id.indexOf('?'));
      this.addWatchFile(file);
      const all = JSON.parse(await readFile(file, 'utf8')) as Record<string, string>;
      const messages = Object.fromEntries(Object.entries(all).filter(([key]) => partOfMessage(key) === (part as BrowserCataloguePart)));
      const empty = Object.keys(messages).filter((key) => messages[key] === '');
      if (empty.length > 0) this.error(`${file}: no text for ${empty.join(', ')}`);
      const { source, errors } = createCompiledCatalog(locale, messages, { namespace: 'es', strict: true });
      if (errors.length > 0) this.error(`${file}: ${errors.map((error) => `${error.id}: ${error.error.message}`).join('; ')}`);
      return source;
    },
  };
}
