import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import type { ReactNode } from 'react';

/**
 * A staff table's frame: a labelled region that scrolls sideways inside itself when the table is wider than the
 * screen (at 320 px the page itself never scrolls sideways, WCAG 1.4.10 Reflow, which exempts data tables), focusable
 * so that a keyboard can scroll it (axe: scrollable-region-focusable).
 */
export function ScrollTable({ label, children }: { label: string; children: ReactNode }) {
  return (
    <TableContainer component="div" role="region" aria-label={label} tabIndex={0} sx={{ bgcolor: 'background.paper', borderRadius: 1, mb: 2, '&:focus-visible': { outline: '3px solid', outlineColor: 'primary.dark', outlineOffset: '2px' } }}>
      {children}
    </TableContainer>
  );
}

/**
 * A small staff table in its {@link ScrollTable} frame: one header row of column headers (`scope="col"`; a header may be
 * a node, e.g. a visually hidden "Actions") and `children` as the body's rows.
 */
export function HeadedTable({ label, headers, children }: { label: string; headers: readonly ReactNode[]; children: ReactNode }) {
  return (
    <ScrollTable label={label}>
      <Table size="small">
        <TableHead>
          <TableRow>
            {headers.map((header, index) => (
              <TableCell key={index} scope="col">
                {header}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>{children}</TableBody>
      </Table>
    </ScrollTable>
  );
}
