import { describe, expect, it } from 'vitest';
import { readCookie, readCsrfToken } from './csrf';

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

describe('readCsrfToken', () => {
  it('reads XSRF-TOKEN over plain HTTP', () => {
    expect(readCsrfToken('_other=1; XSRF-TOKEN=plain')).toBe('plain');
  });

  it('reads __Host-XSRF-TOKEN over HTTPS, and prefers it when both are present (issue #4)', () => {
    expect(readCsrfToken('__Host-XSRF-TOKEN=hosted')).toBe('hosted');
    expect(readCsrfToken('XSRF-TOKEN=plain; __Host-XSRF-TOKEN=hosted')).toBe('hosted');
  });

  it('returns null without either cookie', () => {
    expect(readCsrfToken('a=1')).toBeNull();
  });
});
