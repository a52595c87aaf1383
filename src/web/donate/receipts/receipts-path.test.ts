import { describe, expect, it } from 'vitest';
import { RECEIPTS_PAGE_PATH } from '../../../shared/receipts';
import { PATHS } from '../../../shared/site-paths';

/** The page the server's e-mails link to (shared RECEIPTS_PAGE_PATH) is the route the site serves (issue #12). */
describe('/donate/receipts', () => {
  it('is the path the e-mails link to', () => {
    expect(PATHS.receipts).toBe(RECEIPTS_PAGE_PATH);
  });
});
