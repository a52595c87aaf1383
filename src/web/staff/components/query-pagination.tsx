import TablePagination from '@mui/material/TablePagination';

/** Props of {@link QueryPagination}: the list's size, the page shown (1-based), its size, the page's query and how to show another. */
export interface QueryPaginationProps {
  /** Rows in the whole filtered list. */
  total: number;
  /** The page shown, 1-based, as the URL's `page`. */
  page: number;
  pageSize: number;
  /** The page's query as it stands (its filters are kept). */
  params: URLSearchParams;
  /** Shows the page of `query` (puts it in the URL). */
  show: (query: URLSearchParams) => void;
}

/**
 * The pager of a staff list whose page lives in the URL (issues #21 and #22: "filters in the URL"): MUI's
 * TablePagination at a fixed page size; moving to another page keeps the query's filters and sets `page` (1-based).
 * Scrolls sideways rather than overflow at 320 px (WCAG 1.4.10).
 */
export function QueryPagination({ total, page, pageSize, params, show }: QueryPaginationProps) {
  return (
    <TablePagination
      component="div"
      count={total}
      page={page - 1}
      rowsPerPage={pageSize}
      rowsPerPageOptions={[]}
      onPageChange={(_event, next) => {
        const query = new URLSearchParams(params);
        query.set('page', String(next + 1));
        show(query);
      }}
      sx={{ overflowX: 'auto' }}
    />
  );
}
