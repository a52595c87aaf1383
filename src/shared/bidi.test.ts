import { describe, expect, it } from 'vitest';
import { isolated } from './bidi';

describe('isolated (issue #32, part 4: donor text isolated where staff read it)', () => {
  it('wraps a text in FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE, an Arabic or Hebrew one unchanged inside', () => {
    expect(isolated('Ana Reef')).toBe('\u2068Ana Reef\u2069');
    expect(isolated('\u0644\u064a\u0644\u0649 \u062d\u0633\u0646')).toBe('\u2068\u0644\u064a\u0644\u0649 \u062d\u0633\u0646\u2069');
    expect(`Donation by ${isolated('\u05e9\u05e8\u05d4')} on 2026-11-28`).toBe('Donation by \u2068\u05e9\u05e8\u05d4\u2069 on 2026-11-28');
  });

  it('leaves an empty text empty (a blank field adds no invisible characters)', () => {
    expect(isolated('')).toBe('');
  });
});
