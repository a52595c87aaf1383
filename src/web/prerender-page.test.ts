import { describe, expect, it } from 'vitest';
import { prerenderedPageFor } from '../shared/prerendered-pages';
import { fillPageTemplate, holdsPrerenderedRoute } from './prerender-page';

const TEMPLATE = '<!doctype html><html><head><title>t</title></head><body><div id="root"></div><script type="module" src="/a.js"></script></body></html>';

/** The little of Element that holdsPrerenderedRoute reads. */
function fakeRoot(attribute: string | null, hasChild: boolean): Element {
  return { firstElementChild: hasChild ? {} : null, getAttribute: () => attribute } as unknown as Element;
}

describe('pre-rendered page', () => {
  it('puts the markup in #root with its route and the style tags at the end of <head>', () => {
    const page = fillPageTemplate(TEMPLATE, { path: '/donate', rootHtml: '<main>Hi</main>', headHtml: '<style data-emotion="css x">.x{}</style>' });
    expect(page).toBe(
      '<!doctype html><html><head><title>t</title><style data-emotion="css x">.x{}</style></head><body>' +
        '<div id="root" data-prerendered-path="/donate"><main>Hi</main></div><script type="module" src="/a.js"></script></body></html>',
    );
  });

  it('refuses a template without an empty root or a head', () => {
    const content = { path: '/donate', rootHtml: '', headHtml: '' };
    expect(() => fillPageTemplate(TEMPLATE.replace('<div id="root"></div>', '<div id="app"></div>'), content)).toThrow(/root/);
    expect(() => fillPageTemplate(TEMPLATE.replace('</head>', ''), content)).toThrow(/head/);
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
});
