import { describe, expect, it } from 'vitest';
import { pageAfterSignIn, signInPathFor } from './sign-in-redirect';

describe('the way back after signing in (issue #21)', () => {
  it('returns to the staff page and view the person came for', () => {
    const signIn = signInPathFor('/staff/donations?status=refunded&q=ana');
    expect(signIn).toBe('/staff/sign-in?next=%2Fstaff%2Fdonations%3Fstatus%3Drefunded%26q%3Dana');
    expect(pageAfterSignIn(signIn.slice(signIn.indexOf('?')))).toBe('/staff/donations?status=refunded&q=ana');
  });

  it('goes to the donations for anything that is not a staff page of this site (OWASP: unvalidated redirects)', () => {
    for (const next of ['https://evil.example/staff/x', '//evil.example/staff/', '/donate', '/staff/sign-in', '/staffing', '']) {
      expect(pageAfterSignIn(`?next=${encodeURIComponent(next)}`)).toBe('/staff');
    }
    expect(pageAfterSignIn('')).toBe('/staff');
  });
});
