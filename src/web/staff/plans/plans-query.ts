/**
 * The plans page's view in its URL (issue #22: "filters ... and search, `q` in the URL as on the donations list"): the
 * query string of `/staff/plans` is the query of GET /api/staff/plans, key for key (amounts in dollars, dates as
 * YYYY-MM-DD), so the page passes it on as it is.
 */

/** The filter fields of the page, in the order the form shows them. */
export const PLAN_FILTER_KEYS = ['q', 'status', 'frequency', 'cause', 'nextFrom', 'nextTo', 'amountMin', 'amountMax'] as const;
/** One filter's key. */
export type PlanFilterKey = (typeof PLAN_FILTER_KEYS)[number];
/** The filter fields' values as the form holds them ('' = not filtered). */
export type PlanFilters = Record<PlanFilterKey, string>;

/** The orders the page offers, as `sort:order` (the API's `sort` and `order`); the first is the default. */
export const PLAN_ORDERS = ['next_charge:asc', 'next_charge:desc', 'amount:desc', 'amount:asc', 'created:desc', 'created:asc'] as const;
/** One of {@link PLAN_ORDERS}. */
export type PlanOrder = (typeof PLAN_ORDERS)[number];

/** Rows a page offers; the first is the default. */
export const PLAN_PAGE_SIZES = [25, 50, 100] as const;

/** The page's view: its filters, order, the page (from 1) and rows per page. */
export interface PlansView {
  filters: PlanFilters;
  order: PlanOrder;
  page: number;
  pageSize: number;
}

/** A positive whole number from `value`, else `fallback`. */
function positiveInteger(value: string | null, fallback: number): number {
  const parsed = Number(value);
  return Number.isInteger(parsed) && parsed > 0 ? parsed : fallback;
}

/** The view a query string (`?status=paused&page=2`) describes; missing or malformed values take the defaults. */
export function parsePlansView(search: string): PlansView {
  const params = new URLSearchParams(search);
  const filters = Object.fromEntries(PLAN_FILTER_KEYS.map((key) => [key, params.get(key) ?? ''])) as PlanFilters;
  const order = `${params.get('sort') ?? 'next_charge'}:${params.get('order') ?? (params.get('sort') && params.get('sort') !== 'next_charge' ? 'desc' : 'asc')}`;
  const pageSize = positiveInteger(params.get('pageSize'), PLAN_PAGE_SIZES[0]);
  return {
    filters,
    order: (PLAN_ORDERS as readonly string[]).includes(order) ? (order as PlanOrder) : PLAN_ORDERS[0],
    page: positiveInteger(params.get('page'), 1),
    pageSize: (PLAN_PAGE_SIZES as readonly number[]).includes(pageSize) ? pageSize : PLAN_PAGE_SIZES[0],
  };
}

/** The query string of `view`, defaults left out so links stay short: `status=paused&sort=amount&order=desc`. */
export function plansViewQuery(view: PlansView): string {
  const params = new URLSearchParams();
  for (const key of PLAN_FILTER_KEYS) {
    const value = view.filters[key].trim();
    if (value) params.set(key, value);
  }
  if (view.order !== PLAN_ORDERS[0]) {
    const [sort = 'next_charge', order = 'asc'] = view.order.split(':');
    params.set('sort', sort);
    params.set('order', order);
  }
  if (view.page !== 1) params.set('page', String(view.page));
  if (view.pageSize !== PLAN_PAGE_SIZES[0]) params.set('pageSize', String(view.pageSize));
  return params.toString();
}
