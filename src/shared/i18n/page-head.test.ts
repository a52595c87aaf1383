import { describe, expect, it } from 'vitest';
import { alternateLinksHtml, localizePageHead, pageAlternates } from './page-head';

/** The language-dependent parts of a page's HTML (issue #24). */
describe('pageAlternates', () => {
  it('gives the same screen in every language and x-default, from either language', () => {
    const expected = [
      { hrefLang: 'en', href: '/donate/form' },
      { hrefLang: 'es', href: '/es/donate/form' },
      { hrefLang: 'x-default', href: '/donate/form' },
    ];
    expect(pageAlternates('/donate/form')).toEqual(expected);
    expect(pageAlternates('/es/donate/form')).toEqual(expected);
  });

  it('makes them absolute on a base URL', () => {
    expect(pageAlternates('/es/donate', 'https://reef.example/').map((alternate) => alternate.href)).toEqual([
      'https://reef.example/donate',
      'https://reef.example/es/donate',
      'https://reef.example/donate',
    ]);
  });
});

describe('localizePageHead', () => {
  const page =
    '<!doctype html><html lang="en"><head><meta\n  name="description"\n  content="English" />\n<title>English</title></head>' +
    '<body><noscript>English note</noscript><div id="root"></div></body></html>';

  it('sets the language, the title, the description and the noscript note, escaped, and adds the alternates', () => {
    const html = localizePageHead(page, { locale: 'es', title: 'Dona & "ayuda"', description: 'Descripción <b>', noscript: 'Nota', alternatesOf: '/es/donate' });
    expect(html).toContain('<html lang="es">');
    expect(html).toContain('<title>Dona &amp; &quot;ayuda&quot;</title>');
    expect(html).toContain('<meta name="description" content="Descripción &lt;b&gt;" />');
    expect(html).toContain('<noscript>Nota</noscript>');
    expect(html).toContain(`${alternateLinksHtml('/es/donate')}</head>`);
    expect(html).not.toContain('English');
  });

  it('leaves out what the page does not have, and refuses a page without <html>', () => {
    expect(localizePageHead('<html><head></head></html>', { locale: 'es', title: 't', description: 'd', noscript: 'n' })).toBe('<html lang="es"><head></head></html>');
    expect(() => localizePageHead('<p>no page</p>', { locale: 'es', title: 't', description: 'd', noscript: 'n' })).toThrow();
  });
});
