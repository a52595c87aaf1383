import { describe, expect, it } from 'vitest';
import { prerenderedPageFor } from '../shared/prerendered-pages';
import { fillPageTemplate, holdsPrerenderedRoute } from './prerender-page';

const TEMPLATE =
  '<!doctype html><html><head><title>t</title><script type="module" crossorigin src="/assets/a.js"></script>\n' +
  '<link rel="modulepreload" crossorigin href="/assets/b.js">\n</head><body><div id="root"></div></body></html>';

/** The little of Element that holdsPrerenderedRoute reads. */
function fakeRoot(attribute: string | null, hasChild: boolean): Element {
  return { firstElementChild: hasChild ? {} : null, getAttribute: () => attribute } as unknown as Element;
}

describe('pre-rendered page', () => {
  it('puts the markup in #root with its route, the style tags at the end of <head>, and loads the app after the first paint', () => {
    const page = fillPageTemplate(TEMPLATE, { path: '/donate', rootHtml: '<main>Hi</main>', headHtml: '<style data-emotion="css x">.x{}</style>' });
    const loaderAt = page.indexOf('<script type="module">');
    expect(page.slice(0, loaderAt)).toBe(
      '<!doctype html><html><head><title>t</title><style data-emotion="css x">.x{}</style></head><body>' +
        '<div id="root" data-prerendered-path="/donate"><main>Hi</main></div>',
    );
    expect(page.slice(loaderAt)).toMatch(/^<script type="module">[^<]*<\/script><\/body><\/html>$/);
    // The entry and its preload leave <head>; the loader fetches both once the paint has happened.
    const loader = page.slice(loaderAt);
    expect(loader).toContain('const u=["/assets/b.js","/assets/a.js"]');
    expect(loader).toContain('"first-contentful-paint"');
  });

  it('gives #root the content\'s own attributes after the route, escaped', () => {
    const page = fillPageTemplate(TEMPLATE, { path: '/donate', rootHtml: '', headHtml: '', rootAttributes: { 'data-early-choices': '', 'data-x': 'a"&b' } });
    expect(page).toContain('<div id="root" data-prerendered-path="/donate" data-early-choices="" data-x="a&quot;&amp;b"></div>');
  });

  it('refuses a template without an empty root or a head', () => {
    const content = { path: '/donate', rootHtml: '', headHtml: '' };
    expect(() => fillPageTemplate(TEMPLATE.replace('<div id="root"></div>', '<div id="app"></div>'), content)).toThrow(/root/);
    expect(() => fillPageTemplate(TEMPLATE.replace('</head>', ''), content)).toThrow(/head/);
    expect(() => fillPageTemplate(TEMPLATE.replace('</body>', ''), content)).toThrow(/body/);
    expect(() => fillPageTemplate(TEMPLATE.replace(/<script[^>]*><\/script>/, ''), content)).toThrow(/entry script/);
  });

  it('hydrates only markup of the current route', () => {
    expect(holdsPrerenderedRoute(fakeRoot('/donate', true), '/donate')).toBe(true);
    expect(holdsPrerenderedRoute(fakeRoot('/donate', true), '/donate/')).toBe(true);
    expect(holdsPrerenderedRoute(fakeRoot('/donate', true), '/donate.html')).toBe(false);
    expect(holdsPrerenderedRoute(fakeRoot('/donate', false), '/donate')).toBe(false);
    expect(holdsPrerenderedRoute(fakeRoot(null, false), '/donate/form')).toBe(false);
  });

  it('maps request paths to the pre-rendered page, ignoring a query and a trailing slash', () => {
    expect(prerenderedPageFor('/donate')?.file).toBe('donate.html');
    expect(prerenderedPageFor('/donate/?utm_source=x')?.file).toBe('donate.html');
    expect(prerenderedPageFor('/donate/form')).toBeUndefined();
    expect(prerenderedPageFor('/')).toBeUndefined();
  });

  it('has the landing page of every language (issue #24), each with its language and file', () => {
    expect(prerenderedPageFor('/es/donate?amount=50')).toEqual({ path: '/es/donate', file: 'es/donate.html', locale: 'es' });
    expect(prerenderedPageFor('/donate')?.locale).toBe('en');
    expect(prerenderedPageFor('/es/donate/form')).toBeUndefined();
  });
});
