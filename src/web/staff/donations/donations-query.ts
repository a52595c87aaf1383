/**
 * The donations page's view in its URL (issue #21: "every filter and the page live in the URL, so a link or the back
 * button gives the same view"): the query string of `/staff/donations` is the query of GET /api/staff/donations and of
 * its export, key for key (amounts in dollars, dates as YYYY-MM-DD), so the page passes it on as it is.
 */

/** The filter fields of the page, in the order the form shows them (pagination and sort are the table's). */
export const DONATION_FILTER_KEYS = ['q', 'from', 'to', 'status', 'frequency', 'cause', 'gateway', 'mode', 'paymentMethod', 'amountMin', 'amountMax', 'campaign'] as const;
/** One filter's key. */
export type DonationFilterKey = (typeof DONATION_FILTER_KEYS)[number];
/** The filter fields' values as the form holds them ('' = not filtered). */
export type DonationFilters = Record<DonationFilterKey, string>;

/** The table's columns the server sorts by, and the directions. */
export type DonationSort = 'date' | 'amount';
export type SortOrder = 'asc' | 'desc';

/** The page's view: its filters, the page (from 1), rows per page, and the sort. */
export interface DonationsView {
  filters: DonationFilters;
  page: number;
  pageSize: number;
  sort: DonationSort;
  order: SortOrder;
}

/** Rows a page offers; the first is the default. */
export const PAGE_SIZES = [25, 50, 100] as const;

/** A positive whole number from `value`, else `fallback`. */
function positiveInteger(value: string | null, fallback: number): number {
  const parsed = Number(value);
  return Number.isInteger(parsed) && parsed > 0 ? parsed : fallback;
}

/** The view a query string (`?status=refunded&page=2`) describes; missing or malformed values take the defaults. */
export function parseDonationsView(search: string): DonationsView {
  const params = new URLSearchParams(search);
  const filters = Object.fromEntries(DONATION_FILTER_KEYS.map((key) => [key, params.get(key) ?? ''])) as DonationFilters;
  const pageSize = positiveInteger(params.get('pageSize'), PAGE_SIZES[0]);
  return {
    filters,
    page: positiveInteger(params.get('page'), 1),
    pageSize: (PAGE_SIZES as readonly number[]).includes(pageSize) ? pageSize : PAGE_SIZES[0],
    sort: params.get('sort') === 'amount' ? 'amount' : 'date',
    order: params.get('order') === 'asc' ? 'asc' : 'desc',
  };
}

/**
 * The query string of `view`, defaults left out so links stay short: `status=refunded&sort=amount&order=asc`. With
 * `forExport`, the filters and sort only (the export is the whole filtered set, not one page).
 */
export function donationsViewQuery(view: DonationsView, { forExport = false } = {}): string {
  const params = new URLSearchParams();
  for (const key of DONATION_FILTER_KEYS) {
    const value = view.filters[key].trim();
    if (value) params.set(key, value);
  }
  if (view.sort !== 'date') params.set('sort', view.sort);
  if (view.order !== 'desc') params.set('order', view.order);
  if (!forExport) {
    if (view.page !== 1) params.set('page', String(view.page));
    if (view.pageSize !== PAGE_SIZES[0]) params.set('pageSize', String(view.pageSize));
  }
  return params.toString();
}
