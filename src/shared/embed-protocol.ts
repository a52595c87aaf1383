/**
 * The message format between `<reef-donate>` (embed.js, on the host page) and the framed donation pages (issue #35;
 * decision 0104). One envelope, versioned: `{ source: 'reef-donate', version: 1, frameId, event, ...fields }`.
 * Frame to host: `ready`, `resize` (`heightPx`), `completed` (`amount` in dollars, `frequency`, `campaign`, `currency`:
 * never the donor's name, e-mail or card), `close` (Esc pressed inside the frame). Host to frame: `focus` (the dialog
 * opened: move focus into the flow).
 * Plain code, no zod: embed.js must stay under 3 kB gzip. Each side also checks WHO sent a message (the host: the site's
 * origin and its own frame's window; the frame: its parent and an EMBED_ORIGINS origin) before parsing it; anything
 * else, an unknown version or a malformed message, is ignored.
 */

/** The envelope's `source`: tells our messages from any other the page receives. */
export const EMBED_MESSAGE_SOURCE = 'reef-donate';
/** The only version this code speaks; a message of another version is ignored (a newer embed.js talks to an older site). */
export const EMBED_PROTOCOL_VERSION = 1;
/** The query parameter carrying the frame's id from embed.js to the framed page. */
export const EMBED_FRAME_ID_PARAM = 'frame';

/** Header in which a framed donation page echoes its page token (issue #35; decision 0105). */
export const EMBED_TOKEN_HEADER = 'X-Embed-Token';
/** Name of the `<meta>` tag carrying a framed page's token and the origins it may post to (issue #35). */
export const EMBED_META_NAME = 'embed-frame';

/** A frame's id: 8 to 32 lower-case letters and digits, made by embed.js per element. */
export function isEmbedFrameId(value: unknown): value is string {
  return typeof value === 'string' && /^[a-z0-9]{8,32}$/.test(value);
}

/** What the framed page tells the host. `amount` is dollars (the spec's donation result), `heightPx` CSS pixels. */
export type FrameEvent =
  | { event: 'ready' }
  | { event: 'resize'; heightPx: number }
  | { event: 'completed'; amount: number; frequency: 'one-time' | 'monthly' | 'yearly'; campaign: string | null; currency: 'USD' }
  | { event: 'close' };

/** What the host tells the framed page. */
export type HostEvent = { event: 'focus' };

/** One message on the wire: the envelope and its event. */
export type EmbedMessage<E> = E & { source: typeof EMBED_MESSAGE_SOURCE; version: typeof EMBED_PROTOCOL_VERSION; frameId: string };

/** The message `event` of frame `frameId`, ready for postMessage. */
export function embedMessage<E extends FrameEvent | HostEvent>(frameId: string, event: E): EmbedMessage<E> {
  return { source: EMBED_MESSAGE_SOURCE, version: EMBED_PROTOCOL_VERSION, frameId, ...event };
}

const FREQUENCY_VALUES = ['one-time', 'monthly', 'yearly'];
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The envelope's fields when `data` is one of ours, of this version, with a well-formed frame id; else null. */
function envelope(data: unknown): Record<string, unknown> | null {
  if (!isRecord(data) || data.source !== EMBED_MESSAGE_SOURCE || data.version !== EMBED_PROTOCOL_VERSION || !isEmbedFrameId(data.frameId)) return null;
  return data;
}

/**
 * `data` (a MessageEvent's) as a frame's message, or null when it is not a well-formed one of this version: unknown event,
 * missing or wrong-typed field (a height that is not a finite number from 0 to 100,000, an amount that is not a positive
 * number, an unknown frequency, a campaign that is not a slug or null, a currency other than USD). Extra fields are dropped.
 */
export function parseFrameMessage(data: unknown): EmbedMessage<FrameEvent> | null {
  const message = envelope(data);
  if (message === null) return null;
  const base = { source: EMBED_MESSAGE_SOURCE, version: EMBED_PROTOCOL_VERSION, frameId: message.frameId as string } as const;
  switch (message.event) {
    case 'ready':
    case 'close':
      return { ...base, event: message.event };
    case 'resize': {
      const heightPx = message.heightPx;
      return typeof heightPx === 'number' && Number.isFinite(heightPx) && heightPx >= 0 && heightPx <= 100_000 ? { ...base, event: 'resize', heightPx } : null;
    }
    case 'completed': {
      const { amount, frequency, campaign, currency } = message;
      if (typeof amount !== 'number' || !Number.isFinite(amount) || amount <= 0) return null;
      if (typeof frequency !== 'string' || !FREQUENCY_VALUES.includes(frequency)) return null;
      if (campaign !== null && (typeof campaign !== 'string' || !/^[a-z0-9-]{1,64}$/.test(campaign))) return null;
      if (currency !== 'USD') return null;
      return { ...base, event: 'completed', amount, frequency: frequency as 'one-time', campaign, currency };
    }
    default:
      return null;
  }
}

/** `data` as the host's message (`focus`), or null when it is not a well-formed one of this version. */
export function parseHostMessage(data: unknown): EmbedMessage<HostEvent> | null {
  const message = envelope(data);
  if (message === null || message.event !== 'focus') return null;
  return { source: EMBED_MESSAGE_SOURCE, version: EMBED_PROTOCOL_VERSION, frameId: message.frameId as string, event: 'focus' };
}
