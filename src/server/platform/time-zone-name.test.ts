import { describe, expect, it } from 'vitest';
import { canonicalTimeZone } from './time-zone-name';

describe('canonicalTimeZone', () => {
  it('knows IANA names in any case, and nothing else', () => {
    expect(canonicalTimeZone('america/belize')).toBe('America/Belize');
    expect(canonicalTimeZone('UTC')).toBe('UTC');
    expect(canonicalTimeZone('Mars/Olympus_Mons')).toBeUndefined();
    expect(canonicalTimeZone(':/etc/localtime')).toBeUndefined();
  });
});
