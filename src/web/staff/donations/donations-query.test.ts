import { describe, expect, it } from 'vitest';
import { donationsViewQuery, parseDonationsView } from './donations-query';

describe('the donations page view in the URL (issue #21)', () => {
  it('reads every filter, the page and the sort, and writes the same query back', () => {
    const search = 'q=marisol&from=2026-01-01&to=2026-03-31&status=partially_refunded&frequency=monthly&cause=research&gateway=test&mode=live&amountMin=12.50&amountMax=100&sort=amount&order=asc&page=3&pageSize=50';
    const view = parseDonationsView(`?${search}`);
    expect(view).toMatchObject({ page: 3, pageSize: 50, sort: 'amount', order: 'asc' });
    expect(view.filters).toMatchObject({ q: 'marisol', status: 'partially_refunded', amountMin: '12.50' });
    expect(new URLSearchParams(donationsViewQuery(view))).toEqual(new URLSearchParams(search));
  });

  it('falls back to the first page of 25, newest first, for missing or malformed values, and leaves defaults out', () => {
    const view = parseDonationsView('?page=-2&pageSize=7&sort=name&order=sideways');
    expect(view).toMatchObject({ page: 1, pageSize: 25, sort: 'date', order: 'desc' });
    expect(donationsViewQuery(view)).toBe('');
  });

  it('gives the export the filters and sort without the page', () => {
    const view = parseDonationsView('?status=refunded&page=4&pageSize=100&sort=amount');
    expect(donationsViewQuery(view, { forExport: true })).toBe('status=refunded&sort=amount');
  });
});
