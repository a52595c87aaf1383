/**
 * The languages the donor journey speaks (issue #24). English is the source language: its catalogue holds the spec's
 * texts verbatim, and its pages keep the spec's paths. Every other language's pages live under `/<code>`.
 * A third language is one catalogue file, `src/locales/<code>.json`, plus its code in {@link LOCALES}: the line below.
 * Lingui's configuration (lingui.config.ts), the site's routes, the pre-rendered pages, the server's catalogues and
 * the tests all read this list.
 */
export const LOCALES = ['en', 'es'] as const;

/** One of {@link LOCALES}: a BCP 47 language code, also the `Intl` locale the language formats with. */
export type Locale = (typeof LOCALES)[number];

/** The source language: catalogue keys are written in it, and its pages have no path prefix (spec section 2). */
export const SOURCE_LOCALE: Locale = 'en';


/** True when `value` is one of {@link LOCALES}. */
export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/**
 * A language's name in that language, capitalised as a menu item ("English", "Español"), from `Intl.DisplayNames`
 * (CLDR data), so a new language needs no label of its own.
 */
export function nativeLanguageName(locale: Locale): string {
  const name = new Intl.DisplayNames([locale], { type: 'language' }).of(locale) ?? locale;
  return name.charAt(0).toLocaleUpperCase(locale) + name.slice(1);
}

/**
 * The language a request asks for, from its `Accept-Language` header (RFC 9110 section 12.5.4): the first language
 * range, by quality then order, whose primary subtag is one of {@link LOCALES}; the source language when none is, or
 * when the header is missing or malformed. `es-BZ,es;q=0.9` → `es`; `fr-FR,en;q=0.5` → `en`.
 */
export function localeFromAcceptLanguage(header: string | undefined): Locale {
  const ranges = (header ?? '')
    .split(',')
    .map((part, index) => {
      const [range = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const quality = q === undefined ? 1 : Number(q.slice(2));
      return { language: range.trim().toLowerCase().split('-')[0] ?? '', quality: Number.isFinite(quality) ? quality : 0, index };
    })
    .filter((range) => range.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  return ranges.map((range) => range.language).find(isLocale) ?? SOURCE_LOCALE;
}
