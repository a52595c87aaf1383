import { describe, expect, it } from 'vitest';
import { acceptFrameEvent } from './accept-frame-event';
import { embedMessage, parseFrameMessage, parseHostMessage } from '../../../shared/embed-protocol';

// Issue #35, "Must be shown": a unit test of the message format (unknown versions, wrong origins and malformed messages ignored).
const SITE = 'https://give.example.org';
const frameId = 'abc123xyz0';

describe('the embed message format', () => {
  it('reads each event of version 1 and drops extra fields', () => {
    expect(parseFrameMessage(embedMessage(frameId, { event: 'ready' }))).toEqual({ source: 'reef-donate', version: 1, frameId, event: 'ready' });
    expect(parseFrameMessage({ ...embedMessage(frameId, { event: 'resize', heightPx: 812 }), extra: 'x' })).toEqual(
      embedMessage(frameId, { event: 'resize', heightPx: 812 }),
    );
    const completed = embedMessage(frameId, { event: 'completed', amount: 25, frequency: 'monthly', campaign: 'spring', currency: 'USD' });
    expect(parseFrameMessage({ ...completed, donorName: 'Ana', email: 'ana@example.org' })).toEqual(completed);
    expect(parseFrameMessage(embedMessage(frameId, { event: 'close' }))?.event).toBe('close');
    expect(parseHostMessage(embedMessage(frameId, { event: 'focus' }))?.event).toBe('focus');
  });

  it.each([
    ['another version', { ...embedMessage(frameId, { event: 'ready' }), version: 2 }],
    ['a version as text', { ...embedMessage(frameId, { event: 'ready' }), version: '1' }],
    ['another source', { ...embedMessage(frameId, { event: 'ready' }), source: 'other-widget' }],
    ['no frame id', { source: 'reef-donate', version: 1, event: 'ready' }],
    ['a malformed frame id', { ...embedMessage(frameId, { event: 'ready' }), frameId: '<script>' }],
    ['an unknown event', { ...embedMessage(frameId, { event: 'ready' }), event: 'navigate' }],
    ['a height that is text', { ...embedMessage(frameId, { event: 'ready' }), event: 'resize', heightPx: '800' }],
    ['an endless height', { ...embedMessage(frameId, { event: 'ready' }), event: 'resize', heightPx: Infinity }],
    ['a negative height', { ...embedMessage(frameId, { event: 'ready' }), event: 'resize', heightPx: -1 }],
    ['a gift without amount', { ...embedMessage(frameId, { event: 'ready' }), event: 'completed', frequency: 'monthly', campaign: null, currency: 'USD' }],
    ['a gift of an unknown frequency', { ...embedMessage(frameId, { event: 'ready' }), event: 'completed', amount: 25, frequency: 'weekly', campaign: null, currency: 'USD' }],
    ['a gift in another currency', { ...embedMessage(frameId, { event: 'ready' }), event: 'completed', amount: 25, frequency: 'monthly', campaign: null, currency: 'EUR' }],
    ['a gift with a malformed campaign', { ...embedMessage(frameId, { event: 'ready' }), event: 'completed', amount: 25, frequency: 'monthly', campaign: '../x', currency: 'USD' }],
    ['text', 'reef-donate:completed'],
    ['null', null],
    ['an array', [embedMessage(frameId, { event: 'ready' })]],
  ])('ignores %s', (_what, data) => {
    expect(parseFrameMessage(data)).toBeNull();
    expect(parseHostMessage(data)).toBeNull();
  });

  it("takes a frame's message only from the site's origin and from that element's own frame", () => {
    const frameWindow = {};
    const frames = (id: string) => (id === frameId ? { frameWindow } : undefined);
    const data = embedMessage(frameId, { event: 'resize', heightPx: 640 });
    expect(acceptFrameEvent({ origin: SITE, source: frameWindow as MessageEventSource, data }, SITE, frames)).toEqual(data);
    expect(acceptFrameEvent({ origin: 'https://evil.example', source: frameWindow as MessageEventSource, data }, SITE, frames)).toBeNull();
    expect(acceptFrameEvent({ origin: SITE, source: {} as MessageEventSource, data }, SITE, frames)).toBeNull();
    expect(acceptFrameEvent({ origin: SITE, source: frameWindow as MessageEventSource, data: { ...data, frameId: 'otherframe1' } }, SITE, frames)).toBeNull();
    expect(acceptFrameEvent({ origin: SITE, source: frameWindow as MessageEventSource, data: { ...data, version: 9 } }, SITE, frames)).toBeNull();
  });
});
