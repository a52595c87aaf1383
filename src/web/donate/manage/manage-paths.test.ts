import { describe, expect, it } from 'vitest';
import { MANAGE_PAGE_PATH, MANAGE_PLAN_PAGE_PATH } from '../../../shared/recurring';
import { PATHS } from '../../../shared/site-paths';

/** The pages the server's e-mails link to (shared MANAGE_*_PATH) are the routes the site serves (issue #13). */
describe('/donate/manage', () => {
  it('is the path the e-mails link to, with and without a token', () => {
    expect(PATHS.manage).toBe(MANAGE_PAGE_PATH);
    expect(PATHS.managePlan).toBe(MANAGE_PLAN_PAGE_PATH);
  });
});
