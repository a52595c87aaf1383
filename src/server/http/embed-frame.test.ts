import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { API_PATHS, IDEMPOTENCY_KEY_HEADER } from '../../shared/api';
import { EMBED_META_NAME, EMBED_TOKEN_HEADER } from '../../shared/embed-protocol';
import { createTestApp, validSubmission, type TestApp } from '../testing/test-app';
import { createEmbedTokens, EMBED_TOKEN_VALIDITY_MS } from './embed-frame';

/**
 * Issue #35 through the real app (decisions 0104 and 0105): the framed pages' headers and token, the donation routes that
 * take the token without any cookie, and CORS for EMBED_ORIGINS only.
 */

const HOST = 'https://reef.example.org';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { EMBED_ORIGINS: HOST } });
});
afterAll(async () => {
  await t?.close();
});

/** The framed page's token, as the page reads it from its meta tag. */
async function framedPageToken(): Promise<string> {
  const page = await t.app.inject({ method: 'GET', url: '/embed/donate/form' });
  const content = new RegExp(`<meta name="${EMBED_META_NAME}" content="([^"]*)"`).exec(page.body)?.[1] ?? '';
  return (JSON.parse(content.replaceAll('&quot;', '"')) as { token: string }).token;
}

/** A gift from the framed page: its token, the site's Origin, no cookie at all. */
const framedGift = (headers: Record<string, string>) =>
  t.app.inject({
    method: 'POST',
    url: API_PATHS.processDonation,
    headers: { 'content-type': 'application/json', [IDEMPOTENCY_KEY_HEADER]: randomUUID(), ...headers },
    payload: validSubmission(),
  });

describe('the framed pages', () => {
  it('may be framed by EMBED_ORIGINS only, while every other page refuses every frame', async () => {
    const framed = await t.app.inject({ method: 'GET', url: '/embed/donate?amount=25' });
    expect(framed.statusCode).toBe(200);
    expect(framed.headers['content-security-policy']).toContain(`frame-ancestors 'self' ${HOST}`);
    expect(framed.headers['x-frame-options']).toBeUndefined();
    expect(framed.headers['cache-control']).toBe('no-store');
    expect(framed.body).toContain(`<meta name="${EMBED_META_NAME}"`);
    for (const url of ['/donate', '/donate/form', '/staff', '/embed/staff', API_PATHS.embedStatus]) {
      const other = await t.app.inject({ method: 'GET', url });
      expect(other.headers['content-security-policy'], url).toContain("frame-ancestors 'none'");
      expect(other.headers['x-frame-options'], url).toBe('DENY');
    }
  });

  it("take a gift with the page's token and the site's Origin, without any cookie; refuse it without either or with a bad token", async () => {
    const token = await framedPageToken();
    // NOTE: inject's requests come to Host localhost:80, so that is the site's own origin here.
    const ok = await framedGift({ [EMBED_TOKEN_HEADER]: token, origin: 'http://localhost', 'sec-fetch-site': 'same-origin' });
    expect([ok.statusCode, ok.body]).toEqual([200, expect.any(String)]);
    expect((await framedGift({ [EMBED_TOKEN_HEADER]: token })).statusCode).toBe(403);
    expect((await framedGift({ [EMBED_TOKEN_HEADER]: `${token}x`, origin: 'http://localhost' })).statusCode).toBe(403);
    expect((await framedGift({ [EMBED_TOKEN_HEADER]: token, origin: HOST })).statusCode).toBe(403);
    expect((await framedGift({ [EMBED_TOKEN_HEADER]: token, origin: 'http://localhost', 'sec-fetch-site': 'cross-site' })).statusCode).toBe(403);
  });

  it('expire: a token older than its validity is refused, and one of another secret never passes', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const tokens = createEmbedTokens('a-cookie-secret-of-at-least-32-characters');
      const token = tokens.create();
      expect(tokens.verify(token)).toBe(true);
      vi.setSystemTime(Date.now() + EMBED_TOKEN_VALIDITY_MS + 1_000);
      expect(tokens.verify(token)).toBe(false);
    } finally {
      vi.useRealTimers();
    }
    expect(createEmbedTokens('another-secret-of-at-least-32-characters!').verify(createEmbedTokens('a-cookie-secret-of-at-least-32-characters').create())).toBe(false);
  });
});

describe('CORS for embed.js and the goal bar', () => {
  it('lets EMBED_ORIGINS read the embed status, and no other origin', async () => {
    const listed = await t.app.inject({ method: 'GET', url: API_PATHS.embedStatus, headers: { origin: HOST } });
    expect(listed.headers['access-control-allow-origin']).toBe(HOST);
    expect(listed.json()).toEqual({ frameable: true });
    const other = await t.app.inject({ method: 'GET', url: API_PATHS.embedStatus, headers: { origin: 'https://evil.example' } });
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    expect(other.headers.vary).toContain('Origin');
    const script = await t.app.inject({ method: 'GET', url: '/embed.js' });
    expect(script.headers['cross-origin-resource-policy']).toBe('cross-origin');
  });
});
