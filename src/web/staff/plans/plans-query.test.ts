import { describe, expect, it } from 'vitest';
import { parsePlansView, plansViewQuery } from './plans-query';

describe('the plans view in the URL', () => {
  it('reads and writes filters, order and page, leaving defaults out', () => {
    const view = parsePlansView('?q=ana&status=paused&sort=amount&order=desc&page=3&pageSize=50');
    expect(view).toMatchObject({ order: 'amount:desc', page: 3, pageSize: 50 });
    expect(view.filters).toMatchObject({ q: 'ana', status: 'paused', cause: '' });
    expect(plansViewQuery(view)).toBe('q=ana&status=paused&sort=amount&order=desc&page=3&pageSize=50');
    expect(plansViewQuery(parsePlansView(''))).toBe('');
  });

  it('takes the defaults for malformed values', () => {
    expect(parsePlansView('?sort=donor&page=-2&pageSize=7')).toMatchObject({ order: 'next_charge:asc', page: 1, pageSize: 25 });
  });
});
