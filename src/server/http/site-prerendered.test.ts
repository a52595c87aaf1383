import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alternateLinksHtml } from '../../shared/i18n/page-head';
import { PRERENDERED_PATH_ATTRIBUTE } from '../../shared/prerendered-pages';
import { SITE_CONFIG_META_NAME } from '../../shared/site-config';
import { createTestApp, type TestApp } from '../testing/test-app';

/**
 * The server answers /donate and /es/donate with their pre-rendered pages and every other route with the shell in
 * the path's language (issues #5 and #24, decision 0021); `/` redirects by Accept-Language (issue #24).
 */

const prerendered = (path: string, lang: string, heading: string) =>
  `<!doctype html><html lang="${lang}"><head><title>t</title><style data-emotion="css-global 1a">body{margin:0}</style>${alternateLinksHtml(path)}</head>` +
  `<body><div id="root" ${PRERENDERED_PATH_ATTRIBUTE}="${path}"><h1>${heading}</h1></div><script type="module" src="/assets/a.js"></script></body></html>`;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    files: { 'donate.html': prerendered('/donate', 'en', 'Protect the reef'), 'es/donate.html': prerendered('/es/donate', 'es', 'Protege el arrecife') },
  });
});
afterAll(async () => {
  await t?.close();
});

describe('the pre-rendered landing pages', () => {
  it.each(['/donate', '/donate/', '/donate?utm_source=social'])('GET %s answers the pre-rendered page, with nonces and site config', async (url) => {
    const response = await t.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.body).toContain('<h1>Protect the reef</h1>');
    expect(response.body).toMatch(new RegExp(`<meta name="${SITE_CONFIG_META_NAME}" content="[^"]*">\\s*</head>`));
    expect(response.body).toMatch(/<style nonce="[^"]+" data-emotion="css-global 1a">/);
  });

  it.each(['/es/donate', '/es/donate/', '/es/donate?amount=50&frequency=monthly'])('GET %s answers the Spanish pre-rendered page', async (url) => {
    const response = await t.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<html lang="es">');
    expect(response.body).toContain('<h1>Protege el arrecife</h1>');
  });

  it('makes the alternates absolute with PUBLIC_URL', async () => {
    const body = (await t.app.inject({ method: 'GET', url: '/es/donate' })).body;
    const base = t.config.site.publicUrl;
    expect(body).toContain(`<link rel="alternate" hreflang="en" href="${base}/donate">`);
    expect(body).toContain(`<link rel="alternate" hreflang="es" href="${base}/es/donate">`);
    expect(body).toContain(`<link rel="alternate" hreflang="x-default" href="${base}/donate">`);
  });

  it.each(['/donate/form', '/donate/thank-you', '/index.html', '/no/such/page', '/staff'])('GET %s answers the English shell', async (url) => {
    const response = await t.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<div id="root"></div>');
    expect(response.body).toContain('<html lang="en">');
    expect(response.body).toContain('<title>Belize Barrier Reef Donations</title>');
    expect(response.body).not.toContain('Protect the reef');
  });

  it.each(['/es', '/es/donate/form', '/es/donate/manage/a.b.c', '/es/no/such/page'])('GET %s answers the Spanish shell', async (url) => {
    const response = await t.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<div id="root"></div>');
    expect(response.body).toContain('<html lang="es">');
    expect(response.body).toContain('<title>Donaciones para el Arrecife de Barrera de Belice</title>');
  });
});

describe('the empty path', () => {
  it.each([
    ['es-BZ,es;q=0.9', '/es/donate'],
    ['es', '/es/donate'],
    ['fr-FR,es;q=0.8,en;q=0.5', '/es/donate'],
    ['en-US,en;q=0.9,es;q=0.8', '/donate'],
    ['fr-FR', '/donate'],
    [undefined, '/donate'],
  ])('with Accept-Language %s redirects to %s', async (acceptLanguage, location) => {
    const headers = acceptLanguage === undefined ? {} : { 'accept-language': acceptLanguage };
    const response = await t.app.inject({ method: 'GET', url: '/', headers });
    expect(response.statusCode).toBe(302);
    expect(response.headers.location).toBe(location);
    expect(response.headers.vary).toMatch(/accept-language/i);
  });

  it('keeps the query string (a campaign link on the bare domain)', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/?amount=50&campaign=spring', headers: { 'accept-language': 'es' } });
    expect(response.headers.location).toBe('/es/donate?amount=50&campaign=spring');
  });
});
