import { parseFrameMessage, type EmbedMessage, type FrameEvent } from '../../../shared/embed-protocol';

/**
 * Whether a message event should reach frame `frameId`'s element: from the site's origin, from that element's own frame
 * window, and a well-formed message of this version. Returns the element and message, or null.
 */
export function acceptFrameEvent(
  event: Pick<MessageEvent, 'origin' | 'source' | 'data'>,
  siteOrigin: string,
  frameOf: (frameId: string) => { frameWindow: unknown } | undefined,
): EmbedMessage<FrameEvent> | null {
  if (event.origin !== siteOrigin) return null;
  const message = parseFrameMessage(event.data);
  if (message === null) return null;
  const target = frameOf(message.frameId);
  return target !== undefined && target.frameWindow === event.source && event.source !== null ? message : null;
}
