import TableContainer from '@mui/material/TableContainer';
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
