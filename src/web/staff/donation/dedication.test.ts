import { describe, expect, it } from 'vitest';
import { describeDedication } from './dedication';

describe('describeDedication (issue #23: the staff donation page shows the dedication)', () => {
  it('names the kind, the honoree and whom the card went to, with the message', () => {
    expect(describeDedication({ type: 'memory', honoreeName: 'Grandma Rosa', notify: { name: 'Luis Reef', email: 'luis@example.org', message: 'She loved the reef.' } })).toBe(
      'In memory of Grandma Rosa; card to Luis Reef <luis@example.org>: "She loved the reef."',
    );
  });

  it('says when no card was asked for, and gives a dash for a gift not dedicated', () => {
    expect(describeDedication({ type: 'honor', honoreeName: 'Coach Kim', notify: null })).toBe('In honour of Coach Kim; no card');
    expect(describeDedication({ type: 'honor', honoreeName: 'Coach Kim', notify: { name: 'Kim', email: 'kim@example.org', message: null } })).toBe(
      'In honour of Coach Kim; card to Kim <kim@example.org>',
    );
    expect(describeDedication(null)).toBe('—');
  });
});
