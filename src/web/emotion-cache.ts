import createCache, { type EmotionCache } from '@emotion/cache';
import { CSP_NONCE_META_PROPERTY } from '../shared/csp';

/**
 * Emotion (MUI's style engine) under a strict Content-Security-Policy (issue #4; ASVS 5.0 section 3.4; MUI's
 * "Content Security Policy" guide): the server allows `<style>` elements only with the per-response nonce it
 * puts in `<meta property="csp-nonce" nonce="...">`, so every style tag emotion inserts must carry that nonce.
 */

/** Key (class-name prefix and `data-emotion` value) of the site's emotion cache; pre-rendered styles use it too. */
export const EMOTION_CACHE_KEY = 'css';

/**
 * The page's CSP nonce, read from the `<meta property="csp-nonce">` tag the server adds to each page response,
 * or undefined when there is none (Vite's dev server, tests without it). Reads the element's `nonce` property
 * first (browsers blank the attribute once a CSP applies), then the attribute (jsdom, older browsers).
 */
export function readCspNonce(doc: Document = document): string | undefined {
  const meta = doc.querySelector<HTMLMetaElement>(`meta[property="${CSP_NONCE_META_PROPERTY}"]`);
  if (!meta) return undefined;
  const nonce = meta.nonce || meta.getAttribute('nonce') || '';
  return nonce === '' ? undefined : nonce;
}

/**
 * A new emotion cache for the site (key {@link EMOTION_CACHE_KEY}) whose `<style>` tags carry `nonce`
 * (pass {@link readCspNonce}'s answer in the browser; undefined when there is no CSP nonce). For a
 * `CacheProvider` around the app, on the client and when pre-rendering.
 */
export function createEmotionCache(nonce?: string): EmotionCache {
  return createCache({ key: EMOTION_CACHE_KEY, nonce });
}
