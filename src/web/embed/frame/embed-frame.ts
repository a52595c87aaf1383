import { CAMPAIGN_PARAM, normalizeCampaignSlug } from '../../../shared/campaign';
import { isEmbeddedPage } from './embed-path';
import {
  EMBED_FRAME_ID_PARAM,
  EMBED_META_NAME,
  embedMessage,
  isEmbedFrameId,
  parseHostMessage,
  type FrameEvent,
} from '../../../shared/embed-protocol';

/**
 * The donation pages inside `<reef-donate>`'s frame (issue #35; decision 0104): served under `/embed` (the router's
 * basename), told by the server's `<meta name="embed-frame">` their page token (decision 0105) and the origins that may
 * frame them (EMBED_ORIGINS). This side of the message format (src/shared/embed-protocol.ts): posts `ready`, `resize`,
 * `completed` and `close` to its parent only, and takes `focus` only from its parent at a listed origin.
 */

/** What the server's `<meta name="embed-frame">` holds. */
interface EmbedFrameMeta {
  token: string;
  origins: string[];
}

let meta: EmbedFrameMeta | null | undefined;

/** The framed page's meta tag, read once; null outside a framed page or when it is malformed. */
function frameMeta(): EmbedFrameMeta | null {
  if (meta !== undefined) return meta;
  meta = null;
  // NOTE: no `location` where there is no page (the API client's tests run in Node): not a framed page.
  if (typeof location === 'undefined' || !isEmbeddedPage(location.pathname)) return meta;
  try {
    const parsed: unknown = JSON.parse(document.querySelector<HTMLMetaElement>(`meta[name="${EMBED_META_NAME}"]`)?.content ?? '');
    const { token, origins } = parsed as Partial<EmbedFrameMeta>;
    if (typeof token === 'string' && Array.isArray(origins) && origins.every((origin) => typeof origin === 'string')) meta = { token, origins };
  } catch {
    // no token: the donation routes answer 403 and the page says to reload
  }
  return meta;
}

/** The framed page's token for the `X-Embed-Token` header, or null outside a framed page. */
export function embedPageToken(): string | null {
  return frameMeta()?.token ?? null;
}

/** The campaign of the frame's first URL (embed.js's `campaign` attribute), kept for the visit. */
let campaign: string | null = null;

/**
 * The campaign of the framed page's first URL, or null (not framed, or none): the donation form sends it where the
 * frame has no sessionStorage for the campaign link's memory (third-party storage blocked: Safari, or a browser set so).
 */
export function embeddedCampaign(): string | null {
  return campaign;
}

/** The frame's id (from embed.js's `frame` parameter on the first URL), kept for the visit: navigation drops the query. */
let frameId: string | null = null;
/** The origin of the page framing us, when the browser tells it (location.ancestorOrigins, or the referrer), and it is listed. */
let parentOrigin: string | null = null;

/** Posts `event` to the parent page: to its origin when known, else to each listed origin (a mismatch is dropped by the browser). */
export function postToHost(event: FrameEvent): void {
  const origins = frameMeta()?.origins ?? [];
  if (frameId === null || window.parent === window) return;
  const message = embedMessage(frameId, event);
  for (const origin of parentOrigin !== null ? [parentOrigin] : origins) window.parent.postMessage(message, origin);
}

/**
 * Starts the framed page's side (called once before the app renders, on a framed page): keeps the frame id, then
 * posts `ready` (at once: a frame in a closed dialog has no height yet), reports the page's height at
 * every non-zero change (`resize`), posts `close` for an Esc the page
 * did not use itself (a menu it closed), and answers the parent's `focus` by moving focus to the screen's heading.
 */
export function startEmbedFrame(): void {
  const id = new URLSearchParams(window.location.search).get(EMBED_FRAME_ID_PARAM);
  const origins = frameMeta()?.origins ?? [];
  if (!isEmbeddedPage()) return;
  campaign = normalizeCampaignSlug(new URLSearchParams(window.location.search).get(CAMPAIGN_PARAM));
  if (!isEmbedFrameId(id) || window.parent === window) return;
  frameId = id;
  const ancestor = window.location.ancestorOrigins?.[0] ?? (document.referrer ? new URL(document.referrer).origin : null);
  parentOrigin = ancestor !== null && origins.includes(ancestor) ? ancestor : null;
  // NOTE: `ready` at once, not with the first height: a frame preloaded in button mode's closed dialog has no layout
  // (height 0, and Chromium may not run its ResizeObserver at all) until the dialog opens.
  postToHost({ event: 'ready' });
  const root = document.getElementById('root');
  let lastHeightPx = 0;
  if (root) {
    new ResizeObserver(() => {
      const heightPx = Math.ceil(root.getBoundingClientRect().height);
      if (heightPx === 0 || heightPx === lastHeightPx) return;
      lastHeightPx = heightPx;
      postToHost({ event: 'resize', heightPx });
    }).observe(root);
  }
  window.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && !event.defaultPrevented) postToHost({ event: 'close' });
  });
  window.addEventListener('message', (event) => {
    if (event.source !== window.parent || !origins.includes(event.origin)) return;
    const message = parseHostMessage(event.data);
    if (message === null || message.frameId !== frameId) return;
    document.querySelector<HTMLElement>('main h1')?.focus({ preventScroll: true });
  });
}
