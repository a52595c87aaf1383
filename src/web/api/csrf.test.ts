import { describe, expect, it } from 'vitest';
import { readCookie } from './csrf';

describe('readCookie', () => {
  it('finds a cookie among others and URI-decodes its value', () => {
    expect(readCookie('XSRF-TOKEN', 'a=1; XSRF-TOKEN=abc%2Bdef; b=2')).toBe('abc+def');
  });

  it('keeps = signs inside the value', () => {
    expect(readCookie('XSRF-TOKEN', 'XSRF-TOKEN=abc==')).toBe('abc==');
  });

  it('returns null when the cookie is absent or only a prefix matches', () => {
    expect(readCookie('XSRF-TOKEN', 'XSRF-TOKEN2=x; other=y')).toBeNull();
    expect(readCookie('XSRF-TOKEN', '')).toBeNull();
  });

  it('returns a malformed escape as it is', () => {
    expect(readCookie('XSRF-TOKEN', 'XSRF-TOKEN=%E0%A4%A')).toBe('%E0%A4%A');
  });
});
