import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRERENDERED_PATH_ATTRIBUTE } from '../../shared/prerendered-pages';
import { SITE_CONFIG_META_NAME } from '../../shared/site-config';
import { createTestApp, type TestApp } from '../testing/test-app';

/** The server answers /donate with the pre-rendered page and every other route with the shell (issue #5, decision 0021). */

const PRERENDERED =
  '<!doctype html><html><head><title>t</title><style data-emotion="css-global 1a">body{margin:0}</style></head>' +
  `<body><div id="root" ${PRERENDERED_PATH_ATTRIBUTE}="/donate"><h1>Protect the reef</h1></div><script type="module" src="/assets/a.js"></script></body></html>`;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ files: { 'donate.html': PRERENDERED } });
});
afterAll(async () => {
  await t?.close();
});

describe('the pre-rendered landing page', () => {
  it.each(['/donate', '/donate/', '/donate?utm_source=social'])('GET %s answers the pre-rendered page, with nonces and site config', async (url) => {
    const response = await t.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.body).toContain('<h1>Protect the reef</h1>');
    expect(response.body).toMatch(new RegExp(`<meta name="${SITE_CONFIG_META_NAME}" content="[^"]*">\\s*</head>`));
    expect(response.body).toMatch(/<style nonce="[^"]+" data-emotion="css-global 1a">/);
  });

  it.each(['/', '/donate/form', '/donate/thank-you', '/index.html', '/no/such/page'])('GET %s answers the shell', async (url) => {
    const response = await t.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<div id="root"></div>');
    expect(response.body).not.toContain('Protect the reef');
  });
});
