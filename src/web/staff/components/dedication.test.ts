import { describe, expect, it } from 'vitest';
import { describeDedication } from './dedication';

/** `text` between FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE, as shared/bidi.ts isolates a donor's text. */
const i = (text: string) => `\u2068${text}\u2069`;

describe('describeDedication (issue #23: the staff donation page shows the dedication)', () => {
  it('names the kind, the honoree and whom the card went to, with the message', () => {
    expect(describeDedication({ type: 'memory', honoreeName: 'Grandma Rosa', notify: { name: 'Luis Reef', email: 'luis@example.org', message: 'She loved the reef.' } })).toBe(
      `In memory of ${i('Grandma Rosa')}; card to ${i('Luis Reef')} <${i('luis@example.org')}>: "${i('She loved the reef.')}"`,
    );
  });

  it('says when no card was asked for, and gives a dash for a gift not dedicated', () => {
    expect(describeDedication({ type: 'honor', honoreeName: 'Coach Kim', notify: null })).toBe(`In honour of ${i('Coach Kim')}; no card`);
    expect(describeDedication({ type: 'honor', honoreeName: 'Coach Kim', notify: { name: 'Kim', email: 'kim@example.org', message: null } })).toBe(
      `In honour of ${i('Coach Kim')}; card to ${i('Kim')} <${i('kim@example.org')}>`,
    );
    expect(describeDedication(null)).toBe('—');
  });

  it('isolates every donor-supplied text (issue #32, part 4): a Hebrew honoree cannot reorder "; card to" after it', () => {
    const text = describeDedication({ type: 'memory', honoreeName: '\u05e9\u05e8\u05d4 \u05dc\u05d5\u05d9', notify: null });
    expect(text).toBe(`In memory of ${i('\u05e9\u05e8\u05d4 \u05dc\u05d5\u05d9')}; no card`);
  });
});
