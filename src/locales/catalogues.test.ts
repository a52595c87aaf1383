import { readFileSync } from 'node:fs';
import { parse, type Token } from '@messageformat/parser';
import { getCatalogs } from '@lingui/cli/api';
import { getConfig } from '@lingui/conf';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import { beforeAll, describe, expect, it } from 'vitest';
import { LOCALES, SOURCE_LOCALE } from '../shared/i18n/locales';

/**
 * The catalogues are complete and consistent (issue #24: "a test that every key exists in every catalogue and that no
 * donor-facing string ... is outside a catalogue"; the second half is also the lint rule lingui/no-unlocalized-strings
 * in eslint.config.js). Lingui's own extractor collects every id the code uses, as `npm run i18n:extract` does.
 */

/** Ids whose text is rightly the same in Spanish as in English (proper names, symbols). */
const SAME_IN_EVERY_LANGUAGE = new Set<string>(['card.cvv', 'error.snackbar', 'email.receiptList.line']);

const catalogue = (locale: string): Record<string, string> =>
  JSON.parse(readFileSync(new URL(`./${locale}.json`, import.meta.url), 'utf8')) as Record<string, string>;
const catalogues = Object.fromEntries(LOCALES.map((locale) => [locale, catalogue(locale)]));

/** The ICU arguments a message uses (`{amount}`, `{count, plural, ...}`), sorted, nested ones included. */
function argumentsOf(text: string): string[] {
  const names = new Set<string>();
  const visit = (tokens: Token[]) => {
    for (const token of tokens) {
      if (token.type === 'argument' || token.type === 'function') names.add(token.arg);
      if (token.type === 'plural' || token.type === 'select' || token.type === 'selectordinal') {
        names.add(token.arg);
        for (const option of token.cases) visit(option.tokens);
      }
    }
  };
  visit(parse(text));
  return [...names].sort();
}

/** The element placeholders of a rich-text message (`<0>`, `</0>` of `<Trans>`), sorted. */
const elementsOf = (text: string) => (text.match(/<\/?\d+\/?>/g) ?? []).sort();

describe('the catalogues (issue #24)', () => {
  let usedIds: string[];
  beforeAll(async () => {
    const config = getConfig({ configPath: new URL('../../lingui.config.ts', import.meta.url).pathname });
    const collected = await Promise.all((await getCatalogs(config)).map((found) => found.collect()));
    usedIds = collected.flatMap((messages) => Object.keys(messages ?? {})).sort();
  }, 120_000);

  it('has a text for every id the code uses, in every language, and no id the code does not use', () => {
    expect(usedIds.length).toBeGreaterThan(0);
    for (const locale of LOCALES) {
      const ids = Object.keys(catalogues[locale] ?? {}).sort();
      expect({ locale, missing: usedIds.filter((id) => !ids.includes(id)) }).toEqual({ locale, missing: [] });
      expect({ locale, unused: ids.filter((id) => !usedIds.includes(id)) }).toEqual({ locale, unused: [] });
      expect({ locale, empty: ids.filter((id) => (catalogues[locale]?.[id] ?? '').trim() === '') }).toEqual({ locale, empty: [] });
    }
  });

  it('compiles every message, with the same arguments and elements in every language as in English', () => {
    const source = catalogues[SOURCE_LOCALE] ?? {};
    for (const locale of LOCALES) {
      for (const [id, text] of Object.entries(catalogues[locale] ?? {})) {
        expect(() => compileMessage(text), `${locale} ${id}`).not.toThrow();
        const english = source[id] ?? '';
        expect(argumentsOf(text), `${locale} ${id}: arguments`).toEqual(argumentsOf(english));
        expect(elementsOf(text), `${locale} ${id}: elements`).toEqual(elementsOf(english));
      }
    }
  });

  it('translates every text: no other language repeats the English, but for proper names listed here', () => {
    const source = catalogues[SOURCE_LOCALE] ?? {};
    for (const locale of LOCALES.filter((l) => l !== SOURCE_LOCALE)) {
      const untranslated = Object.entries(catalogues[locale] ?? {})
        .filter(([id, text]) => text === source[id] && !SAME_IN_EVERY_LANGUAGE.has(id) && /[A-Za-z]{3}/.test(text))
        .map(([id]) => id);
      expect({ locale, untranslated }).toEqual({ locale, untranslated: [] });
    }
  });
});
